// CSR construction from COO and transpose on the GPU (include/vkprim/sparse/csr_build.hpp;
// shaders/csr_*.comp): radix sort of packed (row, col) keys with the values as payload, then one
// single-pass compaction (run ends ranked by look-back, serial sums of duplicates in input
// order, row pointers of the rows starting at each entry), then the long runs of empty rows.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <vector>
#include <vkprim/elementwise.hpp>
#include <vkprim/sort.hpp>
#include <vkprim/sparse/csr_build.hpp>
#include <vkprim/sparse/testing.hpp>
#include <vkprim/testing.hpp>

#include "core/call_checks.hpp"
#include "core/look_back.hpp"
#include "core/plan_access.hpp"
#include "core/temp_storage.hpp"
#include "core/pipeline.hpp"
#include "sort/pass.hpp"
#include "csr_build/pass.hpp"
#include "csr_build/policy.hpp"
#include "scan/policy.hpp"

namespace vkprim::sparse {
namespace detail {

using vkprim::detail::compute_to_compute_barrier;
using vkprim::detail::align16;
using vkprim::detail::ContextImpl;
using vkprim::detail::for_each_chunk;
using vkprim::detail::grid_groups;
using vkprim::detail::Pipeline;
using vkprim::detail::SortInternals;

namespace {
uint32_t bits_for(uint64_t extent) {
  return extent <= 1 ? 0 : uint32_t(std::bit_width(extent - 1));
}

constexpr uint32_t kWg = 256, kItems = 4;
// The compaction's tile: kCompactWg x kCompactItems entries (compiled in: FIXED_ITEMS in
// shaders/csr_build/variants.cmake, checked below), with smaller workgroups where the device's
// are (down to 128, which every device has). 512 x 8 is the fastest of the shapes around it
// (128 to 1024 invocations, 4 to 16 items): fewer, larger tiles shorten the compaction's
// look-back chain, up to where the workgroup's size costs more occupancy than that saves.
constexpr uint32_t kCompactWg = 512, kCompactItems = 8;
namespace variants = vkprim::detail::variants;
constexpr bool compact_items_match_variants() {
  for (variants::Real real : variants::kRealAxis)
    for (variants::KeyBits kb : variants::kKeyBitsAxis)
      for (variants::Offsets offsets : variants::kOffsetsAxis)
        if (vkprim::detail::shader_fixed_items(variants::csr_compact(real, kb, offsets)) !=
            kCompactItems)
          return false;
  return true;
}
static_assert(compact_items_match_variants(),
              "shaders/csr_build/variants.cmake compiles csr_compact for other items than "
              "kCompactItems");
uint32_t compact_workgroup(const ContextImpl& c) {
  uint32_t wg = kCompactWg;
  while (wg > 128 && wg > c.caps.max_workgroup_invocations) wg /= 2;
  return wg;
}
// Tile state of the compaction: 4 header words, then 4 words per tile (common/tile_state.glsl
// with one-word counts).
constexpr uint64_t compact_state_bytes(uint64_t n, uint64_t tile) {
  return 16 + 16 * ((n + tile - 1) / tile);
}
// The compaction writes a run of at most this many row pointers that start at one entry itself
// (csr_compact.comp's ROW_GAP_SERIAL); a longer run goes to a list that csr_row_ptr.comp
// spreads over workgroups (at most this many).
constexpr uint64_t kRowGapSerial = 64, kRowGapGroups = 1024;
}  // namespace

struct CsrBuildLayout {
  // gaps, state and the sort's temporary storage (work) are adjacent, in this order: one fill
  // zeroes the gap list's header, the compaction's state and what the sort's upfront count
  // needs zeroed (at the start of work). slots: two u64 running totals of the compaction's
  // chunks.
  uint64_t keys_in = 0, keys = 0, vals = 0, slots = 0, state = 0, gaps = 0, gap_capacity = 0,
           work = 0, total = 0;
};

struct CsrBuildPlan {
  const ContextImpl* ctx = nullptr;
  bool leading_barrier = true;  // CsrBuildOptions
  ValueType type = ValueType::f32;
  uint32_t esz = 4;
  // [0]: 32-bit, [1]: 64-bit; keys: with onesweep's histogram, keys_varying: the varying bits
  Pipeline keys[2], keys_varying[2], row_ptr[2], expand[2];
  Pipeline compact[2][2];  // [64-bit keys][wide: more entries than one dispatch takes]
  std::optional<RadixSort> sort32, sort64;  // keys u32 / u64, the values (esz bytes) as payload
  uint32_t compact_wg = kCompactWg;  // compact_workgroup()
  std::optional<Fill> fill;
  std::optional<Buffer> owned_temp;

  uint64_t compact_tile() const { return uint64_t(compact_wg) * kCompactItems; }
  static bool wide_keys(uint64_t rows, uint64_t cols) {
    const uint32_t cb = bits_for(cols);
    return bits_for(rows) + cb > 32 || cb >= 32;
  }
  CsrBuildLayout layout(uint64_t n, uint64_t rows, uint64_t cols) const {
    const bool k64 = wide_keys(rows, cols);
    const uint64_t kb = k64 ? 8 : 4;
    CsrBuildLayout L;
    uint64_t at = 0;
    auto take = [&at](uint64_t bytes) {
      const uint64_t here = at;
      at += align16(bytes);
      return here;
    };
    L.keys_in = take(n * kb);
    L.keys = take(n * kb);
    L.vals = take(n * esz);
    L.slots = take(16);
    // Runs of more than kRowGapSerial rows are disjoint ranges of the rows + 1 row pointers.
    L.gap_capacity = (rows + 1) / (kRowGapSerial + 1) + 1;
    L.gaps = take(16 + 16 * L.gap_capacity);
    L.state = take(compact_state_bytes(n, compact_tile()));
    L.work = take((k64 ? sort64 : sort32)->temp_bytes(n));
    L.total = at;
    return L;
  }

  Result<BufferView> resolve(BufferView temp, uint64_t need, const char* call) const {
    return vkprim::detail::resolve_temp("CsrBuilder", temp, owned_temp, need, call);
  }

  Status check_out(const CsrView& out, uint64_t n, BufferView counts) const {
    const auto bad = [](const std::string& m) {
      return make_error(Errc::invalid_argument, "CsrBuilder: " + m);
    };
    if (out.value_type != type) return bad("the output's value type differs from the builder's");
    if (out.complex)
      return make_error(Errc::unsupported,
                        "CsrBuilder: complex matrices are not supported (real values only)");
    if (out.rows >= (uint64_t(1) << 32) || out.cols >= (uint64_t(1) << 32))
      return bad("rows and cols must be < 2^32");
    if (out.rows == (uint64_t(1) << 32) - 1)  // the passes index the rows + 1 row pointers in 32 bits
      return make_error(Errc::limit_exceeded, "CsrBuilder: at most 2^32 - 2 rows");
    if (n > 0xFFFFFFFFull && !out.row_ptr_64)
      return bad("2^32 triplets or more need a 64-bit row pointer (out.row_ptr_64)");
    const uint64_t rp = out.row_ptr_64 ? 8 : 4;
    if (out.row_ptr.size < (out.rows + 1) * rp || out.row_ptr.address % rp)
      return bad("row_ptr must hold rows + 1 aligned entries");
    if (out.col_idx.size < n * 4 || out.values.size < n * esz)
      return bad("col_idx and values must have room for n entries");
    if (counts.size < 12 || counts.address % 4) return bad("counts must hold 3 aligned u32");
    return {};
  }

  // The sort a build of n triplets into `out` runs, on the keys it makes in `temp` (resolved).
  struct SortCall {
    const RadixSort* sort;
    BufferView keys_in, values_in, keys_out, values_out, work;
    uint32_t end_bit;
  };
  SortCall sort_call(BufferView coo_values, uint64_t n, const CsrView& out, BufferView temp) const {
    const CsrBuildLayout L = layout(n, out.rows, out.cols);
    const bool k64 = wide_keys(out.rows, out.cols);
    const uint64_t kb = k64 ? 8 : 4;
    return {k64 ? &*sort64 : &*sort32,
            temp.sub(L.keys_in, n * kb),
            coo_values.sub(0, n * esz),
            temp.sub(L.keys, n * kb),
            temp.sub(L.vals, n * esz),
            temp.sub(L.work, L.total - L.work),
            std::max(bits_for(out.rows) + bits_for(out.cols), 1u)};
  }

  // Every check of a build (the nested sort's included), made before it records anything: the
  // temporary storage the build uses.
  Result<BufferView> check(BufferView coo_rows, BufferView coo_cols, BufferView coo_values,
                           uint64_t n, const CsrView& out, BufferView counts,
                           BufferView temp_in) const {
    VKPRIM_TRY(check_out(out, n, counts));
    if (coo_rows.size < n * 4 || coo_cols.size < n * 4 || coo_values.size < n * esz)
      return make_error(Errc::invalid_argument,
                        "CsrBuilder: the triplet arrays must hold n elements each");
    const CsrBuildLayout L = layout(n, out.rows, out.cols);
    auto temp = resolve(temp_in, L.total, "temp_bytes(n, rows, cols)");
    if (!temp) return temp.error();
    if (n) {
      const SortCall sc = sort_call(coo_values, n, out, *temp);
      const Status s = SortInternals::check_pairs_counted(*sc.sort, sc.keys_in, sc.values_in, sc.keys_out,
                                                          sc.values_out, n, sc.work, 0, sc.end_bit);
      if (!s) return make_error(s.error().code, "CsrBuilder: " + s.error().message);
    }
    return temp;
  }

  Status record(VkCommandBuffer cmd, BufferView coo_rows, BufferView coo_cols,
                BufferView coo_values, uint64_t n, const CsrView& out, BufferView counts,
                BufferView temp_in) const {
    auto temp = check(coo_rows, coo_cols, coo_values, n, out, counts, temp_in);
    if (!temp) return temp.error();
    const CsrBuildLayout L = layout(n, out.rows, out.cols);
    const bool k64 = wide_keys(out.rows, out.cols);
    const uint64_t kb = k64 ? 8 : 4;
    const uint32_t cb = bits_for(out.cols);
    const uint64_t base = temp->address;
    const auto sub = [&](uint64_t off, uint64_t bytes) { return temp->sub(off, bytes); };
    const int rw = out.row_ptr_64 ? 1 : 0;
    const auto& c = *ctx;

    const SortCall sc = sort_call(coo_values, n, out, *temp);
    const RadixSort& sort = *sc.sort;
    const uint32_t end_bit = sc.end_bit;
    const BufferView work = sc.work;
    const vkprim::detail::RadixUpfront up = SortInternals::upfront(sort, n, work, 0, end_bit);
    if (leading_barrier) compute_to_compute_barrier(c, cmd);  // earlier users of temp are done
    if (n == 0) {
      VKPRIM_TRY(fill->record(cmd, counts.sub(0, 12), uint32_t(0)));
      VKPRIM_TRY(fill->record(cmd, out.row_ptr.sub(0, (out.rows + 1) * (out.row_ptr_64 ? 8 : 4)),
                              uint32_t(0)));
      return {};
    }
    // The gap list's header (its count, and the status word that the compaction copies to
    // counts[1] with the entry count), the compaction's state and the sort's upfront counts
    // (L's order).
    VKPRIM_TRY(fill->record(cmd, sub(L.gaps, up.zero.address + up.zero.size - (base + L.gaps)),
                            uint32_t(0)));
    compute_to_compute_barrier(c, cmd);
    // The keys, counted for the sort as they are made (so it does not read them again), in
    // dispatches of at most max_items_per_dispatch triplets adding to the same counts.
    const Pipeline& kpass = up.histogram ? keys[k64] : keys_varying[k64];
    const uint64_t chunk = c.max_items_per_dispatch;
    VKPRIM_TRY(for_each_chunk(n, chunk, [&](uint64_t first, uint64_t m, uint64_t j) {
      if (j) compute_to_compute_barrier(c, cmd);
      KeysPush kp{coo_rows.address + first * 4, coo_cols.address + first * 4,
                  base + L.keys_in + first * kb, base + L.gaps + 4,
                  up.hist,          up.varying,       uint32_t(m),      uint32_t(out.rows),
                  uint32_t(out.cols), cb,             up.flags,         end_bit,
                  up.passes};
      kpass.dispatch(cmd, &kp,
                     std::min(grid_groups(c, m, kpass.tile_items()),
                              vkprim::detail::tuning::kCsrKeysGroups));
      return Status{};
    }));
    // The values travel with their keys (no permutation, no gather afterwards).
    VKPRIM_TRY(SortInternals::sort_pairs_counted(sort, cmd, sc.keys_in, sc.values_in, sc.keys_out,
                                                 sc.values_out, n, work, 0, end_bit));
    compute_to_compute_barrier(c, cmd);
    // The compaction in chunks of at most max_items_per_dispatch entries (its tiles and
    // look-back counts are 32-bit): chunk j writes its running total of run ends to slot j % 2,
    // and chunk j + 1 starts its outputs after it. The first chunk's state was zeroed above.
    // One chunk runs the build with 32-bit positions throughout, several the wide build (64-bit
    // output positions): the 64-bit arithmetic costs the pass registers (csr_compact.comp).
    VKPRIM_TRY(for_each_chunk(n, chunk, [&](uint64_t first, uint64_t m, uint64_t j) -> Status {
      if (j) {
        compute_to_compute_barrier(c, cmd);  // the chunk before is done with the state
        VKPRIM_TRY(fill->record(cmd, sub(L.state, compact_state_bytes(m, compact_tile())), uint32_t(0)));
        compute_to_compute_barrier(c, cmd);
      }
      CompactPush cp{base + L.keys + first * kb,
                     base + L.vals + first * esz,
                     out.col_idx.address,
                     out.values.address,
                     out.row_ptr.address,
                     base + L.gaps,
                     counts.address,
                     base + L.state,
                     first,
                     j ? base + L.slots + (j - 1) % 2 * 8 : 0,
                     first + m < n ? base + L.slots + j % 2 * 8 : 0,
                     uint32_t(m),
                     first + m == n ? uint32_t(m) : ~0u,
                     cb,
                     uint32_t(out.rows),
                     out.row_ptr_64 ? 1u : 0u};
      // One workgroup per tile (tile ids come from the state's counter: any grid shape works).
      const auto [gx, gy] = vkprim::detail::grid_2d(c, (m + compact_tile() - 1) / compact_tile());
      compact[k64][n > chunk ? 1 : 0].dispatch(cmd, &cp, gx, gy);
      return {};
    }));
    compute_to_compute_barrier(c, cmd);
    RowPtrPush pp{base + L.gaps, out.row_ptr.address};
    row_ptr[rw].dispatch(cmd, &pp, uint32_t(std::min(L.gap_capacity, kRowGapGroups)));
    return {};
  }

  uint64_t transpose_temp_bytes(const CsrView& a) const {
    return align16(a.nnz * 4) + layout(a.nnz, a.cols, a.rows).total;
  }

  Status record_transpose(VkCommandBuffer cmd, const CsrView& a, const CsrView& out,
                          BufferView counts, BufferView temp_in) const {
    if (a.complex || out.complex)
      return make_error(
          Errc::unsupported,
          "CsrBuilder::record_transpose: complex matrices are not supported (real values only)");
    if (a.value_type != type || out.rows != a.cols || out.cols != a.rows)
      return make_error(
          Errc::invalid_argument,
          "CsrBuilder::record_transpose: out must be a.cols x a.rows of the builder's type");
    const uint64_t rp = a.row_ptr_64 ? 8 : 4;
    if (a.rows && (a.row_ptr.size < (a.rows + 1) * rp || a.col_idx.size < a.nnz * 4 ||
                   a.values.size < a.nnz * esz))
      return make_error(Errc::invalid_argument,
                        "CsrBuilder::record_transpose: the input views are too small");
    auto temp = resolve(temp_in, transpose_temp_bytes(a), "transpose_temp_bytes(a)");
    if (!temp) return temp.error();
    const BufferView row_of = temp->sub(0, a.nnz * 4);
    const uint64_t head = align16(a.nnz * 4);
    const BufferView build_temp = temp->sub(head, temp->size - head);
    // The build's checks (record() makes them again), before the rows are expanded.
    auto checked = check(a.col_idx, row_of, a.values, a.nnz, out, counts, build_temp);
    if (!checked) return checked.error();
    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of temp are done
    const int w = a.row_ptr_64 ? 1 : 0;
    if (a.nnz)
      VKPRIM_TRY(for_each_chunk(
          a.nnz, ctx->max_items_per_dispatch, [&](uint64_t first, uint64_t m, uint64_t) {
            ExpandPush ep{a.row_ptr.address, row_of.address + first * 4, uint32_t(m),
                          uint32_t(a.rows), first};
            expand[w].dispatch(cmd, &ep, grid_groups(*ctx, m, expand[w].tile_items()));
            return Status{};
          }));
    // The transpose's triplets: (col, row, value), already in row order, so the stable sort keeps
    // each output row's entries in input-row order: columns sorted.
    return record(cmd, a.col_idx, row_of, a.values, a.nnz, out, counts, build_temp);
  }
};

}  // namespace detail

using detail::CsrBuildPlan;

CsrBuilder::CsrBuilder(std::unique_ptr<CsrBuildPlan> p) : plan_(std::move(p)) {}
CsrBuilder::CsrBuilder(CsrBuilder&&) noexcept = default;
CsrBuilder& CsrBuilder::operator=(CsrBuilder&&) noexcept = default;
CsrBuilder::~CsrBuilder() = default;

Result<CsrBuilder> CsrBuilder::create(const Context& context, ValueType type,
                                      const CsrBuildOptions& o) {
  return testing::create_csr_builder(context, type, o, {});
}

Result<CsrBuilder> testing::create_csr_builder(const Context& context, ValueType type,
                                               const CsrBuildOptions& o, const CsrBuildKnobs& knobs) {
  const auto& ctx = context.impl();
  if (type != ValueType::f32 && type != ValueType::f64)
    return make_error(Errc::invalid_argument,
                      std::string("CsrBuilder: values must be f32 or f64, not ") + to_string(type));
  if (type == ValueType::f64 && !ctx.caps.shader_float64)
    return make_error(Errc::unsupported,
                      "CsrBuilder<f64>: the device has no shaderFloat64 (use f32 values)");
  auto plan = std::make_unique<CsrBuildPlan>();
  plan->leading_barrier = o.leading_barrier;
  plan->ctx = &ctx;
  plan->type = type;
  plan->esz = uint32_t(size_of(type));
  plan->compact_wg = detail::compact_workgroup(ctx);
  namespace variants = vkprim::detail::variants;
  const auto real = variants::real_axis(type);
  // The compaction's look-back: the scan's spin limit (common/tile_state.glsl), or the knobs'.
  vkprim::detail::LookBackSpec look_back;
  look_back.spin_limit = knobs.spin_limit ? knobs.spin_limit : vkprim::detail::tuning::kSpinLimit;
  look_back.stall_period = knobs.stall_period;
  for (int w = 0; w < 2; ++w) {
    const auto kb = w ? variants::KeyBits::k64 : variants::KeyBits::k32;
    const auto rp = variants::row_ptr_axis(w == 1);
    struct {
      vkprim::detail::Pipeline* dst;
      vkprim::detail::Shader shader;
      uint32_t bytes;
      bool compaction;
    } list[] = {{&plan->keys[w], variants::csr_keys(kb), uint32_t(sizeof(detail::KeysPush)), false},
                {&plan->keys_varying[w], variants::csr_keys_varying(kb),
                 uint32_t(sizeof(detail::KeysPush)), false},
                {&plan->compact[w][0], variants::csr_compact(real, kb, variants::Offsets::narrow),
                 uint32_t(sizeof(detail::CompactPush)), true},
                {&plan->compact[w][1], variants::csr_compact(real, kb, variants::Offsets::wide),
                 uint32_t(sizeof(detail::CompactPush)), true},
                {&plan->row_ptr[w], variants::csr_row_ptr(rp), uint32_t(sizeof(detail::RowPtrPush)),
                 false},
                {&plan->expand[w], variants::csr_expand_rows(rp), uint32_t(sizeof(detail::ExpandPush)),
                 false}};
    for (auto& e : list) {
      vkprim::detail::PipelineDesc d;
      d.shader = e.shader;
      d.push_bytes = e.bytes;
      d.workgroup_size = e.compaction ? plan->compact_wg : detail::kWg;
      d.items = e.compaction ? detail::kCompactItems : detail::kItems;
      if (e.compaction) vkprim::detail::set_look_back_spec(d, look_back);
      auto p = detail::Pipeline::create(ctx, d);
      if (!p) return p.error();
      *e.dst = std::move(*p);
    }
  }
  SortOptions so;
  so.value_bytes = plan->esz;
  so.use_subgroup_ops = o.use_subgroup_ops;
  so.algorithm = o.sort_algorithm;
  vkprim::testing::SortKnobs sk;
  sk.stall_period = knobs.stall_period;
  sk.spin_limit = knobs.spin_limit;
  auto s32 = vkprim::testing::create_radix_sort(context, ValueType::u32, so, sk);
  if (!s32) return s32.error();
  plan->sort32 = std::move(*s32);
  auto s64 = vkprim::testing::create_radix_sort(context, ValueType::u64, so, sk);
  if (!s64) return s64.error();
  plan->sort64 = std::move(*s64);
  auto fill = Fill::create(context);
  if (!fill) return fill.error();
  plan->fill = std::move(*fill);
  return vkprim::detail::PlanAccess::wrap<CsrBuilder>(std::move(plan));
}

uint64_t CsrBuilder::temp_bytes(uint64_t n, uint64_t rows, uint64_t cols) const {
  return plan_->layout(n, rows, cols).total;
}
uint64_t CsrBuilder::transpose_temp_bytes(const CsrView& a) const {
  return plan_->transpose_temp_bytes(a);
}

namespace {
Status reserve_bytes(CsrBuildPlan& p, uint64_t bytes) {
  return vkprim::detail::reserve_owned(*p.ctx, p.owned_temp, bytes);
}
}  // namespace

Status CsrBuilder::reserve(uint64_t n, uint64_t rows, uint64_t cols) {
  return reserve_bytes(*plan_, temp_bytes(n, rows, cols));
}
Status CsrBuilder::reserve_transpose(const CsrView& a) {
  return reserve_bytes(*plan_, transpose_temp_bytes(a));
}

Status CsrBuilder::record(VkCommandBuffer cmd, BufferView coo_rows, BufferView coo_cols,
                          BufferView coo_values, uint64_t n, const CsrView& out, BufferView counts,
                          BufferView temp) const {
  return plan_->record(cmd, coo_rows, coo_cols, coo_values, n, out, counts, temp);
}
Status CsrBuilder::record_transpose(VkCommandBuffer cmd, const CsrView& a, const CsrView& out,
                                    BufferView counts, BufferView temp) const {
  return plan_->record_transpose(cmd, a, out, counts, temp);
}

namespace {
// Reads the counts words after a build and shrinks `m` to the entries found.
Status finish(Runtime& rt, DeviceCsr& m, const Buffer& counts) {
  auto c = rt.download<uint32_t>(counts.view(), 3);
  if (!c) return c.error();
  if ((*c)[1] & 1u)
    return make_error(Errc::invalid_argument,
                      "build_csr: some triplets lie outside the matrix's rows x cols");
  return m.set_nnz((uint64_t((*c)[2]) << 32) | (*c)[0]);
}
}  // namespace

Result<DeviceCsr> build_csr(Runtime& rt, const CooMatrix& m, const DeviceCsrOptions& options,
                            const CsrBuildOptions& build) {
  auto builder = CsrBuilder::create(rt.context(), options.values, build);
  if (!builder) return builder.error();
  return build_csr(rt, *builder, m, options);
}

Result<DeviceCsr> transpose(Runtime& rt, const DeviceCsr& a, const CsrBuildOptions& build) {
  auto builder = CsrBuilder::create(rt.context(), a.value_type(), build);
  if (!builder) return builder.error();
  return transpose(rt, *builder, a);
}

Result<DeviceCsr> build_csr(Runtime& rt, CsrBuilder& builder, const CooMatrix& m,
                            const DeviceCsrOptions& options) {
  VKPRIM_TRY(validate(m));
  if (m.field == Field::complex || options.complex)
    return make_error(
        Errc::unsupported,
        "build_csr: the GPU CSR build moves real values only; upload a complex matrix "
        "from a host CSR (to_csr, then DeviceCsr::upload)");
  const uint64_t n = uint64_t(m.nnz());
  std::vector<uint32_t> r(n), c(n);
  for (uint64_t k = 0; k < n; ++k) {
    r[k] = uint32_t(m.row_indices[k]);
    c[k] = uint32_t(m.col_indices[k]);
  }
  auto out = DeviceCsr::allocate(rt.context(), uint64_t(m.rows), uint64_t(m.cols), n, options);
  if (!out) return out.error();
  auto rb = rt.upload(r);
  if (!rb) return rb.error();
  auto cb = rt.upload(c);
  if (!cb) return cb.error();
  Result<Buffer> vb = make_error(Errc::invalid_argument, "");
  if (options.values == ValueType::f64) {
    std::vector<double> v(n);
    for (uint64_t k = 0; k < n; ++k) v[k] = m.value(int64_t(k));
    vb = rt.upload(v);
  } else {
    std::vector<float> v(n);
    for (uint64_t k = 0; k < n; ++k) v[k] = float(m.value(int64_t(k)));
    vb = rt.upload(v);
  }
  if (!vb) return vb.error();
  auto counts = rt.alloc(12);
  if (!counts) return counts.error();
  VKPRIM_TRY(builder.reserve(n, uint64_t(m.rows), uint64_t(m.cols)));
  CsrView view = out->view();
  view.col_idx = out->col_idx_buffer().view();
  view.values = out->values_buffer().view();
  VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) {
    return builder.record(cmd, rb->view(), cb->view(), vb->view(), n, view, counts->view());
  }));
  VKPRIM_TRY(finish(rt, *out, *counts));
  return out;
}

Result<DeviceCsr> transpose(Runtime& rt, CsrBuilder& builder, const DeviceCsr& a) {
  DeviceCsrOptions o;
  o.values = a.value_type();
  o.force_row_ptr_64 = a.row_ptr_64();
  auto out = DeviceCsr::allocate(rt.context(), a.cols(), a.rows(), a.nnz(), o);
  if (!out) return out.error();
  auto counts = rt.alloc(12);
  if (!counts) return counts.error();
  VKPRIM_TRY(builder.reserve_transpose(a.view()));
  VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) {
    return builder.record_transpose(cmd, a.view(), out->view(), counts->view());
  }));
  VKPRIM_TRY(finish(rt, *out, *counts));
  return out;
}

}  // namespace vkprim::sparse
