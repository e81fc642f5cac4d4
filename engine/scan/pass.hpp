// Pass layer for scan and reduce: the push constants of shaders/scan/scan_tiles.comp,
// reduce_tiles.comp, scan_partials.comp, scan_ranges.comp and segment_heads.comp
// (shaders/scan/push.h, shared with the GLSL), and their flag bits.
#pragma once

#include "../../shaders/scan/push.h"

#include <vkprim/scan.hpp>

#include <cstddef>
#include <cstdint>

namespace vkprim::detail {

// The checks of a scan that another primitive records within its own call (the same checks,
// with the same arguments, as the recording call makes), so that the outer call makes them
// before it records anything: a refused call records nothing.
struct ScanInternals {
  // Scan::exclusive's (and inclusive's) checks.
  static Status check_exclusive(const Scan& s, BufferView in, BufferView out, const Count& n,
                                BufferView temp);
  // out[0] = the sum (the Scan's operator) of in[0, n) by the Scan's reduce passes, which every
  // Scan has: for callers that need a total and not the scan (partition's selected count).
  // check_reduce makes its checks alone, without recording.
  static Status check_reduce(const Scan& s, BufferView in, BufferView out, const Count& n,
                             BufferView temp);
  static Status reduce(const Scan& s, VkCommandBuffer cmd, BufferView in, BufferView out,
                       const Count& n, BufferView temp);
  // SegmentedScan::inclusive's (and exclusive's) checks.
  static Status check_inclusive(const SegmentedScan& s, BufferView in, BufferView heads,
                                BufferView out, const Count& n, BufferView temp);
};

// Flag bits shared by the scan passes.
inline constexpr uint32_t kScanExclusive = 1u;
inline constexpr uint32_t kScanAligned16 = 2u;

inline constexpr uint32_t kScanTilesPushBytes = sizeof(ScanTilesPush);
inline constexpr uint32_t kReduceTilesPushBytes = sizeof(ReduceTilesPush);
inline constexpr uint32_t kScanPartialsPushBytes = sizeof(ScanPartialsPush);
inline constexpr uint32_t kScanRangesPushBytes = sizeof(ScanRangesPush);
inline constexpr uint32_t kSegmentHeadsPushBytes = sizeof(SegmentHeadsPush);

}  // namespace vkprim::detail
