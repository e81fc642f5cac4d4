#version 460
#extension GL_GOOGLE_include_directive : require
// dst[idx[i]] = src[i] for i < n, elements of WORDS 32-bit words (1 or 2).
// An index >= dst_n is skipped: never an out-of-bounds write. With repeated indices one of
// the writers wins, unspecified which.
#include "vkprim.glsl"

#if WORDS == 1
#define ELEM uint
#define ElemBuf U32Buf
#else
#define ELEM uvec2
#define ElemBuf U32x2Buf
#endif

layout(push_constant) uniform Push {
  ElemBuf src;
  U32Buf idx;
  ElemBuf dst;
  uint64_t dst_n;
  uint n;
} pc;

void main() {
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    const uint base = tile * tile_items + gl_LocalInvocationID.x;
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = base + k * WG_SIZE;
      if (i < pc.n) {
        const uint j = pc.idx.v[i];
        if (uint64_t(j) < pc.dst_n) pc.dst.v[j] = pc.src.v[i];
      }
    }
  }
}
