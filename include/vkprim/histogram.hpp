// Histogram with even bins (CUB's DeviceHistogram::HistogramEven): `bins` bins of equal width
// over [lower, upper) of u32 or f32 samples; samples outside the range, and NaNs, are not
// counted. Bin of a sample x in range:
//   u32: (x - lower) * bins / (upper - lower), exact (64-bit integer arithmetic)
//   f32: min(floor((x - lower) * scale), bins - 1) with scale = float(bins) / (upper - lower)
//        evaluated in f32 (each operation correctly rounded, so a CPU doing the same f32
//        arithmetic gets the same bins; near bin edges this may differ from exact arithmetic)
//
// Algorithm: bins privatized per workgroup in shared memory (up to ~6K bins; more spill to
// global atomics directly), samples visited grid-stride, each workgroup adding its nonzero
// bins to the global histogram once. Counts are exact (integer atomics) below 2^32 per bin, and
// wrap modulo 2^32 beyond (u32 counters, like CUB's int counters); any bin count >= 1. Any
// number of samples (host counts past 2^32 run as several dispatches).
//
// Temporary storage: none. Synchronization owed by the caller: as for elementwise.hpp; each call
// records a barrier before it zeroes hist (HistogramOptions::leading_barrier).
// State overwritten: compute pipeline and push constants.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/scan.hpp>
#include <vkprim/types.hpp>

#include <memory>

namespace vkprim {

namespace detail {
struct HistogramPlan;
}

struct HistogramOptions {
  // Whether each call records its own compute-to-compute barrier before its first pass
  // (elementwise.hpp: "Leading barrier"). false: the caller orders what came before the call,
  // the earlier calls on this object's reserved storage included.
  bool leading_barrier = true;
};

class Histogram {
 public:
  // Even bins over [lower, upper) of `sample_type` samples (u32 or f32, else
  // Errc::unsupported). Errc::invalid_argument unless bins >= 1 and lower < upper (integers in
  // [0, 2^32] for u32; finite, with upper - lower finite, for f32).
  static Result<Histogram> create_even(const Context& ctx, ValueType sample_type, uint32_t bins,
                                       double lower, double upper,
                                       const HistogramOptions& options = {});
  uint32_t bins() const;
  // True when the bins fit in shared memory (privatized), false when they use global atomics.
  bool privatized() const;

  // hist[0, bins) = the u32 counts of samples[0, n) (overwritten, not accumulated). Samples must
  // be 4-byte aligned; a count on the GPU (Count::on_device) is a u32, or a u64 past 2^32 - 1
  // samples (each dispatch takes its part of it; a count above max counts max samples).
  // Writes hist[0, bins) only. invalid_argument (nothing recorded) where samples does not hold
  // n aligned values, hist does not hold bins aligned u32, hist overlaps the samples, or the
  // count buffer is not an aligned u32 or u64.
  Status record(VkCommandBuffer cmd, BufferView samples, BufferView hist, Count n) const;

  Histogram(Histogram&&) noexcept;
  Histogram& operator=(Histogram&&) noexcept;
  ~Histogram();

 private:
  explicit Histogram(std::unique_ptr<detail::HistogramPlan>);
  std::unique_ptr<detail::HistogramPlan> plan_;
};

}  // namespace vkprim
