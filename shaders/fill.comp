#version 460
#extension GL_GOOGLE_include_directive : require
// dst[i] = value for i < n, WORD-sized elements (uint, uvec2 or uvec4).
#include "vkprim.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer Dst { WORD v[]; };

layout(push_constant) uniform Push {
  Dst dst;
  uvec4 value;  // the first components that WORD holds are used
  uint n;
} pc;

void main() {
  const WORD value = WORD(pc.value);
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    const uint base = tile * tile_items + gl_LocalInvocationID.x;
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = base + k * WG_SIZE;
      if (i < pc.n) pc.dst.v[i] = value;
    }
  }
}
