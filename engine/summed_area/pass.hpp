// Pass layer for the summed-area table: its push constants (shaders/summed_area/push.h, shared
// with the GLSL).
#pragma once

#include "../../shaders/summed_area/push.h"

#include <cstdint>

namespace vkprim::detail {

inline constexpr uint32_t kSatRowsPushBytes = sizeof(SatRowsPush);
inline constexpr uint32_t kSatColumnsPushBytes = sizeof(SatColumnsPush);
inline constexpr uint32_t kSatWidenPushBytes = sizeof(SatWidenPush);

}  // namespace vkprim::detail
