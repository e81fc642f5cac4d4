// Pass layer for radix sort: the push constants of shaders/sort/radix_histogram.comp,
// radix_upsweep.comp, radix_offsets.comp, radix_downsweep.comp and radix_onesweep.comp
// (shaders/sort/push.h, shared with the GLSL), and SortInternals, the entry points of the
// library's own passes that do a sort's upfront count themselves.
#pragma once

#include "../../shaders/sort/push.h"

#include <cstdint>
#include <vkprim/sort.hpp>

namespace vkprim::detail {

// The varying key bits (radix_histogram.comp): OR of the transformed keys and OR of their
// complements, one or two words each; 16 bytes for either key width.
inline constexpr uint64_t kRadixVaryingBytes = 16;

// Onesweep look-back state (radix_onesweep.comp): per pass, a 4-word header (word 0: the tile
// counter) and 256 words per tile, each 2 flag bits | a 30-bit count.
inline constexpr uint64_t kRadixOnesweepHeaderWords = 4;

// Key flags (common/radix.glsl): bits 0-1 the key kind, bit 2 descending.
inline constexpr uint32_t kRadixUnsigned = 0u;
inline constexpr uint32_t kRadixSigned = 1u;
inline constexpr uint32_t kRadixFloat = 2u;
inline constexpr uint32_t kRadixDescending = 4u;

// A sort's upfront count (common/radix_upfront.glsl) done by the pass that makes the keys (the
// CSR build's keys pass), so that the sort does not read them again: SortInternals::upfront
// says where the counts go in the sort's temporary storage (zero `zero` first), and
// SortInternals::sort_pairs_counted records the sort without its own upfront pass.
struct RadixUpfront {
  bool histogram = false;          // onesweep: every pass's histogram too, else the varying bits
  uint64_t hist = 0, varying = 0;  // addresses in the sort's temporary storage
  BufferView zero;
  uint32_t flags = 0, passes = 0;  // the key flags; digit passes over [begin_bit, end_bit)
};
// Where a sort of n keys keeps its decisions in its temporary storage (byte offsets), for tests
// that read them back: the varying bits; reduce-then-scan's tile prefixes (left untouched by a
// trivial pass's upsweep); onesweep's first look-back state region (ditto).
struct RadixTempLayout {
  uint64_t varying = 0, prefix = 0, state0 = 0;
};
struct SortInternals {
  static RadixUpfront upfront(const RadixSort& s, uint64_t n, BufferView temp, uint32_t begin_bit,
                              uint32_t end_bit);
  static RadixTempLayout layout(const RadixSort& s, uint64_t n, bool pairs);
  // Reduce-then-scan's offsets pass alone (radix_offsets.comp), for its test: `totals` holds
  // 256 * groups u32 (digit-major), `digits` tuning::kRadixCountStripes * 256 u32 (the digit
  // counts in stripes by group), `offsets` receives 256 * groups u32 (wide: u64, the
  // radix_offsets_*_wide build, for objects created with testing::SortKnobs::wide_offsets).
  static Status record_offsets(const RadixSort& s, VkCommandBuffer cmd, BufferView totals, BufferView digits,
                               BufferView offsets, uint32_t groups, bool wide = false);
  // sort_pairs_counted's checks with the same arguments, for a caller that records work of its
  // own before the sort: made first, they leave a refused call's command buffer untouched.
  static Status check_pairs_counted(const RadixSort& s, BufferView keys_in, BufferView values_in,
                                    BufferView keys_out, BufferView values_out, uint64_t n,
                                    BufferView temp, uint32_t begin_bit, uint32_t end_bit);
  // sort_pairs for n (host) keys whose upfront count (over the same bits) is already in temp.
  static Status sort_pairs_counted(const RadixSort& s, VkCommandBuffer cmd, BufferView keys_in,
                                   BufferView values_in, BufferView keys_out,
                                   BufferView values_out, uint64_t n, BufferView temp,
                                   uint32_t begin_bit, uint32_t end_bit);
};

inline constexpr uint32_t kRadixHistogramPushBytes = sizeof(RadixHistogramPush);
inline constexpr uint32_t kRadixUpsweepPushBytes = sizeof(RadixUpsweepPush);
inline constexpr uint32_t kRadixOffsetsPushBytes = sizeof(RadixOffsetsPush);
inline constexpr uint32_t kRadixDownsweepPushBytes = sizeof(RadixDownsweepPush);
inline constexpr uint32_t kRadixOnesweepPushBytes = sizeof(RadixOnesweepPush);

}  // namespace vkprim::detail
