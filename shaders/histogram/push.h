// Push constants of the histogram pass, for histogram_even.comp and engine/histogram/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_HISTOGRAM_EVEN)
VKPRIM_PUSH_BEGIN(HistogramPush)    // histogram_even.comp
  VKPRIM_PUSH_U64(samples_addr, 0)
  VKPRIM_PUSH_U64(hist_addr, 8)     // bins u32, zeroed
  VKPRIM_PUSH_U64(count_addr, 16)   // nonzero: the sample count is read there (device_count)
  VKPRIM_PUSH_U64(count_first, 24)  // with count_addr: this dispatch's first sample (its count:
                                    // the one read there less count_first, at most n)
  VKPRIM_PUSH_U32(n, 32)
  VKPRIM_PUSH_U32(bins, 36)
  VKPRIM_PUSH_U32(lower, 40)        // bit patterns of the sample type
  VKPRIM_PUSH_U32(upper, 44)        // f32: upper; u32: upper - 1 (the last sample in range, so
                                    // that the full range [0, 2^32) is expressible)
  VKPRIM_PUSH_U32(scale, 48)        // f32 bits: bins / (upper - lower)
VKPRIM_PUSH_END(HistogramPush, 56)
#endif

#ifdef __cplusplus
}  // namespace vkprim::detail
#endif
