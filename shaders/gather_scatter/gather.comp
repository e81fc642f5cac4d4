#version 460
#extension GL_GOOGLE_include_directive : require
// dst[i] = src[idx[i]] for i < n, elements of WORDS 32-bit words (1 or 2).
// An index >= src_n reads nothing and writes `fallback` instead: never an out-of-bounds access.
#include "vkprim.glsl"

#if WORDS == 1
#define ELEM uint
#define ElemBuf U32Buf
#define ELEM_SIZE 4
#else
#define ELEM uvec2
#define ElemBuf U32x2Buf
#define ELEM_SIZE 8
#endif

#define PUSH_GATHER  // pc: push.h's GatherPush
#include "push.h"

void main() {
  const ELEM fallback = ELEM(pc.fallback.xyxy);
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    // The tile's index and output references, indexed within the tile; src element j by its
    // 64-bit address (vkprim.glsl).
    const uint first = tile * tile_items;
    U32Buf idx = U32Buf(ELEM_ADDR(pc.idx, first, 4));
    ElemBuf dst = ElemBuf(ELEM_ADDR(pc.dst, first, ELEM_SIZE));
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = gl_LocalInvocationID.x + k * WG_SIZE;
      if (first + i < pc.n) {
        const uint j = idx.v[i];
        dst.v[i] = uint64_t(j) < pc.src_n ? ElemBuf(ELEM_ADDR(pc.src, j, ELEM_SIZE)).v[0] : fallback;
      }
    }
  }
}
