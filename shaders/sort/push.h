// Push constants of the radix sort's passes, for their shaders and engine/sort/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::detail {
#endif

// Both builds of radix_histogram.comp: radix_histogram_k* and radix_varying_k* (hist unused).
#if defined(__cplusplus) || defined(PUSH_RADIX_HISTOGRAM)
VKPRIM_PUSH_BEGIN(RadixHistogramPush)  // radix_histogram.comp
  VKPRIM_PUSH_U64(keys_addr, 0)
  VKPRIM_PUSH_U64(hist_addr, 8)     // passes * 256 u32, zeroed (full build only)
  VKPRIM_PUSH_U64(varying_addr, 16)  // 2 * KEY_WORDS u32, zeroed
  VKPRIM_PUSH_U64(count_addr, 24)   // nonzero: the key count is read there (device_count), not n
  VKPRIM_PUSH_U64(count_first, 32)  // with count_addr: this dispatch's first key (its count: the
                                    // one read there less count_first, at most n)
  VKPRIM_PUSH_U32(n, 40)
  VKPRIM_PUSH_U32(begin_bit, 44)
  VKPRIM_PUSH_U32(end_bit, 48)
  VKPRIM_PUSH_U32(passes, 52)       // <= 8
VKPRIM_PUSH_END(RadixHistogramPush, 56)
#endif

// n_hi: bits 32-63 of the key count (read by the *_wide builds, sorts of 2^32 keys and more).
#if defined(__cplusplus) || defined(PUSH_RADIX_UPSWEEP)
VKPRIM_PUSH_BEGIN(RadixUpsweepPush)  // radix_upsweep.comp
  VKPRIM_PUSH_U64(keys_addr, 0)
  VKPRIM_PUSH_U64(varying_addr, 8)  // radix_histogram.comp's varying words
  VKPRIM_PUSH_U64(prefix_addr, 16)  // 128 * tiles u32: packed 16-bit prefixes within the group
  VKPRIM_PUSH_U64(totals_addr, 24)  // 256 * groups u32: digit counts per group, digit-major
  VKPRIM_PUSH_U64(digits_addr, 32)  // stripes * 256 u32, zeroed: the pass's digit counts
  VKPRIM_PUSH_U64(count_addr, 40)
  VKPRIM_PUSH_U32(n, 48)
  VKPRIM_PUSH_U32(tiles, 52)
  VKPRIM_PUSH_U32(shift, 56)        // first bit of this pass's digit
  VKPRIM_PUSH_U32(bits, 60)         // digit width, 1..8
  VKPRIM_PUSH_U32(stripes, 64)
  VKPRIM_PUSH_U32(n_hi, 68)         // RADIX_WIDE: bits 32-63 of the key count
VKPRIM_PUSH_END(RadixUpsweepPush, 72)
#endif

#if defined(__cplusplus) || defined(PUSH_RADIX_OFFSETS)
VKPRIM_PUSH_BEGIN(RadixOffsetsPush)  // radix_offsets.comp
  VKPRIM_PUSH_U64(totals_addr, 0)   // 256 * groups u32, digit-major: the upsweep's counts per
                                    // group
  VKPRIM_PUSH_U64(digits_addr, 8)   // stripes * 256 u32: the upsweep's digit counts of the pass
  VKPRIM_PUSH_U64(offsets_addr, 16)  // 256 * groups u32 (RADIX_WIDE: u64), digit-major: written
                                    // here
  VKPRIM_PUSH_U32(groups, 24)
  VKPRIM_PUSH_U32(stripes, 28)
  VKPRIM_PUSH_U32(rows, 32)         // digits per workgroup
VKPRIM_PUSH_END(RadixOffsetsPush, 40)
#endif

#if defined(__cplusplus) || defined(PUSH_RADIX_DOWNSWEEP)
VKPRIM_PUSH_BEGIN(RadixDownsweepPush)  // radix_downsweep.comp
  VKPRIM_PUSH_U64(keys_in, 0)
  VKPRIM_PUSH_U64(keys_out, 8)
  VKPRIM_PUSH_U64(values_in, 16)    // 0: keys only
  VKPRIM_PUSH_U64(values_out, 24)
  VKPRIM_PUSH_U64(varying_addr, 32)  // radix_histogram.comp's varying words
  VKPRIM_PUSH_U64(prefix_addr, 40)  // 128 * tiles u32: radix_upsweep's packed prefixes within the
                                    // group
  VKPRIM_PUSH_U64(offsets_addr, 48)  // 256 * groups u32 (RADIX_WIDE: u64): radix_offsets.comp's
                                    // offsets
  VKPRIM_PUSH_U64(count_addr, 56)
  VKPRIM_PUSH_U32(n, 64)
  VKPRIM_PUSH_U32(tiles, 68)
  VKPRIM_PUSH_U32(shift, 72)
  VKPRIM_PUSH_U32(bits, 76)
  VKPRIM_PUSH_U32(copy, 80)         // nonzero: copy keys and values (a sort with no bits to sort)
  VKPRIM_PUSH_U32(group_tiles, 84)  // radix_upsweep's GROUP_TILES
  VKPRIM_PUSH_U32(n_hi, 88)         // RADIX_WIDE: bits 32-63 of the key count
VKPRIM_PUSH_END(RadixDownsweepPush, 96)
#endif

#if defined(__cplusplus) || defined(PUSH_RADIX_ONESWEEP)
VKPRIM_PUSH_BEGIN(RadixOnesweepPush)  // radix_onesweep.comp
  VKPRIM_PUSH_U64(keys_in, 0)
  VKPRIM_PUSH_U64(keys_out, 8)
  VKPRIM_PUSH_U64(values_in, 16)    // 0: keys only
  VKPRIM_PUSH_U64(values_out, 24)
  VKPRIM_PUSH_U64(hist_addr, 32)    // radix_histogram.comp's histogram
  VKPRIM_PUSH_U64(varying_addr, 40)  // radix_histogram.comp's varying words
  VKPRIM_PUSH_U64(state_addr, 48)   // this pass's state, zeroed
  VKPRIM_PUSH_U64(clear_addr, 56)   // the next pass's state, zeroed here tile by tile (0: no
                                    // next pass)
  VKPRIM_PUSH_U64(count_addr, 64)   // nonzero: the key count is read there (device_count), not n
  VKPRIM_PUSH_U32(n, 72)
  VKPRIM_PUSH_U32(tiles, 76)        // the host's tile count (for the largest n)
  VKPRIM_PUSH_U32(shift, 80)
  VKPRIM_PUSH_U32(bits, 84)
  VKPRIM_PUSH_U32(pass, 88)
VKPRIM_PUSH_END(RadixOnesweepPush, 96)
#endif

#ifdef __cplusplus
}  // namespace vkprim::detail
#endif
