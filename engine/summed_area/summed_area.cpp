// SummedAreaTable: sat_rows (every row's inclusive scan) -> sat_columns phases 0, 1, 2 (every
// column's inclusive scan, in chunks of rows); a one-row or one-column table: Scan::inclusive
// (after sat_widen, for u64 sums of a u32 image).
#include "core/call_checks.hpp"
#include "core/pipeline.hpp"
#include "core/temp_storage.hpp"
#include "scan/pass.hpp"  // ScanInternals: the nested scan's checks
#include "summed_area/pass.hpp"
#include "summed_area/policy.hpp"

#include <vkprim/scan.hpp>
#include <vkprim/summed_area.hpp>

#include <limits>
#include <optional>
#include <string>

namespace vkprim {
namespace detail {

struct SatPlan {
  const ContextImpl* ctx = nullptr;
  ValueType type = ValueType::f32, sum_type = ValueType::f32;
  bool leading_barrier = true;
  Pipeline rows, columns, widen;
  std::optional<Scan> scan;  // one-row and one-column tables, in sum_type
  std::optional<Buffer> owned_temp;

  uint64_t sum_bytes() const { return size_of(sum_type); }
  static bool one_dimensional(uint64_t width, uint64_t height) { return width == 1 || height == 1; }

  uint64_t temp_bytes(uint64_t width, uint64_t height) const {
    if (width == 0 || height == 0) return 16;
    if (one_dimensional(width, height)) return std::max<uint64_t>(16, scan->temp_bytes(width * height));
    const auto c = tuning::sat_chunks(width, height);
    return align16(c.chunks * width * sum_bytes());
  }

  Status record(VkCommandBuffer cmd, BufferView in, BufferView out, uint64_t width, uint64_t height,
                BufferView temp_in) const {
    constexpr std::string_view what = "SummedAreaTable";
    if (height != 0 && width > std::numeric_limits<uint64_t>::max() / height / 8)
      return make_error(Errc::limit_exceeded, "SummedAreaTable: width x height elements pass 2^64 bytes");
    const uint64_t n = width * height, eb = size_of(type), sb = sum_bytes();
    VKPRIM_TRY(check_view(what, "in", in, n * eb, eb));
    VKPRIM_TRY(check_view(what, "out", out, n * sb, sb));
    const bool in_place = in.address == out.address && n != 0;
    if (in_place && eb != sb)
      return make_error(Errc::invalid_argument, "SummedAreaTable: out is in, but u64 sums of a u32 image "
                                                "need an output of their own");
    if (!in_place && overlap(in, n * eb, out, n * sb))
      return make_error(Errc::invalid_argument, "SummedAreaTable: out overlaps in without being it");
    auto temp = resolve_temp(what, temp_in, owned_temp, temp_bytes(width, height), "temp_bytes(width, height)");
    if (!temp) return temp.error();
    if (n == 0) return {};
    if (one_dimensional(width, height)) {
      VKPRIM_TRY(ScanInternals::check_exclusive(*scan, type == sum_type ? in : out, out, n, *temp));
      if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);
      if (type != sum_type) {
        const SatWidenPush p{in.address, out.address, n};
        widen.dispatch(cmd, &p, std::min<uint32_t>(grid_groups(*ctx, n, widen.tile_items()), tuning::kSatRowGroups));
        compute_to_compute_barrier(*ctx, cmd);
        return scan->inclusive(cmd, out, out, n, *temp);
      }
      return scan->inclusive(cmd, in, out, n, *temp);
    }
    const auto c = tuning::sat_chunks(width, height);
    const uint64_t column_groups = (c.chunks * width + tuning::kSatColumnWorkgroup - 1) / tuning::kSatColumnWorkgroup;
    const uint64_t row_groups = std::min<uint64_t>(height, tuning::kSatRowGroups);
    const auto [cx, cy] = grid_2d(*ctx, column_groups);
    const auto [rx, ry] = grid_2d(*ctx, row_groups);
    if (cy > ctx->caps.max_workgroup_count[1] || ry > ctx->caps.max_workgroup_count[1] ||
        c.rows > std::numeric_limits<uint32_t>::max())
      return make_error(Errc::limit_exceeded, "SummedAreaTable: more columns (or rows) than the device's dispatch limits cover");
    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);
    const SatRowsPush rp{in.address, out.address, width, height};
    rows.dispatch(cmd, &rp, rx, ry);
    for (uint32_t phase = 0; phase < 3; ++phase) {
      compute_to_compute_barrier(*ctx, cmd);
      const SatColumnsPush cp{out.address, temp->address, width, height, uint32_t(c.rows), uint32_t(c.chunks), phase};
      if (phase == 1) {
        const auto [px, py] = grid_2d(*ctx, (width + tuning::kSatColumnWorkgroup - 1) / tuning::kSatColumnWorkgroup);
        columns.dispatch(cmd, &cp, px, py);
      } else {
        columns.dispatch(cmd, &cp, cx, cy);
      }
    }
    return {};
  }
};

}  // namespace detail

using detail::SatPlan;

SummedAreaTable::SummedAreaTable(std::unique_ptr<SatPlan> p) : plan_(std::move(p)) {}
SummedAreaTable::SummedAreaTable(SummedAreaTable&&) noexcept = default;
SummedAreaTable& SummedAreaTable::operator=(SummedAreaTable&&) noexcept = default;
SummedAreaTable::~SummedAreaTable() = default;

Result<SummedAreaTable> SummedAreaTable::create(const Context& context, ValueType type, const SatOptions& o) {
  namespace tuning = detail::tuning;
  namespace variants = detail::variants;
  if (type != ValueType::f32 && type != ValueType::u32)
    return make_error(Errc::unsupported, std::string("SummedAreaTable: images of f32 or u32, not ") + to_string(type));
  if (o.wide_sums && type != ValueType::u32)
    return make_error(Errc::invalid_argument, "SummedAreaTable: wide_sums is for u32 images");
  const auto& ctx = context.impl();
  auto plan = std::make_unique<SatPlan>();
  plan->ctx = &ctx;
  plan->type = type;
  plan->sum_type = o.wide_sums ? ValueType::u64 : type;
  plan->leading_barrier = o.leading_barrier;
  const auto sums = type == ValueType::f32 ? variants::Sums::f32 : o.wide_sums ? variants::Sums::wide : variants::Sums::u32;
  auto rows = detail::Pipeline::create(ctx, variants::sat_rows(sums), detail::kSatRowsPushBytes,
                                       tuning::kSatRowWorkgroup, tuning::kSatRowItems);
  if (!rows) return rows.error();
  plan->rows = std::move(*rows);
  auto columns = detail::Pipeline::create(ctx, variants::sat_columns(sums), detail::kSatColumnsPushBytes,
                                          tuning::kSatColumnWorkgroup, 1);
  if (!columns) return columns.error();
  plan->columns = std::move(*columns);
  if (o.wide_sums) {
    auto widen = detail::Pipeline::create(ctx, detail::Shader::sat_widen, detail::kSatWidenPushBytes,
                                          tuning::kSatColumnWorkgroup, 1);
    if (!widen) return widen.error();
    plan->widen = std::move(*widen);
  }
  // The one-row and one-column tables' scan: in place for u64 sums, so reduce-then-scan.
  auto scan = Scan::create(context, plan->sum_type, ScanOp::sum);
  if (!scan) return scan.error();
  plan->scan.emplace(std::move(*scan));
  return SummedAreaTable(std::move(plan));
}

ValueType SummedAreaTable::type() const { return plan_->type; }
ValueType SummedAreaTable::sum_type() const { return plan_->sum_type; }
uint64_t SummedAreaTable::temp_bytes(uint64_t width, uint64_t height) const {
  return plan_->temp_bytes(width, height);
}
Status SummedAreaTable::reserve(uint64_t width, uint64_t height) {
  return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(width, height));
}
Status SummedAreaTable::record(VkCommandBuffer cmd, BufferView in, BufferView out, uint64_t width,
                               uint64_t height, BufferView temp) const {
  return plan_->record(cmd, in, out, width, height, temp);
}

}  // namespace vkprim
