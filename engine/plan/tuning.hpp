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

}  // namespace vkprim::detail::tuning
