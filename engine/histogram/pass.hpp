// Pass layer for the histogram: its push constants (shaders/histogram/push.h, shared with the
// GLSL).
#pragma once

#include "../../shaders/histogram/push.h"

#include <cstdint>

namespace vkprim::detail {

inline constexpr uint32_t kHistogramPushBytes = sizeof(HistogramPush);

}  // namespace vkprim::detail
