// Pass layer for scan and reduce: push-constant blocks mirroring shaders/scan/scan_tiles.comp,
// reduce_tiles.comp, scan_partials.comp, scan_ranges.comp and segment_heads.comp.
#pragma once

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
  // SegmentedScan::inclusive's (and exclusive's) checks.
  static Status check_inclusive(const SegmentedScan& s, BufferView in, BufferView heads,
                                BufferView out, const Count& n, BufferView temp);
};

struct ScanTilesPush {
  uint64_t in, out, heads, state, count, n;
  uint32_t flags, spin_limit, stall_period;
};
static_assert(offsetof(ScanTilesPush, flags) == 48 && offsetof(ScanTilesPush, stall_period) == 56);

struct ReduceTilesPush {
  uint64_t in, heads, partials, count, n;
  uint32_t groups, flags;
};
static_assert(offsetof(ReduceTilesPush, groups) == 40);

struct ScanPartialsPush {
  uint64_t partials, total;
  uint32_t groups;
};
static_assert(offsetof(ScanPartialsPush, groups) == 16);

struct ScanRangesPush {
  uint64_t in, out, heads, partials, count, n;
  uint32_t groups, flags;
};
static_assert(offsetof(ScanRangesPush, groups) == 48);

struct SegmentHeadsPush {
  uint64_t offsets, heads, len;
  uint32_t flags, n;
};
static_assert(offsetof(SegmentHeadsPush, n) == 28);

// Flag bits shared by the scan passes.
inline constexpr uint32_t kScanExclusive = 1u;
inline constexpr uint32_t kScanAligned16 = 2u;

// Bytes actually pushed: up to the end of the last member the shader declares.
inline constexpr uint32_t kScanTilesPushBytes = 60;
inline constexpr uint32_t kReduceTilesPushBytes = 48;
inline constexpr uint32_t kScanPartialsPushBytes = 20;
inline constexpr uint32_t kScanRangesPushBytes = 56;
inline constexpr uint32_t kSegmentHeadsPushBytes = 32;

}  // namespace vkprim::detail
