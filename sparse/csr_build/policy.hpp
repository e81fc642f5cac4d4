// CSR build policy: the keys pass's grid (the sort it feeds keeps engine/sort/policy.hpp).
#pragma once

#include <cstdint>

namespace vkprim::detail::tuning {

// The keys pass, which counts for the sort as it makes the keys, visits tiles of
// 256 x 4 with at most this many workgroups: as in the upfront pass, each workgroup adds its
// counts by atomics, so an uncapped grid costs more in atomics than it gains.
inline constexpr uint32_t kCsrKeysGroups = 2048;

}  // namespace vkprim::detail::tuning
