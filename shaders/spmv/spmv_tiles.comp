#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV pass 2: y = alpha * A * x + beta * y by a segmented sum of each tile's products, one
// tile per workgroup, over either partition (spmv_partition.comp):
//   * merge-path tiles (Merrill & Garland SC16, CUB's AgentSpmv): TILE = WG_SIZE * ITEMS merge
//     items, row ends and nonzeros together, so a tile holds at most TILE of each whatever the
//     rows' lengths, empty rows included;
//   * fixed nonzero tiles (flag bit 2): nonzeros [t * TILE, (t + 1) * TILE), aligned, so full
//     tiles load 4 entries at once (flag bit 1: the host checked the arrays' alignment); the
//     rows ending in a tile are unbounded when rows are empty (SpmvAnalysis chooses this
//     partition only for matrices without empty rows).
// Tile t writes the rows whose end lies in it, coords[t] .. coords[t + 1] - 1, and holds the
// nonzeros k0 .. k1 - 1. Per tile:
//   1. invocation lid loads the ITEMS consecutive nonzeros lid * ITEMS .. of the tile, all of
//      their column, value and row-span loads before any x gather, and all gathers before any
//      use (so ITEMS gathers are in flight, not one round trip after another);
//   2. every non-empty row marks its last nonzero in a bitmask in shared memory. Row spans
//      come in batches of ROW_SLOTS * WG_SIZE rows, one row per slot of each invocation, every
//      load of a batch issued before any is used; the first batch is loaded with the nonzeros
//      (step 1) and kept in registers for step 4, later batches (tiles of many short rows) are
//      loaded again there (trip counts uniform);
//   3. each invocation sums its products serially, a marked nonzero closing the running sum;
//      the invocations' (open sum, saw an end) pairs meet in a workgroup exclusive scan with
//      Blelloch's segmented-sum operator (common/agg.glsl, OP_segsum), which gives each
//      invocation the partial sum of the row open at its first nonzero;
//   4. each row's sum is left in shared memory at its last nonzero; the invocation that loaded
//      the row's span writes y (coalesced; a row without nonzeros here gets alpha * 0 + beta y).
// Rows that cross tile boundaries are finished without float atomics (spmv_fixup.comp): the
// tile writes the partial sum of the row still open at its end (`carry`, head flag = the tile
// saw a row end) and, when its first row began in an earlier tile, that row's partial sum in
// this tile (`head`, fix flag) instead of writing y. Every y element has exactly one writer and
// every sum a fixed order, so results are bit-identical from run to run.
// COMPLEX build: values, x and y complex (common/spmv_value.glsl), products complex; the
// segmented scan of step 3 runs once per part (the same heads), and carry and head are stored
// split by part: the real parts of all tiles, then the imaginary parts (2 * tiles T), so that
// the carries' segmented scan runs on plain T arrays. No vector loads.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "agg.glsl"
#include "workgroup_scan.glsl"
#include "csr.glsl"
#include "spmv_value.glsl"

#define PUSH_SPMV_TILES  // pc: push.h's SpmvTilesPush
#include "push.h"

#if T_SIZE == 4
#define T4 vec4
#else
#define T4 dvec4
#endif
layout(buffer_reference, std430, buffer_reference_align = T_SIZE * 4) buffer Val4Buf { T4 v[]; };

#define TILE (WG_SIZE * ITEMS)
#if ITEMS > 16
#error "spmv_tiles: at most 16 items per invocation (one invocation's bits of s_end in a word)"
#endif
// Row spans per invocation per batch: 4 x 256 rows cover a nonzero tile of rows of 2 entries
// (TILE / 2), so that a tile of short rows takes its row pointers in independent loads, not
// one span per invocation and a loop of dependent loads for the rest.
#define ROW_SLOTS 4u
#define ROW_BATCH (ROW_SLOTS * WG_SIZE)
shared V s_sum[gl_WorkGroupSize.x * ITEMS];        // a row's sum at its last nonzero
shared uint s_end[gl_WorkGroupSize.x * ITEMS / 32];  // bit i: nonzero i ends a row

// Stores v as tile t's element of a per-tile array (carry, head): T, or split by part.
void store_split(uint64_t base, uint t, V v) {
#if defined(COMPLEX)
  TBuf(base + uint64_t(t) * T_SIZE).v[0] = v.x;
  TBuf(base + (uint64_t(pc.tiles) + uint64_t(t)) * T_SIZE).v[0] = v.y;
#else
  TBuf(base + uint64_t(t) * T_SIZE).v[0] = v;
#endif
}

void store_y(uint row, V sum) {
  VBuf yb = VBuf(pc.y_addr + uint64_t(row) * V_SIZE);
  const T alpha = T_FROM_BITS(pc.alpha_bits);
  if ((pc.flags & 1u) != 0u) {
    yb.v[0] = alpha * sum;
  } else {
    const T beta = T_FROM_BITS(pc.beta_bits);
    yb.v[0] = alpha * sum + beta * yb.v[0];
  }
}

// Row r's end and start as offsets into the tile that starts at nonzero k0, both clamped to 0
// (a merge-path tile's first row can have ended before it, with its end item still to come).
uvec2 row_span(uint r, uint64_t k0) {
  const uint64_t e = row_ptr_at(pc.row_ptr_addr, uint64_t(r) + 1ul);
  const uint64_t s = row_ptr_at(pc.row_ptr_addr, uint64_t(r));
  return uvec2(e > k0 ? uint(e - k0) : 0u, s > k0 ? uint(s - k0) : 0u);
}

// The spans of rows base + lid + j * WG_SIZE of the tile (slot j), (0, 0) past its rows.
void load_spans(uint base, uint n_rows, uint r0, uint64_t k0, out uvec2 spans[ROW_SLOTS]) {
  [[unroll]] for (uint j = 0u; j < ROW_SLOTS; ++j) {
    const uint i = base + gl_LocalInvocationID.x + j * WG_SIZE;
    spans[j] = i < n_rows ? row_span(r0 + i, k0) : uvec2(0u);
  }
}

// Marks a non-empty row's last nonzero.
void mark_end(uvec2 span) {
  if (span.x > span.y) atomicOr(s_end[(span.x - 1u) >> 5], 1u << ((span.x - 1u) & 31u));
}

// A row's sum in this tile: 0 when it has no nonzero here.
V row_sum(uvec2 span) { return span.x > span.y ? s_sum[span.x - 1u] : V(0); }

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (tile >= pc.tiles) return;  // surplus workgroups of a 2-D grid: the whole group leaves

  const uint r0 = U32Buf(pc.coords_addr + uint64_t(tile) * 4ul).v[0];
  const uint r1 = U32Buf(pc.coords_addr + uint64_t(tile + 1u) * 4ul).v[0];
  uint64_t k0, k1;
  if ((pc.flags & 4u) != 0u) {
    k0 = uint64_t(tile) * TILE;
    k1 = min(k0 + TILE, pc.nnz);
  } else {  // merge items [d0, d1): rows r0 .. r1 - 1 end there, the rest are nonzeros
    const uint64_t d0 = uint64_t(tile) * TILE;
    const uint64_t d1 = min(d0 + TILE, uint64_t(pc.rows) + pc.nnz);
    k0 = d0 - r0;
    k1 = d1 - r1;
  }
  const uint n_nz = k1 > k0 ? uint(k1 - k0) : 0u;
  const uint n_rows = r1 - r0;
  if (lid < TILE / 32u) s_end[lid] = 0u;

  // 1. Loads: columns, values and the first WG_SIZE row spans, then the x gathers.
  const uint first = lid * ITEMS;
  uint col[ITEMS];
  V val[ITEMS];
#if !defined(COMPLEX)
  if (n_nz == TILE && (pc.flags & 2u) != 0u) {
    [[unroll]] for (uint v = 0u; v < ITEMS / 4u; ++v) {
      const uint64_t k = k0 + first + v * 4u;
      const uvec4 c = U32x4Buf(pc.col_addr + k * 4ul).v[0];
      const T4 a = Val4Buf(pc.val_addr + k * T_SIZE).v[0];
      [[unroll]] for (uint j = 0u; j < 4u; ++j) {
        col[v * 4u + j] = c[j];
        val[v * 4u + j] = a[j];
      }
    }
  } else
#endif
  {
    [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
      col[s] = 0xFFFFFFFFu;
      val[s] = V(0);
      if (first + s < n_nz) {
        col[s] = U32Buf(pc.col_addr + (k0 + first + s) * 4ul).v[0];
        val[s] = VBuf(pc.val_addr + (k0 + first + s) * V_SIZE).v[0];
      }
    }
  }
  uvec2 spans[ROW_SLOTS];  // the first batch of rows
  load_spans(0u, n_rows, r0, k0, spans);
  // Batches of rows: computed in 64 bits (n_rows + ROW_BATCH - 1 may not fit in 32).
  const uint batches = uint((uint64_t(n_rows) + ROW_BATCH - 1u) / ROW_BATCH);
  V prod[ITEMS];
  [[unroll]] for (uint s = 0u; s < ITEMS; ++s)
    prod[s] = col[s] < pc.cols ? V_MUL(val[s], VBuf(pc.x_addr + uint64_t(col[s]) * V_SIZE).v[0])
                               : V(0);

  // 2. Row ends into the bitmask (zeroed above), batch by batch.
  barrier();
  [[unroll]] for (uint j = 0u; j < ROW_SLOTS; ++j) mark_end(spans[j]);
  for (uint b = 1u; b < batches; ++b) {
    uvec2 more[ROW_SLOTS];
    load_spans(b * ROW_BATCH, n_rows, r0, k0, more);
    [[unroll]] for (uint j = 0u; j < ROW_SLOTS; ++j) mark_end(more[j]);
  }
  barrier();

  // 3. Serial segmented sums, then the workgroup's segmented scan.
  const uint bits = (s_end[first >> 5] >> (first & 31u)) & ((1u << ITEMS) - 1u);
  V run = V(0);
  [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
    run += prod[s];
    if ((bits & (1u << s)) != 0u) run = V(0);
  }
#if defined(COMPLEX)
  Agg total_re, total_im;
  const Agg before_re = workgroup_exclusive_scan(Agg(run.x, bits != 0u ? 1u : 0u), total_re);
  const Agg before_im = workgroup_exclusive_scan(Agg(run.y, bits != 0u ? 1u : 0u), total_im);
  const V before_v = V(before_re.v, before_im.v), tile_total_v = V(total_re.v, total_im.v);
#else
  Agg tile_total;
  const Agg before = workgroup_exclusive_scan(Agg(run, bits != 0u ? 1u : 0u), tile_total);
  const V before_v = before.v, tile_total_v = tile_total.v;
#endif

  // 4. Row sums at their last nonzero, then y.
  {
    V acc = before_v;
    [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
      acc += prod[s];
      if ((bits & (1u << s)) != 0u) {
        s_sum[first + s] = acc;
        acc = V(0);
      }
    }
  }
  barrier();
  // The tile's first row, when it began in an earlier tile, is left to the fix-up pass with
  // its partial sum in this tile.
  const bool first_row_continues =
      tile > 0u && n_rows > 0u && row_ptr_at(pc.row_ptr_addr, uint64_t(r0)) < k0;
  [[unroll]] for (uint j = 0u; j < ROW_SLOTS; ++j) {
    const uint i = lid + j * WG_SIZE;
    if (i < n_rows) {
      if (i == 0u && first_row_continues)
        store_split(pc.head_addr, tile, row_sum(spans[j]));
      else
        store_y(r0 + i, row_sum(spans[j]));
    }
  }
  for (uint b = 1u; b < batches; ++b) {
    load_spans(b * ROW_BATCH, n_rows, r0, k0, spans);
    [[unroll]] for (uint j = 0u; j < ROW_SLOTS; ++j) {
      const uint i = b * ROW_BATCH + lid + j * WG_SIZE;
      if (i < n_rows) store_y(r0 + i, row_sum(spans[j]));
    }
  }
  if (lid == 0u) {
    store_split(pc.carry_addr, tile, tile_total_v);
    U32Buf(pc.carry_head_addr + uint64_t(tile) * 4ul).v[0] = n_rows > 0u ? 1u : 0u;
    U32Buf(pc.fix_addr + uint64_t(tile) * 4ul).v[0] = first_row_continues ? 1u : 0u;
  }
}
