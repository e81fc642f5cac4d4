#version 460
#extension GL_GOOGLE_include_directive : require
// dst[i] = src[idx[i]] for i < n, elements of WORDS 32-bit words (1 or 2).
// An index >= src_n reads nothing and writes `fallback` instead: never an out-of-bounds access.
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
  uint64_t src_n;
  uvec2 fallback;
  uint n;
} pc;

void main() {
  const ELEM fallback = ELEM(pc.fallback.xyxy);
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    const uint base = tile * tile_items + gl_LocalInvocationID.x;
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = base + k * WG_SIZE;
      if (i < pc.n) {
        const uint j = pc.idx.v[i];
        pc.dst.v[i] = uint64_t(j) < pc.src_n ? pc.src.v[j] : fallback;
      }
    }
  }
}
