#version 460
#extension GL_GOOGLE_include_directive : require
// Pass 1 of reduce and of reduce-then-scan: workgroup g reduces its contiguous range of tiles
// (scan/ranges.glsl) into partials[g], in a fixed order.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "agg.glsl"
#include "workgroup_scan.glsl"
#include "tile_io.glsl"
#include "ranges.glsl"

#define PUSH_REDUCE_TILES  // pc: push.h's ReduceTilesPush
#include "push.h"

void main() {
  const uint64_t n = call_count(pc.count_addr, pc.n);
  const uint tiles = uint((n + TILE_ITEMS - 1) / TILE_ITEMS);
  const uvec2 range = tile_range(gl_WorkGroupID.x, pc.groups, tiles);
  const bool aligned = (pc.flags & 2u) != 0u;
  Agg items[ITEMS];
#if defined(OP_segsum)
  // Not commutative: combine whole tiles in order.
  Agg acc = agg_identity();
  for (uint t = range.x; t < range.y; ++t) {
    const uint64_t first = uint64_t(t) * TILE_ITEMS;
    tile_load(pc.in_addr, pc.heads_addr, first, uint(min(n - first, uint64_t(TILE_ITEMS))), aligned, items);
    acc = agg_combine(acc, workgroup_reduce(thread_reduce(items)));
  }
#else
  // Commutative: each invocation accumulates its items of every tile (coalesced striped loads),
  // then one reduction.
  Agg mine = agg_identity();
  for (uint t = range.x; t < range.y; ++t) {
    const uint64_t first = uint64_t(t) * TILE_ITEMS;
    mine = agg_combine(mine, tile_reduce_striped(pc.in_addr, pc.heads_addr, first, uint(min(n - first, uint64_t(TILE_ITEMS))), aligned));
  }
  const Agg acc = workgroup_reduce(mine);
#endif
  if (gl_LocalInvocationID.x == 0u) store_agg_words(pc.partials_addr, gl_WorkGroupID.x, acc);
}
