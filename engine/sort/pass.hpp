// Pass layer for radix sort: push-constant blocks mirroring shaders/sort/radix_histogram.comp,
// radix_upsweep.comp, radix_downsweep.comp and radix_onesweep.comp, and SortInternals, the
// entry points of the library's own passes that do a sort's upfront count themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vkprim/sort.hpp>

namespace vkprim::detail {

// Both builds of radix_histogram.comp: radix_histogram_k* and radix_varying_k* (hist unused).
struct RadixHistogramPush {
  uint64_t keys, hist, varying, count, count_first;
  uint32_t n, begin_bit, end_bit, passes;
};
static_assert(offsetof(RadixHistogramPush, n) == 40 && offsetof(RadixHistogramPush, passes) == 52);

// n_hi: bits 32-63 of the key count (read by the *_wide builds, sorts of 2^32 keys and more).
struct RadixUpsweepPush {
  uint64_t keys, varying, prefix, totals, digits, count;
  uint32_t n, tiles, shift, bits, stripes, n_hi;
};
static_assert(offsetof(RadixUpsweepPush, n) == 48 && offsetof(RadixUpsweepPush, n_hi) == 68);

struct RadixOffsetsPush {
  uint64_t totals, digits, offsets;
  uint32_t groups, stripes, rows;
};
static_assert(offsetof(RadixOffsetsPush, rows) == 32);

struct RadixDownsweepPush {
  uint64_t keys_in, keys_out, values_in, values_out, varying, prefix, offsets, count;
  uint32_t n, tiles, shift, bits, copy, group_tiles, n_hi;
};
static_assert(offsetof(RadixDownsweepPush, n) == 64 && offsetof(RadixDownsweepPush, n_hi) == 88);

struct RadixOnesweepPush {
  uint64_t keys_in, keys_out, values_in, values_out, hist, varying, state, clear, count;
  uint32_t n, tiles, shift, bits, pass, spin_limit, stall_period, stall_counts, guess_offset;
};
static_assert(offsetof(RadixOnesweepPush, n) == 72 &&
              offsetof(RadixOnesweepPush, guess_offset) == 104);

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
  // radix_offsets_*_wide build, for objects created with SortOptions::debug_wide_offsets).
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

inline constexpr uint32_t kRadixHistogramPushBytes = 56;
inline constexpr uint32_t kRadixUpsweepPushBytes = 72;
inline constexpr uint32_t kRadixOffsetsPushBytes = 36;
inline constexpr uint32_t kRadixDownsweepPushBytes = 92;
inline constexpr uint32_t kRadixOnesweepPushBytes = 108;

}  // namespace vkprim::detail
