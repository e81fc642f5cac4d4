// Scan, Reduce and SegmentedScan: choosing variants and strategies, laying out temporary
// storage, and recording the passes with the barriers between them.
#include "core/call_checks.hpp"
#include "core/device_count.hpp"
#include "core/look_back.hpp"
#include "core/plan_access.hpp"
#include "core/temp_storage.hpp"
#include "elementwise/pass.hpp"
#include "scan/pass.hpp"
#include "scan/policy.hpp"

#include <vkprim/elementwise.hpp>
#include <vkprim/scan.hpp>
#include <vkprim/testing.hpp>

#include <optional>
#include <string>

namespace vkprim {
namespace detail {

namespace {
// The aggregate the passes combine: an operator of variants::Op, or the compensated sum (its
// own families, f32 and f64 only).
struct Agg {
  variants::Op op = variants::Op::sum;
  bool kahan = false;
};
enum class ScanPass { tiles, reduce, partials, ranges };
}  // namespace

struct ScanPlan {
  const ContextImpl* ctx = nullptr;
  bool leading_barrier = true;  // ScanOptions
  std::string what;  // "Scan", "Reduce", "SegmentedScan": for messages
  ValueType type = ValueType::u32;
  bool segmented = false;
  bool subgroup = false;
  ScanStrategy strategy = ScanStrategy::single_pass;  // resolved, for out-of-place calls
  uint32_t esz = 4, agg_words = 1, items = 16, wg = tuning::kScanWorkgroup;
  uint32_t max_range_groups = tuning::kRangeGroups;
  // The single pass comes in two builds (shaders/common/spec_ids.h, HOST_COUNT_ONLY): `tiles`
  // for host counts, which holds no code reading a count on the GPU (with that code its compiled
  // pass takes several times the shared memory, and runs slower, on some drivers), and
  // `tiles_device` for counts on the GPU. Both exist only where calls run the single pass
  // (strategy single_pass); recording creates nothing.
  Pipeline tiles, tiles_device, reduce, partials, ranges, heads;
  PipelineDesc tiles_desc;  // the single pass's shape (tile items: workgroup_size x items)
  std::optional<Fill> fill;
  std::optional<Buffer> owned_temp;

  // Tiles of the reduce-then-scan passes (ranges are made of them); the single pass's tiles
  // (single_tile_items(), tuning::scan_single_pass_items) are as large or larger.
  uint64_t tile_items() const { return uint64_t(wg) * items; }
  uint64_t tile_count(uint64_t n) const { return (n + tile_items() - 1) / tile_items(); }
  uint64_t single_tile_items() const { return uint64_t(tiles_desc.workgroup_size) * tiles_desc.items; }
  uint64_t single_tile_count(uint64_t n) const { return (n + single_tile_items() - 1) / single_tile_items(); }
  uint32_t range_groups(uint64_t n) const {
    return uint32_t(std::clamp<uint64_t>(tile_count(n), 1, max_range_groups));
  }
  // Single pass: one workgroup per tile, as a 2-D grid when there are more tiles than one
  // dimension takes (the shader numbers tiles by atomic counter, not by workgroup id).
  std::pair<uint32_t, uint32_t> single_groups(uint64_t n) const {
    const uint64_t count = std::max<uint64_t>(single_tile_count(n), 1);
    const uint64_t x = std::min<uint64_t>(count, ctx->caps.max_workgroup_count[0]);
    return {uint32_t(x), uint32_t((count + x - 1) / x)};
  }
  uint64_t state_bytes(uint64_t n) const { return tile_state_bytes(single_tile_count(n), agg_words); }
  uint64_t partial_bytes(uint64_t n) const { return align16(uint64_t(range_groups(n)) * agg_words * 4); }
  uint64_t heads_bytes(uint64_t n) const { return segmented ? align16(n * 4) : 0; }
  // Temp layout: [head flags (offsets form)] [tile state or range partials].
  uint64_t temp_bytes(uint64_t n, bool scan) const {
    uint64_t main = partial_bytes(n);
    if (scan) main = std::max(main, align16(state_bytes(n)));
    return heads_bytes(n) + main;
  }

  // The variant of pass `pass` for this plan's (operator, type, subgroup layer).
  Shader variant(ScanPass pass, const Agg& agg) const {
    const auto layer = variants::layer_axis(subgroup);
    if (agg.kahan) {
      const auto real = variants::real_axis(type);
      switch (pass) {
        case ScanPass::tiles: return variants::scan_tiles_kahan(real, layer);
        case ScanPass::reduce: return variants::reduce_tiles_kahan(real, layer);
        case ScanPass::partials: return variants::scan_partials_kahan(real, layer);
        case ScanPass::ranges: return variants::scan_ranges_kahan(real, layer);
      }
    }
    const auto value = variants::value_axis(type);
    switch (pass) {
      case ScanPass::tiles: return variants::scan_tiles(agg.op, value, layer);
      case ScanPass::reduce: return variants::reduce_tiles(agg.op, value, layer);
      case ScanPass::partials: return variants::scan_partials(agg.op, value, layer);
      case ScanPass::ranges: break;
    }
    return variants::scan_ranges(agg.op, value, layer);
  }
  // Pass `pass` of this plan's variant.
  PipelineDesc desc(ScanPass pass, uint32_t push_bytes, const Agg& agg, uint32_t pass_items,
                    uint32_t pass_wg = 0) const {
    PipelineDesc d;
    d.shader = variant(pass, agg);
    d.push_bytes = push_bytes;
    d.workgroup_size = pass_wg ? pass_wg : wg;
    d.items = pass_items;
    return d;
  }
  Result<Pipeline> make(ScanPass pass, uint32_t push_bytes, const Agg& agg, uint32_t pass_items) const {
    return Pipeline::create(*ctx, desc(pass, push_bytes, agg, pass_items));
  }


  Status check_view(const char* name, BufferView v, uint64_t bytes) const {
    return detail::check_view(what, name, v, bytes, esz);
  }

  Result<BufferView> resolve_temp(BufferView temp, uint64_t need) const {
    return detail::resolve_temp(what, temp, owned_temp, need);
  }

  Status check_count(const Count& c) const {
    VKPRIM_TRY(check_device_count(c, what, 0xFFFFFFFFull, ~uint64_t(0)));
    const uint64_t tiles = tile_count(c.n);
    const uint64_t grid = uint64_t(ctx->caps.max_workgroup_count[0]) * ctx->caps.max_workgroup_count[1];
    if (tiles >= (uint64_t(1) << 32) || tiles > grid)
      return make_error(Errc::limit_exceeded, what + ": " + std::to_string(c.n) + " elements exceed the device's dispatch limits");
    return {};
  }

  // Every check of a scan call (record_scan's, made before it records anything; the head flags
  // are the caller's to check): the temporary storage the call uses.
  Result<BufferView> check_scan(BufferView in, BufferView out, const Count& count, BufferView temp_in) const {
    VKPRIM_TRY(check_count(count));
    const uint64_t n = count.n;
    VKPRIM_TRY(check_view("input", in, n * esz));
    VKPRIM_TRY(check_view("output", out, n * esz));
    if (in.address != out.address && n && in.address < out.address + n * esz && out.address < in.address + n * esz)
      return make_error(Errc::invalid_argument, what + ": input and output overlap without being the same range");
    return resolve_temp(temp_in, temp_bytes(n, true));
  }

  // Records a scan. `heads` nonzero for segmented scans.
  Status record_scan(VkCommandBuffer cmd, BufferView in, uint64_t heads, BufferView out,
                     const Count& count, BufferView temp_in, bool exclusive, uint64_t heads_reserved) const {
    auto temp = check_scan(in, out, count, temp_in);
    if (!temp) return temp.error();
    const uint64_t n = count.n;
    const bool in_place = in.address == out.address;
    ScanStrategy s = in_place ? ScanStrategy::reduce_then_scan : strategy;
    const BufferView work = temp->sub(heads_reserved, temp->size - heads_reserved);
    const uint64_t count_addr = count_address(count);
    uint32_t flags = exclusive ? kScanExclusive : 0;
    if (in.address % 16 == 0 && out.address % 16 == 0 && heads % 16 == 0) flags |= kScanAligned16;

    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of temp (and inputs) are done
    if (!count.is_device() && n == 0) return {};
    if (s == ScanStrategy::single_pass) {
      VKPRIM_TRY(fill->record(cmd, work.sub(0, align16(state_bytes(n))), uint32_t(0)));
      compute_to_compute_barrier(*ctx, cmd);
      ScanTilesPush p{in.address, out.address, heads, work.address, count_addr, n, flags};
      const auto [gx, gy] = single_groups(n);
      (count.is_device() ? tiles_device : tiles).dispatch(cmd, &p, gx, gy);
      return {};
    }
    const uint32_t groups = range_groups(n);
    ReduceTilesPush r{in.address, heads, work.address, count_addr, n, groups, flags};
    reduce.dispatch(cmd, &r, groups);
    compute_to_compute_barrier(*ctx, cmd);
    ScanPartialsPush sp{work.address, 0, groups};
    partials.dispatch(cmd, &sp, 1);
    compute_to_compute_barrier(*ctx, cmd);
    ScanRangesPush sr{in.address, out.address, heads, work.address, count_addr, n, groups, flags};
    ranges.dispatch(cmd, &sr, groups);
    return {};
  }

  // Every check of a reduce call (record_reduce's, made before it records anything): the
  // temporary storage the call uses.
  Result<BufferView> check_reduce(BufferView in, BufferView out, const Count& count, BufferView temp_in) const {
    VKPRIM_TRY(check_count(count));
    const uint64_t n = count.n;
    VKPRIM_TRY(check_view("input", in, n * esz));
    VKPRIM_TRY(check_view("output", out, esz));
    return resolve_temp(temp_in, temp_bytes(n, false));
  }

  Status record_reduce(VkCommandBuffer cmd, BufferView in, BufferView out, const Count& count,
                       BufferView temp_in) const {
    auto temp = check_reduce(in, out, count, temp_in);
    if (!temp) return temp.error();
    const uint64_t n = count.n;
    const uint64_t count_addr = count_address(count);
    const uint32_t flags = in.address % 16 == 0 ? kScanAligned16 : 0;
    const uint32_t groups = range_groups(n);
    compute_to_compute_barrier(*ctx, cmd);
    ReduceTilesPush r{in.address, 0, temp->address, count_addr, n, groups, flags};
    reduce.dispatch(cmd, &r, groups);
    compute_to_compute_barrier(*ctx, cmd);
    ScanPartialsPush sp{temp->address, out.address, groups};
    partials.dispatch(cmd, &sp, 1);
    return {};
  }
};

namespace {
// Builds the plan shared by the three public classes.
Result<std::unique_ptr<ScanPlan>> make_plan(const Context& context, const char* what,
                                            ValueType type, const Agg& agg,
                                            const ScanOptions& o, const testing::ScanKnobs& k,
                                            bool need_scan) {
  const auto& ctx = context.impl();
  const auto& caps = ctx.caps;
  auto plan = std::make_unique<ScanPlan>();
  plan->ctx = &ctx;
  plan->what = what;
  plan->leading_barrier = o.leading_barrier;
  plan->type = type;
  plan->segmented = !agg.kahan && agg.op == variants::Op::segsum;
  plan->esz = uint32_t(size_of(type));
  if (type == ValueType::f64 && !caps.shader_float64)
    return make_error(Errc::unsupported, std::string(what) + "<f64>: the device has no shaderFloat64");
  plan->agg_words = agg.kahan ? tuning::scan_kahan_agg_words(plan->esz)
                              : tuning::scan_agg_words(agg.op, plan->esz);
  plan->items = tuning::scan_items(plan->agg_words);
  const bool needs_shuffle = agg.kahan || plan->segmented;
  plan->subgroup = o.use_subgroup_ops &&
                   (k.force_subgroup_ops ||
                    tuning::scan_prefers_subgroup_ops(ctx.device_class, plan->esz)) &&
                   (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                   (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_BALLOT_BIT) &&
                   (!needs_shuffle || (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT)) &&
                   (plan->esz == 4 || caps.subgroup_extended_types);
  if (o.range_groups) plan->max_range_groups = std::min(o.range_groups, caps.max_workgroup_count[0]);
  plan->strategy = o.strategy;
  if (o.deterministic) {
    if (o.strategy == ScanStrategy::single_pass)
      return make_error(Errc::invalid_argument, std::string(what) + ": the deterministic mode is reduce-then-scan, not single pass");
    plan->strategy = ScanStrategy::reduce_then_scan;
  }
  if (plan->strategy == ScanStrategy::automatic)
    plan->strategy = tuning::scan_automatic_strategy(ctx.device_class);
  auto reduce = plan->make(ScanPass::reduce, kReduceTilesPushBytes, agg, plan->items);
  if (!reduce) return reduce.error();
  plan->reduce = std::move(*reduce);
  auto partials = plan->make(ScanPass::partials, kScanPartialsPushBytes, agg, plan->items);
  if (!partials) return partials.error();
  plan->partials = std::move(*partials);
  if (need_scan) {
    LookBackSpec look_back;
    look_back.spin_limit = k.spin_limit ? k.spin_limit : tuning::kSpinLimit;
    look_back.stall_period = k.stall_period;
    plan->tiles_desc = plan->desc(ScanPass::tiles, kScanTilesPushBytes, agg,
                                  tuning::scan_single_pass_items(plan->agg_words, plan->subgroup),
                                  // at most the device's limit; the policy's never below the other passes'
                                  std::min(k.single_pass_workgroup
                                               ? k.single_pass_workgroup
                                               : std::max(plan->wg, tuning::scan_single_pass_workgroup(
                                                                        plan->agg_words)),
                                           caps.max_workgroup_invocations));
    set_look_back_spec(plan->tiles_desc, look_back);
    if (plan->strategy == ScanStrategy::single_pass) {
      for (const bool device_count : {false, true}) {
        PipelineDesc d = plan->tiles_desc;
        d.set_spec(VKPRIM_SPEC_HOST_COUNT_ONLY, device_count ? 0 : 1);
        auto tiles = Pipeline::create(ctx, d);
        if (!tiles) return tiles.error();
        (device_count ? plan->tiles_device : plan->tiles) = std::move(*tiles);
      }
    }
    auto ranges = plan->make(ScanPass::ranges, kScanRangesPushBytes, agg, plan->items);
    if (!ranges) return ranges.error();
    plan->ranges = std::move(*ranges);
    auto fill = Fill::create(context);
    if (!fill) return fill.error();
    plan->fill = std::move(*fill);
  }
  if (plan->segmented) {
    const auto t = tuning::kSegmentHeads;
    auto heads = Pipeline::create(ctx, {Shader::segment_heads, kSegmentHeadsPushBytes, t.workgroup_size, t.items});
    if (!heads) return heads.error();
    plan->heads = std::move(*heads);
  }
  return plan;
}

Result<Agg> agg_of(const char* what, ValueType type, ScanOp op, const ScanOptions& o) {
  if (o.compensated) {
    if (op != ScanOp::sum || (type != ValueType::f32 && type != ValueType::f64))
      return make_error(Errc::invalid_argument,
                        std::string(what) + ": compensated summation is for f32/f64 sums");
    return Agg{variants::Op::sum, true};
  }
  switch (op) {
    case ScanOp::sum: return Agg{variants::Op::sum};
    case ScanOp::min: return Agg{variants::Op::min};
    case ScanOp::max: return Agg{variants::Op::max};
  }
  return make_error(Errc::invalid_argument, std::string(what) + ": unknown ScanOp");
}

}  // namespace
}  // namespace detail

using detail::ScanPlan;

// ---------------------------------------------------------------------------------------------
Result<Scan> testing::create_scan(const Context& ctx, ValueType type, ScanOp op, const ScanOptions& o,
                                  const ScanKnobs& k) {
  auto agg = detail::agg_of("Scan", type, op, o);
  if (!agg) return agg.error();
  auto plan = detail::make_plan(ctx, "Scan", type, *agg, o, k, true);
  if (!plan) return plan.error();
  return detail::PlanAccess::wrap<Scan>(std::move(*plan));
}
Result<Reduce> testing::create_reduce(const Context& ctx, ValueType type, ScanOp op,
                                      const ScanOptions& o, const ScanKnobs& k) {
  auto agg = detail::agg_of("Reduce", type, op, o);
  if (!agg) return agg.error();
  auto plan = detail::make_plan(ctx, "Reduce", type, *agg, o, k, false);
  if (!plan) return plan.error();
  return detail::PlanAccess::wrap<Reduce>(std::move(*plan));
}
Result<SegmentedScan> testing::create_segmented_scan(const Context& ctx, ValueType type,
                                                     const ScanOptions& o, const ScanKnobs& k) {
  if (o.compensated)
    return make_error(Errc::invalid_argument, "SegmentedScan: no compensated variant");
  const detail::Agg segsum{detail::variants::Op::segsum};
  auto plan = detail::make_plan(ctx, "SegmentedScan", type, segsum, o, k, true);
  if (!plan) return plan.error();
  return detail::PlanAccess::wrap<SegmentedScan>(std::move(*plan));
}

// ---------------------------------------------------------------------------------------------
Scan::Scan(std::unique_ptr<ScanPlan> p) : plan_(std::move(p)) {}
Scan::Scan(Scan&&) noexcept = default;
Scan& Scan::operator=(Scan&&) noexcept = default;
Scan::~Scan() = default;

Result<Scan> Scan::create(const Context& ctx, ValueType type, ScanOp op, const ScanOptions& o) {
  return testing::create_scan(ctx, type, op, o, {});
}
uint64_t Scan::temp_bytes(uint64_t max_n) const { return plan_->temp_bytes(max_n, true); }
Status Scan::reserve(uint64_t max_n) { return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(max_n)); }
ScanStrategy Scan::strategy() const { return plan_->strategy; }
bool Scan::uses_subgroup_ops() const { return plan_->subgroup; }
Status Scan::inclusive(VkCommandBuffer cmd, BufferView in, BufferView out, Count n, BufferView temp) const {
  return plan_->record_scan(cmd, in, 0, out, n, temp, false, 0);
}
Status Scan::exclusive(VkCommandBuffer cmd, BufferView in, BufferView out, Count n, BufferView temp) const {
  return plan_->record_scan(cmd, in, 0, out, n, temp, true, 0);
}

// ---------------------------------------------------------------------------------------------
Reduce::Reduce(std::unique_ptr<ScanPlan> p) : plan_(std::move(p)) {}
Reduce::Reduce(Reduce&&) noexcept = default;
Reduce& Reduce::operator=(Reduce&&) noexcept = default;
Reduce::~Reduce() = default;

Result<Reduce> Reduce::create(const Context& ctx, ValueType type, ScanOp op, const ScanOptions& o) {
  return testing::create_reduce(ctx, type, op, o, {});
}
uint64_t Reduce::temp_bytes(uint64_t max_n) const { return plan_->temp_bytes(max_n, false); }
Status Reduce::reserve(uint64_t max_n) { return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(max_n)); }
Status Reduce::record(VkCommandBuffer cmd, BufferView in, BufferView out, Count n, BufferView temp) const {
  return plan_->record_reduce(cmd, in, out, n, temp);
}

// ---------------------------------------------------------------------------------------------
SegmentedScan::SegmentedScan(std::unique_ptr<ScanPlan> p) : plan_(std::move(p)) {}
SegmentedScan::SegmentedScan(SegmentedScan&&) noexcept = default;
SegmentedScan& SegmentedScan::operator=(SegmentedScan&&) noexcept = default;
SegmentedScan::~SegmentedScan() = default;

Result<SegmentedScan> SegmentedScan::create(const Context& ctx, ValueType type, const ScanOptions& o) {
  return testing::create_segmented_scan(ctx, type, o, {});
}
uint64_t SegmentedScan::temp_bytes(uint64_t max_n) const { return plan_->temp_bytes(max_n, true); }
Status SegmentedScan::reserve(uint64_t max_n) { return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(max_n)); }

namespace {
Status check_heads(const ScanPlan& p, BufferView heads, const Count& n) {
  if (heads.size < n.n * 4 || (n.n && heads.address % 4))
    return make_error(Errc::invalid_argument, p.what + ": head flags must hold n aligned u32");
  return {};
}
}  // namespace

Status SegmentedScan::inclusive(VkCommandBuffer cmd, BufferView in, BufferView heads, BufferView out,
                                Count n, BufferView temp) const {
  VKPRIM_TRY(check_heads(*plan_, heads, n));
  return plan_->record_scan(cmd, in, heads.address, out, n, temp, false, plan_->heads_bytes(n.n));
}
Status SegmentedScan::exclusive(VkCommandBuffer cmd, BufferView in, BufferView heads, BufferView out,
                                Count n, BufferView temp) const {
  VKPRIM_TRY(check_heads(*plan_, heads, n));
  return plan_->record_scan(cmd, in, heads.address, out, n, temp, true, plan_->heads_bytes(n.n));
}

namespace {
// Offsets -> head flags in the first part of temp, then the flag-based scan. The offsets run in
// dispatches of at most max_items_per_dispatch (any number of segments).
Status by_offsets(const ScanPlan& p, VkCommandBuffer cmd, BufferView in, BufferView offsets,
                  uint64_t segments, BufferView out, uint64_t n, BufferView temp_in, bool exclusive,
                  ValueType offset_type) {
  if (offset_type != ValueType::u32 && offset_type != ValueType::u64)
    return make_error(Errc::invalid_argument, p.what + ": segment offsets are u32 or u64");
  const uint64_t w = size_of(offset_type);
  if (offsets.size / w < segments || (segments && offsets.address % w))
    return make_error(Errc::invalid_argument, p.what + ": offsets must hold `segments` aligned " +
                                                  to_string(offset_type));
  // The scan's checks too, before the head flags are recorded.
  auto temp = p.check_scan(in, out, Count(n), temp_in);
  if (!temp) return temp.error();
  const BufferView heads = temp->sub(0, p.heads_bytes(n));
  detail::compute_to_compute_barrier(*p.ctx, cmd);
  if (n) {
    VKPRIM_TRY(p.fill->record(cmd, heads, uint32_t(0)));
    detail::compute_to_compute_barrier(*p.ctx, cmd);
  }
  if (segments && n)
    VKPRIM_TRY(detail::for_each_chunk(
        segments, p.ctx->max_items_per_dispatch, [&](uint64_t first, uint64_t m, uint64_t) {
          detail::SegmentHeadsPush hp{offsets.address + first * w, heads.address, n,
                                      offset_type == ValueType::u64 ? 1u : 0u, uint32_t(m)};
          p.heads.dispatch(cmd, &hp, detail::grid_groups(*p.ctx, m, p.heads.tile_items()));
          return Status{};
        }));
  return p.record_scan(cmd, in, heads.address, out, n, *temp, exclusive, p.heads_bytes(n));
}
}  // namespace

Status SegmentedScan::inclusive_by_offsets(VkCommandBuffer cmd, BufferView in, BufferView offsets,
                                           uint64_t segments, BufferView out, uint64_t n,
                                           BufferView temp, ValueType offset_type) const {
  return by_offsets(*plan_, cmd, in, offsets, segments, out, n, temp, false, offset_type);
}
Status SegmentedScan::exclusive_by_offsets(VkCommandBuffer cmd, BufferView in, BufferView offsets,
                                           uint64_t segments, BufferView out, uint64_t n,
                                           BufferView temp, ValueType offset_type) const {
  return by_offsets(*plan_, cmd, in, offsets, segments, out, n, temp, true, offset_type);
}

namespace detail {
Status ScanInternals::check_exclusive(const Scan& s, BufferView in, BufferView out, const Count& n,
                                      BufferView temp) {
  auto t = s.plan_->check_scan(in, out, n, temp);
  if (!t) return t.error();
  return {};
}
Status ScanInternals::check_reduce(const Scan& s, BufferView in, BufferView out, const Count& n,
                                   BufferView temp) {
  auto t = s.plan_->check_reduce(in, out, n, temp);
  if (!t) return t.error();
  return {};
}
Status ScanInternals::reduce(const Scan& s, VkCommandBuffer cmd, BufferView in, BufferView out,
                             const Count& n, BufferView temp) {
  return s.plan_->record_reduce(cmd, in, out, n, temp);
}
Status ScanInternals::check_inclusive(const SegmentedScan& s, BufferView in, BufferView heads,
                                      BufferView out, const Count& n, BufferView temp) {
  VKPRIM_TRY(check_heads(*s.plan_, heads, n));
  auto t = s.plan_->check_scan(in, out, n, temp);
  if (!t) return t.error();
  return {};
}
}  // namespace detail

}  // namespace vkprim
