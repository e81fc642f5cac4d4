#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV pass 2: y = alpha * A * x + beta * y over merge-path tiles (spmv_partition.comp),
// one tile per workgroup (Merrill & Garland SC16, CUB's AgentSpmv). Per tile:
//   1. stage the tile's products A[k] * x[col[k]] and its row end offsets in shared memory.
//      Every invocation owns entries s * WG_SIZE + lid, s < ITEMS (coalesced): it issues all
//      its col/value/row-end loads (and the load that tells whether the tile's first row began
//      earlier) before the first x gather, and all its x gathers before the first shared
//      write, so a tile costs two memory round trips, not 2 * ITEMS (fixed trip counts, bounds
//      as guards: the loops unroll);
//   2. each invocation finds its stretch of ITEMS merge items by a merge-path search in shared
//      memory and walks it: a row end closes the running sum. The walk keeps each item's
//      product in registers (and which items are row ends), so step 4 needs no shared memory;
//   3. the invocations' (running sum, saw a row end) pairs are combined by a workgroup
//      exclusive scan with Blelloch's segmented-sum operator (common/agg.glsl, OP_segsum), which
//      gives each invocation the partial sum of the row open at its first item;
//   4. each invocation replays its stretch from registers, starting from that partial, and puts
//      the sums of the rows that end in it into shared memory (over the products, all read
//      before the scan);
//   5. after a barrier, the tile's rows are written to y coalesced (row r0 + s * WG_SIZE + lid
//      by invocation lid), their old y values (beta != 0) loaded during step 4.
// Rows that cross tile boundaries are finished without float atomics (spmv_fixup.comp): the
// tile writes the partial sum of the row still open at its end (`carry`, head flag = the tile
// saw a row end) and, when its first row began in an earlier tile, that row's partial sum in
// this tile (`head`, fix flag) instead of writing y. Every y element has exactly one writer and
// every sum a fixed order, so results are bit-identical from run to run: within a tile, a row's
// sum is ((partial carried in from earlier invocations + p1) + p2) + ..., in item order.
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
// Products of the tile's nonzeros (steps 1-2); then the sums of the tile's rows (steps 4-5).
shared T s_nz[gl_WorkGroupSize.x * ITEMS];
shared uint s_row_end[gl_WorkGroupSize.x * ITEMS];

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

  // 1. Stage products and row ends (local offsets: row_ptr[r + 1] - k0, in [0, n_nz]). Item s
  // of this invocation is tile entry s * WG_SIZE + lid (n_nz, n_rows <= TILE).
  uint col[ITEMS];
  T val[ITEMS];
  uint64_t row_end[ITEMS];
  for (uint s = 0u; s < ITEMS; ++s) {
    const uint i = s * WG_SIZE + lid;
    col[s] = 0u;
    val[s] = T(0);
    row_end[s] = 0ul;
    if (i < n_nz) {
      col[s] = U32Buf(pc.col_addr + (k0 + i) * 4ul).v[0];
      val[s] = TBuf(pc.val_addr + (k0 + i) * T_SIZE).v[0];
    }
    if (i < n_rows) row_end[s] = row_ptr_at(pc.row_ptr_addr, uint64_t(r0) + 1ul + i);
  }
  // The tile's first row is left to the fix-up pass when it began in an earlier tile.
  const bool first_row_continues =
      tile > 0u && n_rows > 0u && row_ptr_at(pc.row_ptr_addr, uint64_t(r0)) < k0;
  T xv[ITEMS];
  for (uint s = 0u; s < ITEMS; ++s) {
    xv[s] = T(0);
    if (s * WG_SIZE + lid < n_nz && col[s] < pc.cols)
      xv[s] = TBuf(pc.x_addr + uint64_t(col[s]) * T_SIZE).v[0];
  }
  for (uint s = 0u; s < ITEMS; ++s) {
    const uint i = s * WG_SIZE + lid;
    if (i < n_nz) s_nz[i] = col[s] < pc.cols ? val[s] * xv[s] : T(0);  // a column >= cols: 0
    if (i < n_rows) s_row_end[i] = uint(row_end[s] - k0);
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
  // Item s is a row end (bit s of `ends`) or a product (part[s]).
  T run = T(0);
  uint ended = 0u;
  uint ends = 0u;
  T part[ITEMS];
  {
    uint i = i_start, j = j_start;
    for (uint s = 0u; s < ITEMS; ++s) {
      part[s] = T(0);
      if (s >= steps) {
      } else if (i < n_rows && s_row_end[i] <= j) {
        run = T(0);
        ended = 1u;
        ends |= 1u << s;
        ++i;
      } else {
        part[s] = s_nz[j];
        run += part[s];
        ++j;
      }
    }
  }

  // 3. Segmented exclusive scan of the invocations' (sum, ended) pairs, in uniform control
  // flow (the barrier makes the reconvergence point explicit before any subgroup operation;
  // it also ends every read of s_nz and s_row_end, so step 4 may overwrite s_nz).
  barrier();
  Agg tile_total;
  const Agg before = workgroup_exclusive_scan(Agg(run, ended), tile_total);

  // The old y of the rows this invocation writes in step 5, loaded now (beta != 0).
  const bool read_y = (pc.flags & 1u) == 0u;
  T y_old[ITEMS];
  for (uint s = 0u; s < ITEMS; ++s) {
    const uint i = s * WG_SIZE + lid;
    y_old[s] = T(0);
    if (read_y && i < n_rows && !(i == 0u && first_row_continues))
      y_old[s] = TBuf(pc.y_addr + uint64_t(r0 + i) * T_SIZE).v[0];
  }

  // 4. The sums of the rows that end in this stretch, by local row, into s_nz.
  {
    T acc = before.v;
    uint i = i_start;
    for (uint s = 0u; s < ITEMS; ++s) {
      if (((ends >> s) & 1u) != 0u) {
        s_nz[i] = acc;
        acc = T(0);
        ++i;
      } else {
        acc += part[s];
      }
    }
  }
  barrier();

  // 5. Coalesced writes of the tile's rows; its first row's partial goes to `head` instead
  // when the row began in an earlier tile.
  const T alpha = T_FROM_BITS(pc.alpha_bits);
  const T beta = T_FROM_BITS(pc.beta_bits);
  for (uint s = 0u; s < ITEMS; ++s) {
    const uint i = s * WG_SIZE + lid;
    if (i >= n_rows) continue;
    if (i == 0u && first_row_continues)
      TBuf(pc.head_addr + uint64_t(tile) * T_SIZE).v[0] = s_nz[0];
    else
      TBuf(pc.y_addr + uint64_t(r0 + i) * T_SIZE).v[0] =
          read_y ? alpha * s_nz[i] + beta * y_old[s] : alpha * s_nz[i];
  }
  if (lid == 0u) {
    TBuf(pc.carry_addr + uint64_t(tile) * T_SIZE).v[0] = tile_total.v;
    U32Buf(pc.carry_head_addr + uint64_t(tile) * 4ul).v[0] = n_rows > 0u ? 1u : 0u;
    U32Buf(pc.fix_addr + uint64_t(tile) * 4ul).v[0] = first_row_continues ? 1u : 0u;
  }
}
