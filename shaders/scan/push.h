// Push constants of the scan and reduce passes, for their shaders and engine/scan/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_SCAN_TILES)
VKPRIM_PUSH_BEGIN(ScanTilesPush)    // scan_tiles.comp
  VKPRIM_PUSH_U64(in_addr, 0)       // n values of T
  VKPRIM_PUSH_U64(out_addr, 8)      // n values of T (never the input: in-place scans use
                                    // reduce-then-scan)
  VKPRIM_PUSH_U64(heads_addr, 16)   // segmented scans: n u32 head flags; 0 otherwise
  VKPRIM_PUSH_U64(state_addr, 24)   // tile state, zeroed (common/tile_state.glsl)
  VKPRIM_PUSH_U64(count_addr, 32)   // nonzero: the element count is read there (device_count),
                                    // not n
  VKPRIM_PUSH_U64(n, 40)
  VKPRIM_PUSH_U32(flags, 48)        // bit 0: exclusive; bit 1: in/out/heads are 16-byte aligned
VKPRIM_PUSH_END(ScanTilesPush, 56)
#endif

#if defined(__cplusplus) || defined(PUSH_REDUCE_TILES)
VKPRIM_PUSH_BEGIN(ReduceTilesPush)  // reduce_tiles.comp
  VKPRIM_PUSH_U64(in_addr, 0)
  VKPRIM_PUSH_U64(heads_addr, 8)    // segmented ops: u32 head flags; 0 otherwise
  VKPRIM_PUSH_U64(partials_addr, 16)  // `groups` aggregates, AGG_WORDS words each
  VKPRIM_PUSH_U64(count_addr, 24)   // nonzero: the element count is read there (device_count)
  VKPRIM_PUSH_U64(n, 32)
  VKPRIM_PUSH_U32(groups, 40)
  VKPRIM_PUSH_U32(flags, 44)        // bit 1: in/heads 16-byte aligned
VKPRIM_PUSH_END(ReduceTilesPush, 48)
#endif

#if defined(__cplusplus) || defined(PUSH_SCAN_PARTIALS)
VKPRIM_PUSH_BEGIN(ScanPartialsPush)  // scan_partials.comp
  VKPRIM_PUSH_U64(partials_addr, 0)
  VKPRIM_PUSH_U64(total_addr, 8)
  VKPRIM_PUSH_U32(groups, 16)
VKPRIM_PUSH_END(ScanPartialsPush, 24)
#endif

#if defined(__cplusplus) || defined(PUSH_SCAN_RANGES)
VKPRIM_PUSH_BEGIN(ScanRangesPush)   // scan_ranges.comp
  VKPRIM_PUSH_U64(in_addr, 0)
  VKPRIM_PUSH_U64(out_addr, 8)
  VKPRIM_PUSH_U64(heads_addr, 16)
  VKPRIM_PUSH_U64(partials_addr, 24)
  VKPRIM_PUSH_U64(count_addr, 32)
  VKPRIM_PUSH_U64(n, 40)
  VKPRIM_PUSH_U32(groups, 48)
  VKPRIM_PUSH_U32(flags, 52)        // bit 0: exclusive; bit 1: in/out/heads 16-byte aligned
VKPRIM_PUSH_END(ScanRangesPush, 56)
#endif

#if defined(__cplusplus) || defined(PUSH_SEGMENT_HEADS)
VKPRIM_PUSH_BEGIN(SegmentHeadsPush)  // segment_heads.comp
  VKPRIM_PUSH_U64(offsets_addr, 0)  // n offsets, u32 or u64 (flags bit 0)
  VKPRIM_PUSH_U64(heads_addr, 8)    // len u32 flags
  VKPRIM_PUSH_U64(len, 16)
  VKPRIM_PUSH_U32(flags, 24)
  VKPRIM_PUSH_U32(n, 28)
VKPRIM_PUSH_END(SegmentHeadsPush, 32)
#endif

#ifdef __cplusplus
}  // namespace vkprim::detail
#endif
