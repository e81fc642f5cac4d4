// Summed-area table policy: the row pass's tile and the column pass's chunks.
#pragma once

#include <algorithm>
#include <cstdint>

namespace vkprim::detail::tuning {

// Rows: 256 invocations x 4 elements per chunk; at most this many workgroups, each taking rows
// grid-stride (rows beyond fill them again).
inline constexpr uint32_t kSatRowWorkgroup = 256;
inline constexpr uint32_t kSatRowItems = 4;
inline constexpr uint32_t kSatRowGroups = 65535;
// Columns: 256 invocations, one (column, chunk) each. The rows are cut into enough chunks for
// about kSatColumnJobs invocations, and at most kSatMaxChunks (phase 1 walks them one by one).
inline constexpr uint32_t kSatColumnWorkgroup = 256;
inline constexpr uint64_t kSatColumnJobs = uint64_t(1) << 16;
inline constexpr uint64_t kSatMaxChunks = 4096;

struct SatChunks {
  uint64_t rows = 1;    // rows per chunk
  uint64_t chunks = 1;  // chunks, the last one possibly shorter
};
// The column pass's chunks of a width x height table (width, height >= 1).
constexpr SatChunks sat_chunks(uint64_t width, uint64_t height) {
  const uint64_t wanted = std::clamp<uint64_t>((kSatColumnJobs + width - 1) / width, 1, std::min(height, kSatMaxChunks));
  const uint64_t rows = (height + wanted - 1) / wanted;
  return {rows, (height + rows - 1) / rows};
}

}  // namespace vkprim::detail::tuning
