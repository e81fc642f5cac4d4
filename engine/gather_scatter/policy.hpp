// Gather/scatter policy: workgroup shape of the index-driven moves.
#pragma once

#include "elementwise/policy.hpp"

namespace vkprim::detail::tuning {

inline constexpr Elementwise kGatherScatter{256, 4};
}  // namespace vkprim::detail::tuning
