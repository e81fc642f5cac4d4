#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV pass 2: y = alpha * A * x + beta * y over merge-path tiles (spmv_partition.comp),
// one tile per workgroup (Merrill & Garland SC16, CUB's AgentSpmv). Per tile:
//   1. stage the tile's products A[k] * x[col[k]] and its row end offsets in shared memory
//      (coalesced loads; every load bounds-checked);
//   2. each invocation finds its stretch of ITEMS merge items by a merge-path search in shared
//      memory and sums it serially: a row end closes the running sum;
//   3. the invocations' (running sum, saw a row end) pairs are combined by a workgroup
//      exclusive scan with Blelloch's segmented-sum operator (common/agg.glsl, OP_segsum), which
//      gives each invocation the partial sum of the row open at its first item;
//   4. each invocation walks its stretch again and writes y for the rows that end in it.
// Rows that cross tile boundaries are finished without float atomics (spmv_fixup.comp): the
// tile writes the partial sum of the row still open at its end (`carry`, head flag = the tile
// saw a row end) and, when its first row began in an earlier tile, that row's partial sum in
// this tile (`head`, fix flag) instead of writing y. Every y element has exactly one writer and
// every sum a fixed order, so results are bit-identical from run to run.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "agg.glsl"
#include "workgroup_scan.glsl"
#include "csr.glsl"

layout(push_constant) uniform Push {
  uint64_t row_ptr_addr;   // rows + 1
  uint64_t col_addr;       // nnz u32 column indices
  uint64_t val_addr;       // nnz T
  uint64_t x_addr;         // cols T
  uint64_t y_addr;         // rows T, read (unless beta == 0) and written
  uint64_t coords_addr;    // tiles + 1 u32 (spmv_partition.comp)
  uint64_t carry_addr;     // out: tiles T
  uint64_t carry_head_addr;// out: tiles u32
  uint64_t head_addr;      // out: tiles T
  uint64_t fix_addr;       // out: tiles u32
  uint64_t nnz;
  uint64_t alpha_bits;     // T's bit pattern
  uint64_t beta_bits;
  uint rows;
  uint cols;
  uint tiles;
  uint flags;              // bit 0: beta is zero (y is not read)
} pc;

#define TILE (WG_SIZE * ITEMS)
shared T s_nz[gl_WorkGroupSize.x * ITEMS];
shared uint s_row_end[gl_WorkGroupSize.x * ITEMS];

void store_y(uint row, T sum) {
  TBuf yb = TBuf(pc.y_addr + uint64_t(row) * T_SIZE);
  const T alpha = T_FROM_BITS(pc.alpha_bits);
  if ((pc.flags & 1u) != 0u) {
    yb.v[0] = alpha * sum;
  } else {
    const T beta = T_FROM_BITS(pc.beta_bits);
    yb.v[0] = alpha * sum + beta * yb.v[0];
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (tile >= pc.tiles) return;  // surplus workgroups of a 2-D grid: the whole group leaves

  const uint64_t total = uint64_t(pc.rows) + pc.nnz;
  const uint64_t d0 = uint64_t(tile) * TILE;
  const uint64_t d1 = min(d0 + TILE, total);
  const uint r0 = U32Buf(pc.coords_addr + uint64_t(tile) * 4ul).v[0];
  const uint r1 = U32Buf(pc.coords_addr + uint64_t(tile + 1u) * 4ul).v[0];
  const uint64_t k0 = d0 - r0;
  const uint64_t k1 = d1 - r1;
  const uint n_rows = r1 - r0;      // rows whose end lies in this tile: r0 .. r1 - 1
  const uint n_nz = uint(k1 - k0);  // nonzeros k0 .. k1 - 1

  // 1. Stage products and row ends (local offsets: row_ptr[r + 1] - k0, in [0, n_nz]). Both
  // counts are at most TILE, so ITEMS strided slots per invocation cover them. Every slot's
  // column, value and row-end loads are issued before any gather, so an invocation has ITEMS
  // gathers in flight, not one round trip after another (H100, powerlaw f64: 2.30 -> 1.42 ms
  // with ITEMS = 4, docs/benchmarks.md session 10).
  uint col_s[ITEMS];
  T val_s[ITEMS];
  uint end_s[ITEMS];
  [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
    const uint i = lid + s * WG_SIZE;
    col_s[s] = 0xFFFFFFFFu;
    val_s[s] = T(0);
    end_s[s] = 0u;
    if (i < n_nz) {
      col_s[s] = U32Buf(pc.col_addr + (k0 + i) * 4ul).v[0];
      val_s[s] = TBuf(pc.val_addr + (k0 + i) * T_SIZE).v[0];
    }
    if (i < n_rows) end_s[s] = uint(row_ptr_at(pc.row_ptr_addr, uint64_t(r0) + 1ul + i) - k0);
  }
  [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
    const uint i = lid + s * WG_SIZE;
    if (i < n_nz) {
      const uint c = col_s[s];
      s_nz[i] = c < pc.cols ? val_s[s] * TBuf(pc.x_addr + uint64_t(c) * T_SIZE).v[0] : T(0);
    }
    if (i < n_rows) s_row_end[i] = end_s[s];
  }
  barrier();

  // 2. This invocation's stretch of the tile's merge path.
  const uint tile_len = n_rows + n_nz;
  const uint diag = min(lid * ITEMS, tile_len);
  const uint steps = min(diag + ITEMS, tile_len) - diag;
  uint lo = diag > n_nz ? diag - n_nz : 0u;
  uint hi = min(diag, n_rows);
  while (lo < hi) {
    const uint pivot = (lo + hi) >> 1;
    if (s_row_end[pivot] <= diag - pivot - 1u)
      lo = pivot + 1u;
    else
      hi = pivot;
  }
  const uint i_start = lo;
  const uint j_start = diag - lo;

  // Loops run ITEMS times in every invocation (the trip count is uniform; `steps` guards).
  T run = T(0);
  uint ended = 0u;
  {
    uint i = i_start, j = j_start;
    [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
      if (s >= steps) {
      } else if (i < n_rows && s_row_end[i] <= j) {
        run = T(0);
        ended = 1u;
        ++i;
      } else {
        run += s_nz[j];
        ++j;
      }
    }
  }

  // 3. Segmented exclusive scan of the invocations' (sum, ended) pairs, in uniform control
  // flow (the barrier makes the reconvergence point explicit before any subgroup operation).
  barrier();
  Agg tile_total;
  const Agg before = workgroup_exclusive_scan(Agg(run, ended), tile_total);

  // 4. Write the rows that end here. The tile's first row, when it began in an earlier tile,
  // is left to the fix-up pass with its partial sum in this tile.
  const bool first_row_continues =
      tile > 0u && n_rows > 0u && row_ptr_at(pc.row_ptr_addr, uint64_t(r0)) < k0;
  {
    T acc = before.v;
    uint i = i_start, j = j_start;
    [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
      if (s >= steps) {
      } else if (i < n_rows && s_row_end[i] <= j) {
        if (i == 0u && first_row_continues)
          TBuf(pc.head_addr + uint64_t(tile) * T_SIZE).v[0] = acc;
        else
          store_y(r0 + i, acc);
        acc = T(0);
        ++i;
      } else {
        acc += s_nz[j];
        ++j;
      }
    }
  }
  if (lid == 0u) {
    TBuf(pc.carry_addr + uint64_t(tile) * T_SIZE).v[0] = tile_total.v;
    U32Buf(pc.carry_head_addr + uint64_t(tile) * 4ul).v[0] = n_rows > 0u ? 1u : 0u;
    U32Buf(pc.fix_addr + uint64_t(tile) * 4ul).v[0] = first_row_continues ? 1u : 0u;
  }
}
