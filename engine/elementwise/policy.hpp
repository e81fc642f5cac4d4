// Element-wise policy: workgroup shape of copy, fill and map (CUB's policy tables: tuning
// kept apart from the algorithm).
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
}  // namespace vkprim::detail::tuning
