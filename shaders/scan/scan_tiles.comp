#version 460
#extension GL_GOOGLE_include_directive : require
// Single-pass scan with decoupled look-back and decoupled fallback (common/tile_state.glsl).
// One tile per workgroup, its id from an atomic counter (so tile k's predecessors have all
// started): load, scan in registers and across the workgroup, publish the tile's aggregate,
// look back for the prefix of all earlier tiles, publish the inclusive prefix, write the tile.
// With the subgroup layer and a commutative operator the aggregate goes out first, before the
// scan (EARLY_AGGREGATE below).
// The dispatch may be 2-D (more tiles than maxComputeWorkGroupCount[0]); surplus workgroups
// exit at once.
// Tile arrangement:
//   SUBGROUP: subgroup-striped (common/subgroup_striped.glsl: coalesced 16-byte loads and
//     stores, no transposition). Each row of vectors is scanned across the subgroup, the
//     subgroup totals across the workgroup: its accesses are coalesced, which the blocked
//     arrangement's are not.
//   otherwise: blocked (tile_io.glsl), read and written straight from memory: a shared-memory
//     transposition to coalesce them costs this pass more than it saves.
#define TILE_IO_BLOCKED 1
#include "vkprim.glsl"
#include "value_type.glsl"
#include "agg.glsl"
#include "workgroup_scan.glsl"
// The form of the look-back's state read that keeps this pass at 64 registers for floats
// (common/tile_state.glsl, ts_read).
#if defined(VALUE_f32) || defined(VALUE_f64)
#define TS_READ_BY_HAND 1
#endif
#include "tile_state.glsl"
#include "tile_io.glsl"

#define PUSH_SCAN_TILES  // pc: push.h's ScanTilesPush
#include "push.h"

uint64_t g_n;

Agg reduce_tile_part(uint tile, uint part, uint parts) {
  const uint len = (TILE_ITEMS + parts - 1u) / parts;
  const uint64_t begin = uint64_t(tile) * TILE_ITEMS + uint64_t(part) * len;
  const uint64_t end = min(uint64_t(tile) * TILE_ITEMS + min((part + 1u) * len, TILE_ITEMS), g_n);
  Agg acc = agg_identity();
  for (uint64_t i = begin; i < end; ++i) acc = agg_combine(acc, load_agg(pc.in_addr, pc.heads_addr, i));
  return acc;
}

#if defined(SUBGROUP)
#include "subgroup_striped.glsl"

// This lane's items of the tile starting at `first` (vector j's elements are items
// j * T_PER_VEC4 ...); items past `valid` are the identity.
void sg_tile_load(uint64_t first, uint valid, bool aligned, out Agg items[ITEMS]) {
  if (valid == TILE_ITEMS && aligned) {
    U32x4Buf vin = U32x4Buf(pc.in_addr + first * T_SIZE);
    uvec4 v[VPI];
    [[unroll]] for (uint j = 0u; j < VPI; ++j) v[j] = vin.v[sg_element(j, 0u) / T_PER_VEC4];
    [[unroll]] for (uint j = 0u; j < VPI; ++j)
      [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e) items[j * T_PER_VEC4 + e] = agg_of(t_from_vec4(v[j], e), 0u);
    if (pc.heads_addr != 0ul) {  // the heads of a vector's elements: 4 (or 2) consecutive u32
      [[unroll]] for (uint j = 0u; j < VPI; ++j) {
        const uint vec = sg_element(j, 0u) / T_PER_VEC4;
#if T_PER_VEC4 == 4
        const uvec4 h = U32x4Buf(pc.heads_addr + first * 4ul).v[vec];
#else
        const uvec2 h = U32x2Buf(pc.heads_addr + first * 4ul).v[vec];
#endif
        [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e)
          items[j * T_PER_VEC4 + e] = agg_of(agg_value(items[j * T_PER_VEC4 + e]), h[e]);
      }
    }
  } else {
    [[unroll]] for (uint j = 0u; j < VPI; ++j)
      [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e) {
        const uint i = sg_element(j, e);
        items[j * T_PER_VEC4 + e] = i < valid ? load_agg(pc.in_addr, pc.heads_addr, first + i) : agg_identity();
      }
  }
}

// Writes the scanned items: `base` is the combination of everything before this subgroup's
// elements, lane_before[j] of this subgroup's elements before this lane's vector j.
void sg_tile_store_scan(uint64_t first, uint valid, bool aligned, bool exclusive, Agg base,
                        Agg lane_before[VPI], Agg items[ITEMS]) {
  const bool full = valid == TILE_ITEMS && aligned;
  [[unroll]] for (uint j = 0u; j < VPI; ++j) {
    Agg carry = agg_combine(base, lane_before[j]);
    T vals[T_PER_VEC4];
    [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e) {
      const Agg next = agg_combine(carry, items[j * T_PER_VEC4 + e]);
      vals[e] = exclusive ? agg_exclusive_value(carry, items[j * T_PER_VEC4 + e]) : agg_value(next);
      carry = next;
    }
    if (full) {
      uvec4 v = uvec4(0u);
      [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e) t_into_vec4(v, e, vals[e]);
      U32x4Buf(pc.out_addr + first * T_SIZE).v[sg_element(j, 0u) / T_PER_VEC4] = v;
    } else {
      [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e)
        if (sg_element(j, e) < valid) TBuf(pc.out_addr + first * T_SIZE).v[sg_element(j, e)] = vals[e];
    }
  }
}
#endif

shared uint s_tile;
#if defined(SUBGROUP) && defined(AGG_COMMUTATIVE)
// The tile's aggregate is published as soon as the tile is loaded, before its rows are scanned:
// successors' look-backs wait on it (and on inclusive prefixes, which follow the same chain).
// Each lane combines its own items (not in element order: hence commutative operators only),
// the subgroups' combinations go through shared memory, and invocation 0 publishes their
// combination, at no cost in registers. The inclusive prefix is still the look-back's
// result combined with the row scan's total; for floats the two differ by rounding only.
#define EARLY_AGGREGATE 1
shared Agg s_subgroup_agg[gl_WorkGroupSize.x / 4u];  // subgroups have 4 lanes or more
#endif

void main() {
  const uint lid = gl_LocalInvocationID.x;
  StateBuf st = StateBuf(pc.state_addr);
  g_n = call_count(pc.count_addr, pc.n);
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
  const bool publishes = look_back_publishes(tile);
#if defined(SUBGROUP)
  // Scan each row of vectors across the subgroup, then the subgroup totals. Kept inline: as a
  // helper function taking the arrays, the same code compiles to more registers a thread (80
  // instead of 64 on NVIDIA: three workgroups an SM instead of four).
  Agg items[ITEMS];
  sg_tile_load(first, valid, aligned, items);
#if defined(EARLY_AGGREGATE)
  {
    const Agg s = subgroup_reduce(thread_reduce(items));
    if (gl_SubgroupInvocationID == 0u) s_subgroup_agg[gl_SubgroupID] = s;
    barrier();
    if (lid == 0u && tile != 0u && publishes) {
      Agg t = s_subgroup_agg[0];
      for (uint i = 1u; i < gl_NumSubgroups; ++i) t = agg_combine(t, s_subgroup_agg[i]);
      ts_publish(st, tile, 0u, t);
    }
  }
#endif
  Agg lane_before[VPI];  // this subgroup's elements before vector j of this lane
  Agg subgroup_total = agg_identity();
  [[unroll]] for (uint j = 0u; j < VPI; ++j) {
    Agg a = items[j * T_PER_VEC4];
    [[unroll]] for (uint e = 1u; e < T_PER_VEC4; ++e) a = agg_combine(a, items[j * T_PER_VEC4 + e]);
    Agg row_total;
    lane_before[j] = agg_combine(subgroup_total, subgroup_exclusive_total(a, row_total));
    subgroup_total = agg_combine(subgroup_total, row_total);
  }
  Agg tile_total;
  const Agg subgroup_before = workgroup_scan_subgroup_totals(subgroup_total, tile_total);
#else
  // Scan in registers, then across the workgroup.
  Agg items[ITEMS];
  Agg tile_total;
  tile_load(pc.in_addr, pc.heads_addr, first, valid, aligned, items);
  const Agg thread_prefix = workgroup_exclusive_scan(thread_reduce(items), tile_total);
#endif

#if defined(EARLY_AGGREGATE)
  // The aggregate is out already (tile 0 publishes its total as its inclusive prefix instead).
  // Written out here rather than through helpers in tile_state.glsl: tile_exclusive_prefix split
  // into a publish and a look-back function (tile 0's total published early too) is slower.
  const Agg prefix = tile != 0u ? look_back(st, tile, SPIN_LIMIT, tile_total, publishes)
                                : tile_exclusive_prefix(st, tile, tile_total, SPIN_LIMIT, publishes);
#else
  const Agg prefix = tile_exclusive_prefix(st, tile, tile_total, SPIN_LIMIT, publishes);
#endif

#if defined(SUBGROUP)
  sg_tile_store_scan(first, valid, aligned, exclusive, agg_combine(prefix, subgroup_before), lane_before, items);
#else
  tile_store_scan(pc.out_addr, first, valid, aligned, exclusive, agg_combine(prefix, thread_prefix), items);
#endif
}
