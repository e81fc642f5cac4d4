#version 460
#extension GL_GOOGLE_include_directive : require
// Single-pass scan with decoupled look-back and decoupled fallback (common/tile_state.glsl).
// One tile per workgroup, its id from an atomic counter (so tile k's predecessors have all
// started): load, scan in registers and across the workgroup, publish the tile's aggregate,
// look back for the prefix of all earlier tiles, publish the inclusive prefix, write the tile.
// The dispatch may be 2-D (more tiles than maxComputeWorkGroupCount[0]); surplus workgroups
// exit at once.
// Full tiles are read and written blocked straight from memory (tile_io.glsl), which measured
// faster here than the shared-memory transposition that the reduce-then-scan ranges pass uses
// (H100, 2^28 u32: 1.33 vs 2.13 ms); SCAN_TILES_TRANSPOSE builds the transposing variant.
#if !defined(SCAN_TILES_TRANSPOSE)
#define TILE_IO_BLOCKED 1
#endif
#include "vkprim.glsl"
#include "value_type.glsl"
#include "agg.glsl"
#include "workgroup_scan.glsl"
#include "tile_state.glsl"
#include "tile_io.glsl"

layout(push_constant) uniform Push {
  uint64_t in_addr;     // n values of T
  uint64_t out_addr;    // n values of T (never the input: in-place scans use reduce-then-scan)
  uint64_t heads_addr;  // segmented scans: n u32 head flags; 0 otherwise
  uint64_t state_addr;  // tile state, zeroed (tile_state.glsl)
  uint64_t count_addr;  // nonzero: the element count is the u32 at this address, not n
  uint64_t n;
  uint flags;           // bit 0: exclusive; bit 1: in/out/heads are 16-byte aligned
  uint spin_limit;      // look-back re-reads of a stalled predecessor before falling back
  uint stall_period;    // testing: tiles with id % period == period - 1 never publish (0: off)
} pc;

uint64_t g_n;

Agg reduce_tile_part(uint tile, uint part, uint parts) {
  const uint len = (TILE_ITEMS + parts - 1u) / parts;
  const uint64_t begin = uint64_t(tile) * TILE_ITEMS + uint64_t(part) * len;
  const uint64_t end = min(uint64_t(tile) * TILE_ITEMS + min((part + 1u) * len, TILE_ITEMS), g_n);
  Agg acc = agg_identity();
  for (uint64_t i = begin; i < end; ++i) acc = agg_combine(acc, load_agg(pc.in_addr, pc.heads_addr, i));
  return acc;
}

shared uint s_tile;

void main() {
  const uint lid = gl_LocalInvocationID.x;
  StateBuf st = StateBuf(pc.state_addr);
  g_n = pc.count_addr != 0ul ? uint64_t(U32Buf(pc.count_addr).v[0]) : pc.n;
  const uint tiles = uint((g_n + TILE_ITEMS - 1) / TILE_ITEMS);
  const bool exclusive = (pc.flags & 1u) != 0u;
  const bool aligned = (pc.flags & 2u) != 0u;

  if (lid == 0u) s_tile = atomicAdd(st.w[0], 1u);
  barrier();
  const uint tile = UNIFORM(s_tile);
  barrier();
  if (tile >= tiles) return;

  const uint64_t first = uint64_t(tile) * TILE_ITEMS;
  const uint valid = uint(min(g_n - first, uint64_t(TILE_ITEMS)));
  // Scan in registers, then across the workgroup.
  Agg items[ITEMS];
  Agg tile_total;
  tile_load(pc.in_addr, pc.heads_addr, first, valid, aligned, items);
  const Agg thread_prefix = workgroup_exclusive_scan(thread_reduce(items), tile_total);

  const bool publishes = pc.stall_period == 0u || tile % pc.stall_period != pc.stall_period - 1u;
  Agg prefix = agg_identity();
  if (tile == 0u) {
    if (lid == 0u && publishes) ts_publish(st, 0u, 1u, tile_total);
  } else {
    if (lid == 0u && publishes) ts_publish(st, tile, 0u, tile_total);
    prefix = look_back(st, tile, pc.spin_limit);
    if (lid == 0u && publishes) ts_publish(st, tile, 1u, agg_combine(prefix, tile_total));
  }

  tile_store_scan(pc.out_addr, first, valid, aligned, exclusive, agg_combine(prefix, thread_prefix), items);
}
