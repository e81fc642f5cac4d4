#version 460
#extension GL_GOOGLE_include_directive : require
// Segment offsets -> head flags: heads[offsets[i]] = 1 for i < n (the heads buffer is zeroed
// first). Offsets at or past `len` are ignored: never an out-of-bounds write.
#include "vkprim.glsl"

#define PUSH_SEGMENT_HEADS  // pc: push.h's SegmentHeadsPush
#include "push.h"

void main() {
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    const uint base = tile * tile_items + gl_LocalInvocationID.x;
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = base + k * WG_SIZE;
      if (i < pc.n) {
        const uint64_t o = (pc.flags & 1u) != 0u ? U64Buf(ELEM_ADDR(pc.offsets_addr, i, 8)).v[0]
                                                  : uint64_t(U32Buf(ELEM_ADDR(pc.offsets_addr, i, 4)).v[0]);
        if (o < pc.len) U32Buf(pc.heads_addr + o * 4ul).v[0] = 1u;
      }
    }
  }
}
