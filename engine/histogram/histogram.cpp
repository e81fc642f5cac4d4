// Histogram::create_even: choosing the privatized (shared memory) or global-atomic variant, and
// recording fill(hist, 0) -> histogram_even (in chunks of at most max_items_per_dispatch samples).
#include "core/device_count.hpp"
#include "core/pipeline.hpp"
#include "histogram/pass.hpp"
#include "histogram/policy.hpp"

#include <vkprim/elementwise.hpp>
#include <vkprim/histogram.hpp>

#include <bit>
#include <cmath>
#include <optional>
#include <string>

namespace vkprim {
namespace detail {

struct HistogramPlan {
  const ContextImpl* ctx = nullptr;
  bool leading_barrier = true;  // HistogramOptions
  uint32_t bins = 0, lower = 0, upper = 0, scale = 0;
  bool shared = false;
  Pipeline pass;
  std::optional<Fill> fill;
};

}  // namespace detail

using detail::HistogramPlan;

Histogram::Histogram(std::unique_ptr<HistogramPlan> p) : plan_(std::move(p)) {}
Histogram::Histogram(Histogram&&) noexcept = default;
Histogram& Histogram::operator=(Histogram&&) noexcept = default;
Histogram::~Histogram() = default;

Result<Histogram> Histogram::create_even(const Context& context, ValueType type, uint32_t bins, double lower,
                                         double upper, const HistogramOptions& options) {
  namespace tuning = detail::tuning;
  const auto& ctx = context.impl();
  auto plan = std::make_unique<HistogramPlan>();
  plan->ctx = &ctx;
  plan->leading_barrier = options.leading_barrier;
  plan->bins = bins;
  if (bins == 0) return make_error(Errc::invalid_argument, "Histogram: at least one bin");
  if (!(lower < upper))
    return make_error(Errc::invalid_argument, "Histogram: the range [lower, upper) must not be empty");
  if (type == ValueType::u32) {
    if (lower < 0 || upper > 4294967296.0 || lower != std::floor(lower) || upper != std::floor(upper))
      return make_error(Errc::invalid_argument, "Histogram<u32>: lower and upper must be integers in [0, 2^32]");
    plan->lower = uint32_t(lower);
    plan->upper = uint32_t(uint64_t(upper) - 1);  // the last sample in range
    // The shader's estimate of the bin (corrected exactly there): bins / (upper - lower) in f32.
    plan->scale = std::bit_cast<uint32_t>(float(double(bins) / (upper - lower)));
  } else if (type == ValueType::f32) {
    const float lo = float(lower), hi = float(upper);
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
      return make_error(Errc::invalid_argument, "Histogram<f32>: lower < upper, both finite in f32");
    const float width = hi - lo;
    if (!std::isfinite(width))
      return make_error(Errc::invalid_argument, "Histogram<f32>: upper - lower overflows f32");
    const float scale = float(bins) / width;
    plan->lower = std::bit_cast<uint32_t>(lo);
    plan->upper = std::bit_cast<uint32_t>(hi);
    plan->scale = std::bit_cast<uint32_t>(scale);
  } else {
    return make_error(Errc::unsupported, std::string("Histogram: samples must be u32 or f32, not ") + to_string(type));
  }
  const uint64_t shared_cap = std::min<uint64_t>(ctx.caps.max_shared_memory, tuning::kHistogramSharedBytes);
  plan->shared = uint64_t(bins) * 4 <= shared_cap;
  namespace variants = detail::variants;
  detail::PipelineDesc d;
  const auto sample = type == ValueType::u32 ? variants::Sample::u32 : variants::Sample::f32;
  d.shader = variants::histogram_even(sample, plan->shared ? variants::Bins::shared : variants::Bins::global);
  d.push_bytes = detail::kHistogramPushBytes;
  d.workgroup_size = tuning::kHistogramWorkgroup;
  d.items = tuning::kHistogramItems;
  if (plan->shared) d.extra_spec = {bins};
  auto p = detail::Pipeline::create(ctx, d);
  if (!p) return p.error();
  plan->pass = std::move(*p);
  auto fill = Fill::create(context);
  if (!fill) return fill.error();
  plan->fill.emplace(std::move(*fill));
  return Histogram(std::move(plan));
}

uint32_t Histogram::bins() const { return plan_->bins; }
bool Histogram::privatized() const { return plan_->shared; }

Status Histogram::record(VkCommandBuffer cmd, BufferView samples, BufferView hist, Count count) const {
  const auto& p = *plan_;
  const uint64_t n = count.n;
  VKPRIM_TRY(detail::check_device_count(count, "Histogram", ~uint64_t(0), ~uint64_t(0)));
  if (samples.size < n * 4 || (n && (!samples.address || samples.address % 4)))
    return make_error(Errc::invalid_argument, "Histogram: samples must hold n 4-byte aligned values (" +
                                                  std::to_string(n * 4) + " bytes)");
  if (hist.size < uint64_t(p.bins) * 4 || !hist.address || hist.address % 4)
    return make_error(Errc::invalid_argument, "Histogram: hist must hold " + std::to_string(p.bins) + " aligned u32");
  if (n && samples.address < hist.address + p.bins * 4ull && hist.address < samples.address + n * 4)
    return make_error(Errc::invalid_argument, "Histogram: hist overlaps the samples");
  if (p.leading_barrier) detail::compute_to_compute_barrier(*p.ctx, cmd);  // earlier users of hist are done
  VKPRIM_TRY(p.fill->record(cmd, hist.sub(0, uint64_t(p.bins) * 4), uint32_t(0)));
  detail::compute_to_compute_barrier(*p.ctx, cmd);
  if (!count.is_device() && n == 0) return {};
  // Dispatches of at most max_items_per_dispatch samples (the shader's indices are 32-bit),
  // each adding to hist after the one before; with a count on the GPU, each takes its part of
  // it (the count less its first sample, at most its length: none past the count).
  return detail::for_each_chunk(n, p.ctx->max_items_per_dispatch, [&](uint64_t first, uint64_t m, uint64_t i) {
    if (i) detail::compute_to_compute_barrier(*p.ctx, cmd);
    detail::HistogramPush push{samples.address + first * 4, hist.address,
                               detail::count_address(count), first, uint32_t(m),
                               p.bins, p.lower, p.upper, p.scale};
    p.pass.dispatch(cmd, &push, std::min(detail::grid_groups(*p.ctx, m, p.pass.tile_items()),
                                         detail::tuning::kHistogramGroups));
    return Status{};
  });
}

}  // namespace vkprim
