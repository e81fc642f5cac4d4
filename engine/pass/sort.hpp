// Pass layer for radix sort: push-constant blocks mirroring shaders/radix_histogram.comp,
// radix_upsweep.comp, radix_downsweep.comp and radix_onesweep.comp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vkprim::detail {

struct RadixHistogramPush {
  uint64_t keys, hist, count;
  uint32_t n, flags, begin_bit, end_bit, passes;
};
static_assert(offsetof(RadixHistogramPush, n) == 24 && offsetof(RadixHistogramPush, passes) == 40);

struct RadixUpsweepPush {
  uint64_t keys, hist, counts, count;
  uint32_t n, tiles, flags, shift, bits, pass;
};
static_assert(offsetof(RadixUpsweepPush, n) == 32 && offsetof(RadixUpsweepPush, pass) == 52);

struct RadixDownsweepPush {
  uint64_t keys_in, keys_out, values_in, values_out, hist, offsets, count;
  uint32_t n, tiles, flags, shift, bits, pass, copy;
};
static_assert(offsetof(RadixDownsweepPush, n) == 56 && offsetof(RadixDownsweepPush, copy) == 80);

struct RadixOnesweepPush {
  uint64_t keys_in, keys_out, values_in, values_out, hist, state, clear, count;
  uint32_t n, tiles, flags, shift, bits, pass, spin_limit, stall_period;
};
static_assert(offsetof(RadixOnesweepPush, n) == 64 && offsetof(RadixOnesweepPush, stall_period) == 92);

// Onesweep look-back state (radix_onesweep.comp): per pass, a 4-word header (word 0: the tile
// counter) and 256 words per tile, each 2 flag bits | a 30-bit count.
inline constexpr uint64_t kRadixOnesweepHeaderWords = 4;

// Key flags (common/radix.glsl): bits 0-1 the key kind, bit 2 descending.
inline constexpr uint32_t kRadixUnsigned = 0u;
inline constexpr uint32_t kRadixSigned = 1u;
inline constexpr uint32_t kRadixFloat = 2u;
inline constexpr uint32_t kRadixDescending = 4u;

inline constexpr uint32_t kRadixHistogramPushBytes = 44;
inline constexpr uint32_t kRadixUpsweepPushBytes = 56;
inline constexpr uint32_t kRadixDownsweepPushBytes = 84;
inline constexpr uint32_t kRadixOnesweepPushBytes = 96;

}  // namespace vkprim::detail
