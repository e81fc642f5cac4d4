// Tuning parameters, kept apart from the algorithms (CUB's policy tables). One entry per pass;
// values chosen for bandwidth on desktop GPUs and harmless on lavapipe.
#pragma once

#include <cstdint>

namespace vkprim::detail::tuning {

struct Elementwise {
  uint32_t workgroup_size;
  uint32_t items;  // per invocation
};

inline constexpr Elementwise kCopyVec4{256, 4};   // 16 KiB per workgroup tile
inline constexpr Elementwise kCopyScalar{256, 4};
inline constexpr Elementwise kFill{256, 4};
inline constexpr Elementwise kMap{256, 4};
inline constexpr Elementwise kGatherScatter{256, 4};

// Scan and reduce: 256 invocations; items per invocation by aggregate size (registers), a
// multiple of 4 (16-byte loads of T and of u32 head flags). Compiled into the shaders as
// FIXED_ITEMS: shaders/CMakeLists.txt computes the same table.
inline constexpr uint32_t kScanWorkgroup = 256;
constexpr uint32_t scan_items(uint32_t agg_words) { return agg_words == 1 ? 16 : agg_words == 2 ? 8 : 4; }
// Whether scans use the subgroup layer on a device that has it. NVIDIA devices use the
// shared-memory layer: it is the path measured and recorded on an H100 (2^28 u32 exclusive scan,
// single pass, 1.27 ms; docs/benchmarks.md). The comparison with the subgroup layer taken there
// was confounded by GPU clocks dropping between benchmark steps (the harness now warms up for
// 250 ms), so it has to be measured again before this rule changes.
constexpr bool scan_prefers_subgroup_ops(uint32_t vendor_id) { return vendor_id != 0x10DE; }

// Reduce-then-scan and reduce split the tiles into at most this many contiguous ranges.
inline constexpr uint32_t kRangeGroups = 1024;
// Look-back re-reads of a predecessor that has not published before doing its work.
inline constexpr uint32_t kSpinLimit = 256;


// Radix sort (reduce-then-scan per 8-bit digit): tiles of 256 invocations x 16 keys, or x 8
// where shared memory is under 24 KiB (the ranking holds one u32 per key of the tile). The
// upfront histogram visits tiles grid-stride with at most kRadixHistogramGroups workgroups.
inline constexpr uint32_t kRadixWorkgroup = 256;
inline constexpr uint32_t kRadixItems = 16;
inline constexpr uint32_t kRadixItemsSmallShared = 8;
inline constexpr uint32_t kRadixHistogramItems = 16;
inline constexpr uint32_t kRadixHistogramGroups = 2048;


// Compaction: one tile of 256 invocations x 16 elements per workgroup in both passes.
inline constexpr uint32_t kSelectWorkgroup = 256;
inline constexpr uint32_t kSelectItems = 16;
// Histogram: grid-stride over tiles of 256 x 16 samples, at most this many workgroups (each
// flushes its private bins once); bins privatized in shared memory up to this many bytes.
inline constexpr uint32_t kHistogramWorkgroup = 256;
inline constexpr uint32_t kHistogramItems = 16;
inline constexpr uint32_t kHistogramGroups = 1024;
inline constexpr uint32_t kHistogramSharedBytes = 24 * 1024;

}  // namespace vkprim::detail::tuning
