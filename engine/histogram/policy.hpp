// Histogram policy: grid, tile and the shared-memory privatization bound.
#pragma once

#include <cstdint>

namespace vkprim::detail::tuning {

// Histogram: grid-stride over tiles of 256 x 16 samples, at most this many workgroups (each
// flushes its private bins once); bins privatized in shared memory up to this many bytes.
inline constexpr uint32_t kHistogramWorkgroup = 256;
inline constexpr uint32_t kHistogramItems = 16;
inline constexpr uint32_t kHistogramGroups = 1024;
inline constexpr uint32_t kHistogramSharedBytes = 24 * 1024;
}  // namespace vkprim::detail::tuning
