// Pass layer for compaction: the push constants of shaders/compaction/select_upsweep.comp,
// select_scatter.comp, select_tiles.comp and select_total.comp (shaders/compaction/push.h,
// shared with the GLSL), and their modes and option bits.
#pragma once

#include "../../shaders/compaction/push.h"

#include <cstdint>

namespace vkprim::detail {

// compaction/select.glsl modes; select_scatter option bits.
inline constexpr uint32_t kSelectFlagged = 0u;
inline constexpr uint32_t kSelectPredicate = 1u;
inline constexpr uint32_t kSelectUnique = 2u;
inline constexpr uint32_t kSelectCountU64 = 2u;
inline constexpr uint32_t kSelectValues64 = 4u;
inline constexpr uint32_t kSelectAligned = 8u;  // select_tiles: input (and flags) 16-byte aligned
inline constexpr uint32_t kSelectContinued = 16u;  // select_tiles: a chunk after the first (unique)
inline constexpr uint32_t kSelectRejectedReversed = 32u;  // select_tiles: partition, PartitionOrder::rejected_reversed

inline constexpr uint32_t kSelectUpsweepPushBytes = sizeof(SelectUpsweepPush);
inline constexpr uint32_t kSelectScatterPushBytes = sizeof(SelectScatterPush);
inline constexpr uint32_t kSelectTilesPushBytes = sizeof(SelectTilesPush);
inline constexpr uint32_t kSelectTotalPushBytes = sizeof(SelectTotalPush);

}  // namespace vkprim::detail
