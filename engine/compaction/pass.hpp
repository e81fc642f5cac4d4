// Pass layer for compaction and histogram: push-constant blocks mirroring
// shaders/compaction/select_upsweep.comp, select_scatter.comp, select_tiles.comp, select_total.comp and histogram_even.comp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vkprim::detail {

// Partition and unique-by-key count, scan (u64) and scatter with 64-bit element counts.
struct SelectUpsweepPush {
  uint64_t in, flags, counts, count, heads, n;
  uint32_t tiles, mode, op, pad;
  uint64_t a, b;
};
static_assert(offsetof(SelectUpsweepPush, n) == 40 && offsetof(SelectUpsweepPush, a) == 64);

struct SelectScatterPush {
  uint64_t in, flags, out, offsets, count_out, count, values_in, values_out, n;
  uint32_t tiles, mode, op, opts;
  uint64_t a, b;
};
static_assert(offsetof(SelectScatterPush, n) == 64 && offsetof(SelectScatterPush, opts) == 84 &&
              offsetof(SelectScatterPush, b) == 96);

struct SelectTilesPush {
  uint64_t in, flags, out, state, count_out, count;
  uint32_t n, mode, op, opts;
  uint64_t a, b;
  uint32_t spin_limit, stall_period;
  uint64_t base;         // nonzero: address of the u64 number selected by the chunks before
  uint64_t count_first;  // this chunk's first element
  uint64_t partition_total;  // partition: address of the u64 number selected (else 0)
};
static_assert(offsetof(SelectTilesPush, n) == 48 && offsetof(SelectTilesPush, a) == 64 &&
              offsetof(SelectTilesPush, stall_period) == 84 && offsetof(SelectTilesPush, base) == 88 &&
              offsetof(SelectTilesPush, count_first) == 96 && offsetof(SelectTilesPush, partition_total) == 104);

struct SelectTotalPush {
  uint64_t counts, offsets, total, scratch, count, n;
  uint32_t stage, total_u64;
};
static_assert(offsetof(SelectTotalPush, n) == 40 && offsetof(SelectTotalPush, total_u64) == 52);

struct HistogramPush {
  uint64_t samples, hist, count, count_first;
  uint32_t n, bins, lower, upper, scale;
};
static_assert(offsetof(HistogramPush, n) == 32 && offsetof(HistogramPush, scale) == 48);

// compaction/select.glsl modes; select_scatter option bits.
inline constexpr uint32_t kSelectFlagged = 0u;
inline constexpr uint32_t kSelectPredicate = 1u;
inline constexpr uint32_t kSelectUnique = 2u;
inline constexpr uint32_t kSelectCountU64 = 2u;
inline constexpr uint32_t kSelectValues64 = 4u;
inline constexpr uint32_t kSelectAligned = 8u;  // select_tiles: input (and flags) 16-byte aligned
inline constexpr uint32_t kSelectContinued = 16u;  // select_tiles: a chunk after the first (unique)

inline constexpr uint32_t kSelectUpsweepPushBytes = 80;
inline constexpr uint32_t kSelectScatterPushBytes = 104;
inline constexpr uint32_t kSelectTilesPushBytes = 112;
inline constexpr uint32_t kSelectTotalPushBytes = 56;
inline constexpr uint32_t kHistogramPushBytes = 52;

}  // namespace vkprim::detail
