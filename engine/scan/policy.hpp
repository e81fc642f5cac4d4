// Scan and reduce policy: tile shapes, the subgroup-layer choice and the look-back bound.
#pragma once

#include <cstdint>

#include "elementwise/policy.hpp"

namespace vkprim::detail::tuning {

// Scan and reduce: 256 invocations; items per invocation by aggregate size (registers), a
// multiple of 4 (16-byte loads of T and of u32 head flags). Compiled into the shaders as
// FIXED_ITEMS: shaders/CMakeLists.txt computes the same table.
inline constexpr uint32_t kScanWorkgroup = 256;
// The segmented scans' head-flag pass (segment_heads.comp): an element-wise grid.
inline constexpr Elementwise kSegmentHeads{256, 4};
constexpr uint32_t scan_items(uint32_t agg_words) { return agg_words == 1 ? 16 : agg_words == 2 ? 8 : 4; }
// The single pass (scan_tiles) in the subgroup layer: 32 items for one-word aggregates, tiles of
// 8192, which halve the look-back chain of 16 items' tiles. The shared-memory layer and the
// reduce-then-scan passes keep scan_items: they run slower with 32 items.
constexpr uint32_t scan_single_pass_items(uint32_t agg_words, bool subgroup) {
  return subgroup && agg_words == 1 ? 32 : scan_items(agg_words);
}
// The single pass's workgroup: 512 invocations for aggregates of two or more words (segmented
// scans, 8-byte values, compensated sums: 8 or 4 items per invocation), so that the look-back
// chain has half as many tiles; 256 for one-word aggregates (32 items: tiles of 8192 already).
// At most the device's limit.
constexpr uint32_t scan_single_pass_workgroup(uint32_t agg_words) {
  return agg_words >= 2 ? 2 * kScanWorkgroup : kScanWorkgroup;
}
// Whether scans use the subgroup layer on a device that has it: everywhere but for 8-byte values
// on NVIDIA (vendor 0x10DE), whose shared-memory layer scans them faster than subgroup-striped
// tiles do; for 4-byte values the subgroup-striped tiles (scan_tiles.comp) are the faster.
constexpr bool scan_prefers_subgroup_ops(uint32_t vendor_id, uint32_t value_bytes) {
  return vendor_id != 0x10DE || value_bytes < 8;
}

// Reduce-then-scan and reduce split the tiles into at most this many contiguous ranges.
inline constexpr uint32_t kRangeGroups = 1024;
// Look-back re-reads of a predecessor that has not published before doing its work.
inline constexpr uint32_t kSpinLimit = 256;
}  // namespace vkprim::detail::tuning
