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
// multiple of 4 (16-byte loads of T and of u32 head flags).
inline constexpr uint32_t kScanWorkgroup = 256;
constexpr uint32_t scan_items(uint32_t agg_words) { return agg_words == 1 ? 16 : agg_words == 2 ? 8 : 4; }
// Reduce-then-scan and reduce split the tiles into at most this many contiguous ranges.
inline constexpr uint32_t kRangeGroups = 1024;
// Look-back re-reads of a predecessor that has not published before doing its work.
inline constexpr uint32_t kSpinLimit = 256;

}  // namespace vkprim::detail::tuning
