// Summed-area table policy: the row pass's tile and the column pass's chunks.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace vkprim::detail::tuning {

// Rows: 256 invocations x 8 elements per chunk; at most this many workgroups, each taking rows
// grid-stride (rows beyond fill them again).
inline constexpr uint32_t kSatRowWorkgroup = 256;
inline constexpr uint32_t kSatRowItems = 8;
inline constexpr uint32_t kSatRowGroups = 65535;
// Columns: 256 invocations, one (column, chunk) each. Phases 0 and 2 walk a chunk's rows, phase
// 1 a column's chunks, each one by one: about sqrt(height) chunks of about sqrt(height) rows
// balances the two walks, with at least enough chunks for kSatColumnJobs invocations and at
// most kSatMaxChunks.
inline constexpr uint32_t kSatColumnWorkgroup = 256;
inline constexpr uint64_t kSatColumnJobs = uint64_t(1) << 16;
inline constexpr uint64_t kSatMaxChunks = 4096;

struct SatChunks {
  uint64_t rows = 1;    // rows per chunk
  uint64_t chunks = 1;  // chunks, the last one possibly shorter
};
inline uint64_t ceil_sqrt(uint64_t v) {
  uint64_t r = uint64_t(std::sqrt(double(v)));
  while (r > 0 && r * r >= v) --r;  // the double's rounding, either way
  while (r * r < v) ++r;
  return r;
}
// The column pass's chunks of a width x height table (width, height >= 1).
inline SatChunks sat_chunks(uint64_t width, uint64_t height) {
  const uint64_t wanted = std::min(std::max(ceil_sqrt(height), (kSatColumnJobs + width - 1) / width),
                                   std::min(height, kSatMaxChunks));
  const uint64_t rows = (height + wanted - 1) / wanted;
  return {rows, (height + rows - 1) / rows};
}

}  // namespace vkprim::detail::tuning
