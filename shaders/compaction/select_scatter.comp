#version 460
#extension GL_GOOGLE_include_directive : require
// Unique-by-key, step 3 of 3: each workgroup re-evaluates the selection (run heads) of its tile
// (invocation i holds elements [i * ITEMS, (i + 1) * ITEMS) of it), ranks the selected ones by
// a workgroup exclusive scan of the per-invocation counts (common/counts_scan.glsl), and writes
// them at offsets[tile] + rank: stable. It writes the run's key at its head and the run's sum
// (values_in: a segmented inclusive sum) from its last element.
// Tile 0 writes the total (offsets[tiles]) to count_out as a u32 or u64. Offsets, ranks and
// element indices are 64-bit (counts past 2^32).
#include "vkprim.glsl"
#include "value_type.glsl"
#include "select.glsl"
#include "counts_scan.glsl"

#define PUSH_SELECT_SCATTER  // pc: push.h's SelectScatterPush
#include "push.h"

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tile = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (tile >= pc.tiles) return;
  const uint64_t n = call_count(pc.count_addr, pc.n);
  const uint64_t total = U64Buf(ELEM_ADDR(pc.offsets_addr, pc.tiles, 8)).v[0];
  if (tile == 0u && lid == 0u) {
    if ((pc.opts & 2u) != 0u) U64Buf(pc.count_out).v[0] = total;
    else U32Buf(pc.count_out).v[0] = uint(total);
  }
  const uint64_t first = uint64_t(tile) * (WG_SIZE * ITEMS);
  if (first >= n) return;

  const uint64_t mine = first + lid * ITEMS;
  bool sel[ITEMS];
  uint c = 0u;
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint64_t i = mine + k;
    sel[k] = i < n && select_test(pc.in_addr, pc.flags_addr, i, pc.mode, pc.op, pc.a, pc.b);
    c += sel[k] ? 1u : 0u;
  }
  uvec2 tile_total;
  uint64_t rank = U64Buf(ELEM_ADDR(pc.offsets_addr, tile, 8)).v[0] +
                  uint64_t(counts_exclusive_scan(uvec2(c, 0u), tile_total).x);

  // Elements by their 64-bit addresses (vkprim.glsl): ranks and indices span the whole arrays.
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint64_t i = mine + k;
    if (i >= n) break;
    const T xi = TBuf(ELEM_ADDR(pc.in_addr, i, T_SIZE)).v[0];
    if (sel[k]) TBuf(ELEM_ADDR(pc.out_addr, rank, T_SIZE)).v[0] = xi;
    if (pc.values_in != 0ul) {
      // The last element of a run: its run is the one whose head was counted last.
      const bool tail = i + 1ul == n || T_BITS(TBuf(ELEM_ADDR(pc.in_addr, i + 1ul, T_SIZE)).v[0]) != T_BITS(xi);
      const uint64_t run = rank + (sel[k] ? 1ul : 0ul) - 1ul;
      if (tail) {
        if ((pc.opts & 4u) != 0u)
          U32x2Buf(ELEM_ADDR(pc.values_out, run, 8)).v[0] = U32x2Buf(ELEM_ADDR(pc.values_in, i, 8)).v[0];
        else
          U32Buf(ELEM_ADDR(pc.values_out, run, 4)).v[0] = U32Buf(ELEM_ADDR(pc.values_in, i, 4)).v[0];
      }
    }
    rank += sel[k] ? 1ul : 0ul;
  }
}
