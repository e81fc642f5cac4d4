#version 460
#extension GL_GOOGLE_include_directive : require
// Compaction in one pass (select by flags or predicate, unique): the single-pass scan's
// protocol (common/tile_state.glsl: decoupled look-back with decoupled fallback, tile ids from a
// counter) carrying the number selected instead of a value.
//
// One tile of WG_SIZE x ITEMS elements per workgroup; ranks stay stable (tile order).
//   SUBGROUP: subgroup-striped, as the single-pass scan (common/subgroup_striped.glsl; element
//     by element for a partial or unaligned tile). A lane keeps one selection bit per item; the
//     subgroup totals are summed across the workgroup, and after the look-back a subgroup
//     exclusive sum per row of vectors ranks the lanes' counts. A lane's selected elements of
//     one vector go to consecutive outputs, the lanes of a row one after another. (Staging them
//     in shared memory to write them out by consecutive invocations costs more than the
//     coalescing gains.)
//   otherwise (no subgroup operations): read striped (element e of the tile is item e / WG_SIZE
//     of invocation e % WG_SIZE); each selected element sets its bit in a tile bitmask in shared
//     memory; invocation i counts the bits of the blocked run [i * ITEMS, (i + 1) * ITEMS); one
//     workgroup exclusive scan of those counts (common/counts_scan.glsl) gives every run its
//     offset, and an element's rank in the tile is its run's offset plus the set bits before it
//     in its run.
// The last tile writes the total to count_out (u32 or u64); with n == 0, tile 0 writes 0.
// Counts past what one dispatch covers run as chunks (engine/compaction/compaction.cpp): each chunk
// starts its outputs after the earlier chunks' total (base_addr), and in unique mode (opts bit 4)
// compares its first element with the one before it.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "select.glsl"
#include "counts_scan.glsl"

#define PUSH_SELECT_TILES  // pc: push.h's SelectTilesPush
#include "push.h"

#if defined(SUBGROUP)
#extension GL_KHR_shader_subgroup_ballot : require
#endif

#define TILE (WG_SIZE * ITEMS)
uint g_n;

#include "count_state.glsl"

// Fallback: the number selected in part `part` of `parts` equal slices of tile `tile`.
uint reduce_tile_part(uint tile, uint part, uint parts) {
  const uint len = (TILE + parts - 1u) / parts;
  const uint64_t begin = uint64_t(tile) * TILE + uint64_t(part) * len;
  const uint64_t end = min(uint64_t(tile) * TILE + min((part + 1u) * len, TILE), uint64_t(g_n));
  uint c = 0u;
  for (uint64_t i = begin; i < end; ++i)
    c += select_test(pc.in_addr, pc.flags_addr, uint(i), pc.mode, pc.op, pc.a, pc.b) ? 1u : 0u;
  return c;
}

shared uint s_tile;

#if defined(SUBGROUP)
#include "subgroup_striped.glsl"
#else
#include "tile_bitmask.glsl"       // bit e: element e of the tile is selected
shared uint s_run_offset[WG_SIZE]; // selected elements of the tile before run i
#endif

void main() {
  const uint lid = gl_LocalInvocationID.x;
  StateBuf st = StateBuf(pc.state_addr);
  // dispatch_count (vkprim.glsl) written out: through the helper, at the same registers, the
  // pass is slightly slower.
  g_n = pc.n;
  if (pc.count_addr != 0ul) {
    const uint64_t c = device_count(pc.count_addr, pc.count_first + pc.n);
    g_n = c > pc.count_first ? uint(c - pc.count_first) : 0u;
  }
  g_select_continued = (pc.opts & 16u) != 0u;
  const uint tiles = uint((uint64_t(g_n) + TILE - 1u) / TILE);

  if (lid == 0u) s_tile = atomicAdd(st.w[0], 1u);
#if !defined(SUBGROUP)
  for (uint w = lid; w < TILE / 32u; w += WG_SIZE) s_bits[w] = 0u;
#endif
  barrier();
  const uint tile = UNIFORM(s_tile);
  if (tile >= max(tiles, 1u)) return;

  const uint64_t first = uint64_t(tile) * TILE;
  // Every element's value is loaded up front, selected or not (a selected one is written after
  // the look-back without another trip to memory; at any useful selection rate every sector of
  // the input is needed anyway).
  // The tile's input and, after the look-back, its output (from the tile's first selected
  // element on) are indexed within the tile (vkprim.glsl).
  TBuf src = TBuf(ELEM_ADDR(pc.in_addr, first, T_SIZE));
  T x[ITEMS];
#if defined(SUBGROUP)
  if (first + TILE <= uint64_t(g_n) && (pc.opts & 8u) != 0u) {
    U32x4Buf vin = U32x4Buf(ELEM_ADDR(pc.in_addr, first, T_SIZE));
    [[unroll]] for (uint j = 0u; j < VPI; ++j) {
      const uvec4 v = vin.v[sg_element(j, 0u) / T_PER_VEC4];
      [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e) x[j * T_PER_VEC4 + e] = t_from_vec4(v, e);
    }
  } else {
    [[unroll]] for (uint j = 0u; j < VPI; ++j)
      [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e) {
        const uint e_ = sg_element(j, e);
        x[j * T_PER_VEC4 + e] = first + e_ < g_n ? src.v[e_] : T(0);
      }
  }
  // Bit k of `selected`: item k is selected (ITEMS <= 32: plan-checked). A selection bit per
  // item instead of a bool, and the ranks of a lane's vectors summed again after the look-back
  // instead of kept across it, take 48 registers at 32 items on NVIDIA where bools take 80.
  // Items are bounded by their 32-bit position in the tile, not by a 64-bit element index (no
  // 64-bit compare per item).
  uint selected = 0u;
  const uint valid = uint(min(uint64_t(g_n) - first, uint64_t(TILE)));
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint e = sg_element(k / T_PER_VEC4, k % T_PER_VEC4);
    if (e < valid && select_test_value(x[k], pc.in_addr, pc.flags_addr, uint(first) + e, pc.mode,
                                       pc.op, pc.a, pc.b))
      selected |= 1u << k;
  }
  const uint subgroup_count = subgroupAdd(bitCount(selected));
  // Lane 0 of each subgroup contributes its subgroup's count: its exclusive sum is the count of
  // the subgroups before.
  uvec2 tile_total;
  const uint subgroup_before = subgroupBroadcastFirst(
      counts_exclusive_scan(uvec2(gl_SubgroupInvocationID == 0u ? subgroup_count : 0u, 0u), tile_total).x);
#else
  bool sel[ITEMS];
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint e = k * WG_SIZE + lid;
    x[k] = first + e < g_n ? src.v[e] : T(0);
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint e = k * WG_SIZE + lid;
    const uint64_t i = first + e;
    sel[k] = i < g_n && select_test_value(x[k], pc.in_addr, pc.flags_addr, uint(i), pc.mode, pc.op, pc.a, pc.b);
    if (sel[k]) atomicOr(s_bits[e >> 5u], 1u << (e & 31u));
  }
  barrier();
  // Runs of ITEMS elements (ITEMS divides 32 or is a multiple of it: plan-checked).
  const uint run_count = bits_in_run(lid * ITEMS, ITEMS);
  uvec2 tile_total;
  s_run_offset[lid] = counts_exclusive_scan(uvec2(run_count, 0u), tile_total).x;
#endif
  const uint tile_count = tile_total.x;

  const bool publishes = look_back_publishes(tile);
  const uint prefix = tile_exclusive_prefix(st, tile, tile_count, SPIN_LIMIT, publishes);
  barrier();  // s_run_offset is visible (the look-back's barriers do not run for tile 0)

  const uint64_t base = pc.base_addr != 0ul ? U64Buf(pc.base_addr).v[0] : 0ul;
  TBuf dst = TBuf(ELEM_ADDR(pc.out_addr, base + prefix, T_SIZE));
#if defined(PARTITION)
  // The tile's element at position p with `at` selected before it in the tile goes to
  // rejected.v[p - at] (its index less the selected before it, after all the selected). A build
  // of its own: in select's, the rejected elements' code would raise select to 80 registers
  // where its own takes 48. It still tests partition_total at run time: written for the
  // preprocessor alone, it loses the device on NVIDIA's driver 580.159.04 (writes past the
  // output), a failure not understood.
  // With the rejected elements reversed (opts bit 5), partition_total holds the call's element
  // count instead (its maximum with a count on the GPU), and rejected element i goes to
  // out[count - 1 - (i - selected before i)]: rejected.v[TILE - 1 - (p - at)] below, from a base
  // TILE - 1 elements lower (no total to wait for: select's single pass alone).
  const bool partitioning = pc.partition_total != 0ul;
  const bool reversed = (pc.opts & 32u) != 0u;
  const uint rev = reversed ? TILE - 1u : 0u;
  const uint64_t rejected_before = pc.count_first + first - (base + prefix);
  uint64_t rejected_at = 0ul;
  if (partitioning) {
    if (reversed) {
      const uint64_t count = pc.count_addr != 0ul ? device_count(pc.count_addr, pc.partition_total) : pc.partition_total;
      rejected_at = count - uint64_t(TILE) - rejected_before;
    } else {
      rejected_at = U64Buf(pc.partition_total).v[0] + rejected_before;
    }
  }
  TBuf rejected = TBuf(ELEM_ADDR(pc.out_addr, rejected_at, T_SIZE));
#endif
#if defined(SUBGROUP)
  uint row_base = subgroup_before;  // the tile's selected elements before this subgroup's row j
  [[unroll]] for (uint j = 0u; j < VPI; ++j) {
    const uint bits = bitfieldExtract(selected, int(j * T_PER_VEC4), int(T_PER_VEC4));
    uint at = row_base + subgroupExclusiveAdd(bitCount(bits));
    row_base += subgroupAdd(bitCount(bits));
    [[unroll]] for (uint e = 0u; e < T_PER_VEC4; ++e) {
#if defined(PARTITION)
      const uint p = sg_element(j, e);
      if ((bits & (1u << e)) != 0u) dst.v[at++] = x[j * T_PER_VEC4 + e];
      else if (partitioning && p < valid) rejected.v[reversed ? rev - (p - at) : p - at] = x[j * T_PER_VEC4 + e];
#else
      if ((bits & (1u << e)) != 0u) dst.v[at++] = x[j * T_PER_VEC4 + e];
#endif
    }
  }
#else
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint e = k * WG_SIZE + lid;
#if defined(PARTITION)
    if (sel[k] || (partitioning && first + e < g_n)) {
      const uint at = s_run_offset[e / ITEMS] + bits_before_in_run(e, ITEMS);
      if (sel[k]) dst.v[at] = x[k];
      else rejected.v[reversed ? rev - (e - at) : e - at] = x[k];
    }
#else
    if (sel[k]) dst.v[s_run_offset[e / ITEMS] + bits_before_in_run(e, ITEMS)] = x[k];
#endif
  }
#endif
  if (tile == max(tiles, 1u) - 1u && lid == 0u) {
    const uint64_t total = base + prefix + tile_count;
    if ((pc.opts & 2u) != 0u) U64Buf(pc.count_out).v[0] = total;
    else U32Buf(pc.count_out).v[0] = uint(total);
  }
}
