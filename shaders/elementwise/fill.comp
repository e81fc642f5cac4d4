#version 460
#extension GL_GOOGLE_include_directive : require
// dst[i] = value for i < n, WORD-sized elements (uint, uvec2 or uvec4).
#include "vkprim.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer Dst { WORD v[]; };

#define PUSH_FILL  // pc: push.h's FillPush
#include "push.h"

void main() {
  const WORD value = WORD(pc.value);
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    const uint first = tile * tile_items;
    Dst dst = Dst(ELEM_ADDR(pc.dst, first, WORD_SIZE));  // indices within the tile (vkprim.glsl)
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = gl_LocalInvocationID.x + k * WG_SIZE;
      if (first + i < pc.n) dst.v[i] = value;
    }
  }
}
