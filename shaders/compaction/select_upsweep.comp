#version 460
#extension GL_GOOGLE_include_directive : require
// Compaction, step 1 of 3 (count -> exclusive scan -> write at offset): each workgroup counts
// the selected elements of its tile (one tile per workgroup, 2-D grid) into counts[tile];
// tile 0 also zeroes counts[tiles], so the exclusive scan of tiles + 1 counts ends with the
// total. Tiles at or past a GPU-side count write 0. Unique-by-key also writes the u32 run-head
// flags that its segmented sum needs. Counts are u64 (their scan's totals may pass 2^32), as are
// the element count and indices.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "select.glsl"

#define PUSH_SELECT_UPSWEEP  // pc: push.h's SelectUpsweepPush
#include "push.h"

shared uint s_count;

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tile = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (tile >= pc.tiles) return;
  const uint64_t n = call_count(pc.count_addr, pc.n);
  if (lid == 0u) s_count = 0u;
  if (tile == 0u && lid == 0u) U64Buf(ELEM_ADDR(pc.counts_addr, pc.tiles, 8)).v[0] = 0ul;
  barrier();
  const uint64_t base = uint64_t(tile) * (WG_SIZE * ITEMS) + lid;
  uint mine = 0u;
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint64_t i = base + k * WG_SIZE;
    if (i < n) {
      const bool sel = select_test(pc.in_addr, pc.flags_addr, i, pc.mode, pc.op, pc.a, pc.b);
      mine += sel ? 1u : 0u;
      if (pc.heads_addr != 0ul) U32Buf(ELEM_ADDR(pc.heads_addr, i, 4)).v[0] = sel ? 1u : 0u;
    }
  }
  if (mine != 0u) atomicAdd(s_count, mine);
  barrier();
  if (lid == 0u) U64Buf(ELEM_ADDR(pc.counts_addr, tile, 8)).v[0] = uint64_t(s_count);
}
