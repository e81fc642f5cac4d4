#version 460
#extension GL_GOOGLE_include_directive : require
// dst[i] = src[i] for i < n, WORD-sized elements (uint or uvec4). The copy shader is the
// bandwidth yardstick of every benchmark: it moves each byte once in, once out.
#include "vkprim.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Src { WORD v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer Dst { WORD v[]; };

#define PUSH_COPY  // pc: push.h's CopyPush
#include "push.h"

void main() {
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  const uint lid = gl_LocalInvocationID.x;
  FOR_EACH_TILE(tile, tiles) {
    const uint first = tile * tile_items;  // the tile's references, then indices within it
    Src src = Src(ELEM_ADDR(pc.src, first, WORD_SIZE));
    Dst dst = Dst(ELEM_ADDR(pc.dst, first, WORD_SIZE));
    if (first + lid + (ITEMS - 1) * WG_SIZE < pc.n) {
      WORD r[ITEMS];  // full tile: all loads in flight before the stores
      [[unroll]] for (uint k = 0; k < ITEMS; ++k) r[k] = src.v[lid + k * WG_SIZE];
      [[unroll]] for (uint k = 0; k < ITEMS; ++k) dst.v[lid + k * WG_SIZE] = r[k];
    } else {
      [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
        const uint i = lid + k * WG_SIZE;
        if (first + i < pc.n) dst.v[i] = src.v[i];
      }
    }
  }
}
