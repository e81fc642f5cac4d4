#version 460
#extension GL_GOOGLE_include_directive : require
// Pass 3 of reduce-then-scan: workgroup g scans its range of tiles in order, starting from the
// exclusive prefix of the ranges before it (partials[g] after scan_partials). Each tile is read
// and written by the same invocations, so the output may be the input (in place).
#include "vkprim.glsl"
#include "value_type.glsl"
#include "agg.glsl"
#include "workgroup_scan.glsl"
#include "tile_io.glsl"
#include "ranges.glsl"

#define PUSH_SCAN_RANGES  // pc: push.h's ScanRangesPush
#include "push.h"

void main() {
  const uint64_t n = call_count(pc.count_addr, pc.n);
  const uint tiles = uint((n + TILE_ITEMS - 1) / TILE_ITEMS);
  const uvec2 range = tile_range(gl_WorkGroupID.x, pc.groups, tiles);
  const bool exclusive = (pc.flags & 1u) != 0u;
  const bool aligned = (pc.flags & 2u) != 0u;
  Agg prefix = load_agg_words(pc.partials_addr, gl_WorkGroupID.x);
  Agg items[ITEMS];
  for (uint t = range.x; t < range.y; ++t) {
    const uint64_t first = uint64_t(t) * TILE_ITEMS;
    const uint valid = uint(min(n - first, uint64_t(TILE_ITEMS)));
    Agg tile_total;
    tile_load(pc.in_addr, pc.heads_addr, first, valid, aligned, items);
    const Agg thread_prefix = workgroup_exclusive_scan(thread_reduce(items), tile_total);
    tile_store_scan(pc.out_addr, first, valid, aligned, exclusive, agg_combine(prefix, thread_prefix), items);
    prefix = agg_combine(prefix, tile_total);
  }
}
