// Pass layer for gather and scatter: their push constants (shaders/gather_scatter/push.h, shared
// with the GLSL); they record through elementwise/pass.hpp's chunked dispatch.
#pragma once

#include "elementwise/pass.hpp"
#include "../../shaders/gather_scatter/push.h"
