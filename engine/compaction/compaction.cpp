// Select, UniqueByKey and OffsetAllocator.
//   Select, unique:  fill (zero the tile state) -> select_tiles (single pass, look-back), per
//                    chunk of max_items_per_dispatch elements (counts past 2^32)
//   Partition:       stable: select_upsweep -> Scan's reduce passes (the tile counts' total is
//                    where the rejected elements start, which one pass cannot know)
//                    -> select_tiles as for select, the rejected elements written after the total;
//                    rejected reversed: select_tiles alone, the rejected ones from the end back
//   UniqueByKey:     select_upsweep (unique mode, also writes run-head flags)
//                    -> Scan::exclusive -> SegmentedScan::inclusive of the values
//                    -> select_scatter (keys at run heads, run sums from run tails)
//   OffsetAllocator: select_total (save the last count) -> Scan::exclusive -> select_total
#include "core/call_checks.hpp"
#include "core/device_count.hpp"
#include "core/look_back.hpp"
#include "core/plan_access.hpp"
#include "core/temp_storage.hpp"
#include "core/pipeline.hpp"
#include "compaction/pass.hpp"
#include "compaction/policy.hpp"
#include "scan/pass.hpp"    // ScanInternals: the nested scans' checks
#include "scan/policy.hpp"  // kSpinLimit: the look-back of common/tile_state.glsl

#include <vkprim/elementwise.hpp>
#include <vkprim/select.hpp>
#include <vkprim/testing.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace vkprim {
namespace detail {

namespace {
std::string str(uint64_t v) { return std::to_string(v); }
}  // namespace

struct SelectPlan {
  const ContextImpl* ctx = nullptr;
  bool leading_barrier = true;  // SelectOptions
  std::string what;
  ValueType type = ValueType::u32, value_type = ValueType::u32;
  uint32_t esz = 4, vsz = 0;
  bool count_u64 = false;
  uint32_t wg = tuning::kSelectWorkgroup, items = 0;  // tuning::select_items(esz)
  Pipeline upsweep, scatter, single, partition_single, total;
  std::optional<Fill> fill;  // zeroes the single pass's tile state
  std::optional<Scan> scan;
  std::optional<SegmentedScan> seg;
  std::optional<Buffer> owned_temp;

  uint64_t tile_items() const { return uint64_t(wg) * items; }
  uint64_t tiles(uint64_t n) const { return std::max<uint64_t>((n + tile_items() - 1) / tile_items(), 1); }

  // Temp layout. Select: [tile counts (tiles + 1)] [scan temp] [tile state + 2 u64] (`state`;
  // the counts and their scan are partition's alone); UniqueByKey: [tile counts] [scan temp]
  // [run heads] [run sums] [segmented scan temp]; OffsetAllocator: [saved last count] [scan temp].
  struct Layout {
    uint64_t counts = 0, scan = 0, heads = 0, sums = 0, seg = 0, state = 0, total = 0;
  };
  // The single pass's tile state carries one-word counts.
  uint64_t state_bytes(uint64_t n) const { return align16(tile_state_bytes(tiles(n), 1)); }
  Layout layout(uint64_t n) const {
    Layout l;
    if (!upsweep.valid()) {  // OffsetAllocator
      l.scan = 16;
      l.total = l.scan + align16(scan->temp_bytes(n));
      return l;
    }
    l.scan = align16((tiles(n) + 1) * 8);  // u64 tile counts
    l.heads = l.scan + align16(scan->temp_bytes(tiles(n) + 1));
    l.sums = l.heads + (seg ? align16(n * 4) : 0);
    l.seg = l.sums + (seg ? align16(n * vsz) : 0);
    // The single pass: the tile state, then two u64 running totals for chunked counts (for
    // partition after the scanned tile counts, whose total it reads).
    l.state = l.heads;
    l.total = seg ? l.seg + align16(seg->temp_bytes(n)) : l.state + state_bytes(n) + 16;
    return l;
  }
  uint64_t temp_bytes(uint64_t n) const { return layout(n).total; }

  std::pair<uint32_t, uint32_t> grid(uint64_t tiles) const { return grid_2d(*ctx, tiles); }

  Status check_view(const char* name, BufferView v, uint64_t bytes, uint32_t align) const {
    return detail::check_view(what, name, v, bytes, align);
  }

  // `chunked`: the single pass alone, which runs in chunks of max_items_per_dispatch (the other
  // passes, partition's upsweep included, take 64-bit counts in one dispatch of at most 2^32 - 1
  // tiles). `wide_total`: past 2^32 - 1 elements the number selected needs count_u64 (the
  // allocator's total is documented to wrap instead).
  Status check_count(const Count& c, bool chunked = false, bool wide_total = true) const {
    VKPRIM_TRY(check_device_count(c, what, 0xFFFFFFFFull, ~uint64_t(0)));
    if (wide_total && c.n > 0xFFFFFFFFull && !count_u64)
      return make_error(Errc::limit_exceeded,
                        what + ": " + str(c.n) + " elements need SelectOptions::count_u64");
    const uint64_t per_dispatch =
        chunked ? std::min(c.n, ctx->max_items_per_dispatch) : c.n;
    const uint64_t t = tiles(per_dispatch);
    if (t > 0xFFFFFFFFull || grid(t).second > ctx->caps.max_workgroup_count[1])
      return make_error(Errc::limit_exceeded, what + ": " + str(c.n) + " elements exceed the device's dispatch limits");
    return {};
  }

  Result<BufferView> resolve_temp(BufferView temp, uint64_t need) const {
    return detail::resolve_temp(what, temp, owned_temp, need);
  }

  uint32_t opts() const { return (count_u64 ? kSelectCountU64 : 0) | (vsz == 8 ? kSelectValues64 : 0); }

  // A nested scan's refusal as this call's.
  Status nested(Status s) const {
    if (s) return s;
    return make_error(s.error().code, what + ": " + s.error().message);
  }

  // Select and partition (values_in == 0) or unique-by-key (values given).
  Status record_select(VkCommandBuffer cmd, BufferView in, BufferView flags, BufferView out,
                       BufferView count_out, const Count& count, BufferView temp_in, uint32_t mode,
                       const Predicate* pred, bool partition, BufferView values_in = {},
                       BufferView values_out = {},
                       PartitionOrder order = PartitionOrder::stable) const {
    const bool single_pass = !seg.has_value();  // select, unique and partition
    VKPRIM_TRY(check_count(count, single_pass && !partition));
    const uint64_t n = count.n;
    VKPRIM_TRY(check_view("input", in, n * esz, esz));
    VKPRIM_TRY(check_view("output", out, n * esz, esz));
    VKPRIM_TRY(check_view("count_out", count_out, count_u64 ? 8 : 4, count_u64 ? 8 : 4));
    if (mode == kSelectFlagged) VKPRIM_TRY(check_view("flags", flags, n * 4, 4));
    if (pred && pred->type != type)
      return make_error(Errc::invalid_argument, what + ": the predicate compares " + to_string(pred->type) +
                                                    " values, the elements are " + to_string(type));
    const uint64_t cb = count_u64 ? 8 : 4;
    if (overlap(in, n * esz, out, n * esz) || overlap(out, n * esz, count_out, cb) ||
        (mode == kSelectFlagged && overlap(flags, n * 4, out, n * esz)))
      return make_error(Errc::invalid_argument, what + ": the output overlaps an input or count_out");
    const bool by_key = seg.has_value();
    if (by_key) {
      VKPRIM_TRY(check_view("values_in", values_in, n * vsz, vsz));
      VKPRIM_TRY(check_view("values_out", values_out, n * vsz, vsz));
      if (overlap(values_in, n * vsz, values_out, n * vsz) || overlap(values_out, n * vsz, out, n * esz))
        return make_error(Errc::invalid_argument, what + ": values_out overlaps another buffer");
    }
    auto temp = resolve_temp(temp_in, temp_bytes(n));
    if (!temp) return temp.error();
    const Layout l = layout(n);
    const uint32_t nt = uint32_t(tiles(n));
    const auto [gx, gy] = grid(nt);
    const uint64_t count_addr = count_address(count);
    const uint64_t counts = temp->address;
    const uint64_t heads = by_key ? temp->address + l.heads : 0;
    const uint32_t op = pred ? uint32_t(pred->op) : 0;
    const uint64_t a = pred ? pred->a : 0, b = pred ? pred->b : 0;
    // The nested calls (partition's total of the tile counts, unique-by-key's scan of them and
    // its run sums) are checked here, before anything is recorded.
    const BufferView counts_view = temp->sub(0, (uint64_t(nt) + 1) * 8);
    const BufferView tile_counts = counts_view.sub(0, uint64_t(nt) * 8);
    const BufferView total_view = counts_view.sub(uint64_t(nt) * 8, 8);
    const BufferView scan_temp = temp->sub(l.scan, l.heads - l.scan);
    const bool reversed = partition && order == PartitionOrder::rejected_reversed;
    if (partition && order != PartitionOrder::stable && !reversed)
      return make_error(Errc::invalid_argument, what + ": unknown PartitionOrder");
    if (partition && !reversed)
      VKPRIM_TRY(nested(ScanInternals::check_reduce(*scan, tile_counts, total_view, uint64_t(nt), scan_temp)));
    if (!single_pass)
      VKPRIM_TRY(nested(ScanInternals::check_exclusive(*scan, counts_view, counts_view, uint64_t(nt) + 1, scan_temp)));
    const BufferView run_heads = by_key ? temp->sub(l.heads, n * 4) : BufferView{};
    const BufferView sums_view = by_key ? temp->sub(l.sums, n * vsz) : BufferView{};
    const BufferView seg_temp = by_key ? temp->sub(l.seg, l.total - l.seg) : BufferView{};
    const Count seg_count = count.is_device() ? Count::on_device(count.device, n, count.device_type) : Count(n);
    if (by_key && n)
      VKPRIM_TRY(nested(ScanInternals::check_inclusive(*seg, values_in, run_heads, sums_view, seg_count, seg_temp)));

    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of temp (and the inputs) are done
    // Partition first counts every tile's selected elements and adds the counts up (their total
    // is where the rejected elements start: the tiles' own offsets come from the single pass's
    // look-back, so the counts need no scan); then it is a single pass like select's.
    // With the rejected elements reversed, the single pass alone: they are written back from
    // the call's last element (partition_total holds the element count then).
    uint64_t partition_total = reversed ? n : 0;
    if (partition && !reversed) {
      SelectUpsweepPush up{in.address, flags.address, counts, count_addr, 0, n, nt, mode, op, 0, a, b};
      upsweep.dispatch(cmd, &up, gx, gy);
      VKPRIM_TRY(ScanInternals::reduce(*scan, cmd, tile_counts, total_view, uint64_t(nt), scan_temp));
      compute_to_compute_barrier(*ctx, cmd);
      partition_total = total_view.address;
    }
    // Even for n = 0 the passes run (one tile): count_out must receive 0.
    if (single_pass) {
      // Chunks of at most max_items_per_dispatch elements (the shader's indices are 32-bit):
      // chunk c writes the running total to slot c % 2 after the tile state (the last chunk to
      // count_out), and chunk c + 1 starts its outputs after it. With a count on the GPU each
      // chunk takes its part of it (the count less its first element, at most its length).
      const uint64_t chunk = ctx->max_items_per_dispatch;
      const BufferView state = temp->sub(l.state, state_bytes(n) + 16);
      const uint64_t slots = state.address + state_bytes(n);
      return for_each_chunk(n, chunk, [&](uint64_t first, uint64_t m, uint64_t c) -> Status {
        const bool last = first + m >= n;
        if (c) compute_to_compute_barrier(*ctx, cmd);  // the chunk before is done with the state
        VKPRIM_TRY(fill->record(cmd, state.sub(0, state_bytes(m)), uint32_t(0)));
        compute_to_compute_barrier(*ctx, cmd);
        const uint64_t in_c = in.address + first * esz, flags_c = flags.address + first * 4;
        const bool aligned = in_c % 16 == 0 && (mode != kSelectFlagged || flags_c % 16 == 0);
        uint32_t opts = (this->opts() & ~kSelectCountU64) | (aligned ? kSelectAligned : 0u);
        if (!last || count_u64) opts |= kSelectCountU64;
        if (c) opts |= kSelectContinued;
        if (reversed) opts |= kSelectRejectedReversed;
        SelectTilesPush p{in_c, mode == kSelectFlagged ? flags_c : 0, out.address, state.address,
                          last ? count_out.address : slots + (c % 2) * 8, count_addr, uint32_t(m), mode, op,
                          opts, a, b, c ? slots + ((c - 1) % 2) * 8 : 0, first,
                          partition_total};
        const auto [cx, cy] = grid(tiles(m));
        (partition ? partition_single : single).dispatch(cmd, &p, cx, cy);
        return {};
      });
    }
    SelectUpsweepPush up{in.address, flags.address, counts, count_addr, heads, n, nt, mode, op, 0, a, b};
    upsweep.dispatch(cmd, &up, gx, gy);
    VKPRIM_TRY(scan->exclusive(cmd, counts_view, counts_view, uint64_t(nt) + 1, scan_temp));
    uint64_t sums = 0;
    if (by_key && n) {
      VKPRIM_TRY(seg->inclusive(cmd, values_in, run_heads, sums_view, seg_count, seg_temp));
      sums = sums_view.address;
    }
    compute_to_compute_barrier(*ctx, cmd);
    SelectScatterPush sp{in.address, flags.address, out.address, counts, count_out.address, count_addr,
                         sums, by_key ? values_out.address : 0, n, nt, mode, op, opts(), a, b};
    scatter.dispatch(cmd, &sp, gx, gy);
    return {};
  }

  Status record_allocate(VkCommandBuffer cmd, BufferView counts, BufferView offsets, BufferView total_out,
                         const Count& count, BufferView temp_in) const {
    VKPRIM_TRY(check_count(count, false, false));
    const uint64_t n = count.n;
    VKPRIM_TRY(check_view("counts", counts, n * 4, 4));
    VKPRIM_TRY(check_view("offsets", offsets, n * 4, 4));
    VKPRIM_TRY(check_view("total_out", total_out, count_u64 ? 8 : 4, count_u64 ? 8 : 4));
    if (counts.address != offsets.address && overlap(counts, n * 4, offsets, n * 4))
      return make_error(Errc::invalid_argument, what + ": counts and offsets overlap without being the same range");
    const uint64_t cb = count_u64 ? 8 : 4;
    if (overlap(total_out, cb, offsets, n * 4) || overlap(total_out, cb, counts, n * 4))
      return make_error(Errc::invalid_argument, what + ": total_out overlaps counts or offsets");
    auto temp = resolve_temp(temp_in, temp_bytes(n));
    if (!temp) return temp.error();
    const Layout l = layout(n);
    const BufferView scan_temp = temp->sub(l.scan, l.total - l.scan);
    VKPRIM_TRY(nested(ScanInternals::check_exclusive(*scan, counts, offsets, count, scan_temp)));
    const uint64_t count_addr = count_address(count);
    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of temp are done
    SelectTotalPush p{counts.address, offsets.address, total_out.address, temp->address, count_addr,
                      n, 0, count_u64 ? 1u : 0u};
    total.dispatch(cmd, &p, 1);
    VKPRIM_TRY(scan->exclusive(cmd, counts, offsets, count, scan_temp));
    compute_to_compute_barrier(*ctx, cmd);
    p.stage = 1;
    total.dispatch(cmd, &p, 1);
    return {};
  }
};

namespace {
// The plan with its scan: compaction scans u64 tile counts (totals past 2^32); the allocator its
// caller's u32 counts.
Result<std::unique_ptr<SelectPlan>> plan_with_scan(const Context& context, std::unique_ptr<SelectPlan> plan,
                                                   const SelectOptions& o, bool compaction) {
  ScanOptions so;
  so.use_subgroup_ops = o.use_subgroup_ops;
  // Compaction adds its tile counts up or scans them in place, which runs reduce-then-scan's
  // passes: its scan builds no single pass.
  if (compaction) so.strategy = ScanStrategy::reduce_then_scan;
  auto scan = Scan::create(context, compaction ? ValueType::u64 : ValueType::u32, ScanOp::sum, so);
  if (!scan) return scan.error();
  plan->scan.emplace(std::move(*scan));
  return plan;
}

// compaction: Select (by_key false: the single pass, and partition's upsweep) or UniqueByKey
// (by_key: upsweep and scatter); otherwise OffsetAllocator.
Result<std::unique_ptr<SelectPlan>> make_plan(const Context& context, const char* what, ValueType type,
                                              const SelectOptions& o, bool compaction, bool by_key = false,
                                              const testing::SelectKnobs& k = {}) {
  const auto& ctx = context.impl();
  const auto& caps = ctx.caps;
  auto plan = std::make_unique<SelectPlan>();
  plan->ctx = &ctx;
  plan->what = what;
  plan->type = type;
  plan->esz = uint32_t(size_of(type));
  plan->items = tuning::select_items(plan->esz);
  if (k.workgroup) plan->wg = std::min(k.workgroup, caps.max_workgroup_invocations);
  plan->count_u64 = o.count_u64;
  plan->leading_barrier = o.leading_barrier;
  if (compaction) {
    if (type == ValueType::f64 && !caps.shader_float64)
      return make_error(Errc::unsupported, plan->what + "<f64>: the device has no shaderFloat64");
    const bool sg = o.use_subgroup_ops && (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                    (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_BALLOT_BIT);
    const auto value = variants::value_axis(type);
    const auto layer = variants::layer_axis(sg);
    auto up = Pipeline::create(*plan->ctx, variants::select_upsweep(value), kSelectUpsweepPushBytes,
                               plan->wg, plan->items);
    if (!up) return up.error();
    plan->upsweep = std::move(*up);
    if (by_key) {
      auto sc = Pipeline::create(*plan->ctx, variants::select_scatter(value, layer),
                                 kSelectScatterPushBytes, plan->wg, plan->items);
      if (!sc) return sc.error();
      plan->scatter = std::move(*sc);
      return plan_with_scan(context, std::move(plan), o, true);
    }
    static_assert(32 % tuning::select_items(4) == 0 && 32 % tuning::select_items(8) == 0,
                  "select_tiles packs a lane's selection bits into one word, and counts runs "
                  "of ITEMS bits within whole bitmask words");
    // The single passes' look-back: the policy's spin limit, or the testing interface's knobs.
    LookBackSpec look_back;
    look_back.spin_limit = k.spin_limit ? k.spin_limit : tuning::kSpinLimit;
    look_back.stall_period = k.stall_period;
    const auto single_pass = [&](Shader shader) {
      PipelineDesc d;
      d.shader = shader;
      d.push_bytes = kSelectTilesPushBytes;
      d.workgroup_size = plan->wg;
      d.items = plan->items;
      set_look_back_spec(d, look_back);
      return Pipeline::create(*plan->ctx, d);
    };
    auto single = single_pass(variants::select_tiles(value, layer));
    if (!single) return single.error();
    plan->single = std::move(*single);
    auto part = single_pass(variants::select_tiles_partition(value, layer));
    if (!part) return part.error();
    plan->partition_single = std::move(*part);
    auto fill = Fill::create(context);
    if (!fill) return fill.error();
    plan->fill.emplace(std::move(*fill));
  } else {
    auto t = Pipeline::create(*plan->ctx, Shader::select_total, kSelectTotalPushBytes, 1, 1);
    if (!t) return t.error();
    plan->total = std::move(*t);
  }
  return plan_with_scan(context, std::move(plan), o, compaction);
}

}  // namespace
}  // namespace detail

using detail::SelectPlan;

// ---------------------------------------------------------------------------------------------
Select::Select(std::unique_ptr<SelectPlan> p) : plan_(std::move(p)) {}
Select::Select(Select&&) noexcept = default;
Select& Select::operator=(Select&&) noexcept = default;
Select::~Select() = default;

Result<Select> Select::create(const Context& ctx, ValueType type, const SelectOptions& o) {
  return testing::create_select(ctx, type, o, {});
}
Result<Select> testing::create_select(const Context& ctx, ValueType type, const SelectOptions& o,
                                      const SelectKnobs& k) {
  auto plan = detail::make_plan(ctx, "Select", type, o, true, false, k);
  if (!plan) return plan.error();
  return detail::PlanAccess::wrap<Select>(std::move(*plan));
}
uint64_t Select::temp_bytes(uint64_t max_n) const { return plan_->temp_bytes(max_n); }
Status Select::reserve(uint64_t max_n) { return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(max_n)); }

Status Select::flagged(VkCommandBuffer cmd, BufferView in, BufferView flags, BufferView out, BufferView count_out,
                       Count n, BufferView temp) const {
  return plan_->record_select(cmd, in, flags, out, count_out, n, temp, detail::kSelectFlagged, nullptr, false);
}
Status Select::predicated(VkCommandBuffer cmd, BufferView in, const Predicate& pred, BufferView out,
                          BufferView count_out, Count n, BufferView temp) const {
  return plan_->record_select(cmd, in, {}, out, count_out, n, temp, detail::kSelectPredicate, &pred, false);
}
Status Select::partition_flagged(VkCommandBuffer cmd, BufferView in, BufferView flags, BufferView out,
                                 BufferView count_out, Count n, BufferView temp,
                                 PartitionOrder order) const {
  return plan_->record_select(cmd, in, flags, out, count_out, n, temp, detail::kSelectFlagged, nullptr, true,
                              {}, {}, order);
}
Status Select::partition_predicated(VkCommandBuffer cmd, BufferView in, const Predicate& pred, BufferView out,
                                    BufferView count_out, Count n, BufferView temp,
                                    PartitionOrder order) const {
  return plan_->record_select(cmd, in, {}, out, count_out, n, temp, detail::kSelectPredicate, &pred, true,
                              {}, {}, order);
}
Status Select::unique(VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count_out, Count n,
                      BufferView temp) const {
  return plan_->record_select(cmd, in, {}, out, count_out, n, temp, detail::kSelectUnique, nullptr, false);
}

// ---------------------------------------------------------------------------------------------
UniqueByKey::UniqueByKey(std::unique_ptr<SelectPlan> p) : plan_(std::move(p)) {}
UniqueByKey::UniqueByKey(UniqueByKey&&) noexcept = default;
UniqueByKey& UniqueByKey::operator=(UniqueByKey&&) noexcept = default;
UniqueByKey::~UniqueByKey() = default;

Result<UniqueByKey> UniqueByKey::create(const Context& ctx, ValueType key_type, ValueType value_type,
                                        const SelectOptions& o) {
  auto plan = detail::make_plan(ctx, "UniqueByKey", key_type, o, true, true);
  if (!plan) return plan.error();
  ScanOptions so;
  so.use_subgroup_ops = o.use_subgroup_ops;
  auto seg = SegmentedScan::create(ctx, value_type, so);
  if (!seg) return seg.error();
  (*plan)->seg.emplace(std::move(*seg));
  (*plan)->value_type = value_type;
  (*plan)->vsz = uint32_t(size_of(value_type));
  return UniqueByKey(std::move(*plan));
}
uint64_t UniqueByKey::temp_bytes(uint64_t max_n) const { return plan_->temp_bytes(max_n); }
Status UniqueByKey::reserve(uint64_t max_n) { return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(max_n)); }
Status UniqueByKey::record(VkCommandBuffer cmd, BufferView keys_in, BufferView values_in, BufferView keys_out,
                           BufferView values_out, BufferView count_out, Count n, BufferView temp) const {
  return plan_->record_select(cmd, keys_in, {}, keys_out, count_out, n, temp, detail::kSelectUnique, nullptr, false,
                              values_in, values_out);
}

// ---------------------------------------------------------------------------------------------
OffsetAllocator::OffsetAllocator(std::unique_ptr<SelectPlan> p) : plan_(std::move(p)) {}
OffsetAllocator::OffsetAllocator(OffsetAllocator&&) noexcept = default;
OffsetAllocator& OffsetAllocator::operator=(OffsetAllocator&&) noexcept = default;
OffsetAllocator::~OffsetAllocator() = default;

Result<OffsetAllocator> OffsetAllocator::create(const Context& ctx, const SelectOptions& o) {
  auto plan = detail::make_plan(ctx, "OffsetAllocator", ValueType::u32, o, false);
  if (!plan) return plan.error();
  return OffsetAllocator(std::move(*plan));
}
uint64_t OffsetAllocator::temp_bytes(uint64_t max_n) const { return plan_->temp_bytes(max_n); }
Status OffsetAllocator::reserve(uint64_t max_n) { return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(max_n)); }
Status OffsetAllocator::record(VkCommandBuffer cmd, BufferView counts, BufferView offsets, BufferView total_out,
                               Count n, BufferView temp) const {
  return plan_->record_allocate(cmd, counts, offsets, total_out, n, temp);
}

}  // namespace vkprim
