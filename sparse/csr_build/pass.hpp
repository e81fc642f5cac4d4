// Pass layer of the CSR build and the column split: the push constants of
// shaders/csr_build/csr_*.comp (shaders/csr_build/push.h, shared with the GLSL).
#pragma once

#include "../../shaders/csr_build/push.h"

#include <cstdint>

namespace vkprim::sparse::detail {

inline constexpr uint32_t kKeysPushBytes = sizeof(KeysPush);
inline constexpr uint32_t kCompactPushBytes = sizeof(CompactPush);
inline constexpr uint32_t kRowPtrPushBytes = sizeof(RowPtrPush);
inline constexpr uint32_t kExpandPushBytes = sizeof(ExpandPush);
inline constexpr uint32_t kSplitPushBytes = sizeof(SplitPush);

}  // namespace vkprim::sparse::detail
