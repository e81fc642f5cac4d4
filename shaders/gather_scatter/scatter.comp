#version 460
#extension GL_GOOGLE_include_directive : require
// dst[idx[i]] = src[i] for i < n, elements of WORDS 32-bit words (1 or 2).
// An index >= dst_n is skipped: never an out-of-bounds write. With repeated indices one of
// the writers wins, unspecified which.
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

#define PUSH_SCATTER  // pc: push.h's ScatterPush
#include "push.h"

void main() {
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    // The tile's index and input references, indexed within the tile; dst element j by its
    // 64-bit address (vkprim.glsl).
    const uint first = tile * tile_items;
    U32Buf idx = U32Buf(ELEM_ADDR(pc.idx, first, 4));
    ElemBuf src = ElemBuf(ELEM_ADDR(pc.src, first, ELEM_SIZE));
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = gl_LocalInvocationID.x + k * WG_SIZE;
      if (first + i < pc.n) {
        const uint j = idx.v[i];
        if (uint64_t(j) < pc.dst_n) ElemBuf(ELEM_ADDR(pc.dst, j, ELEM_SIZE)).v[0] = src.v[i];
      }
    }
  }
}
