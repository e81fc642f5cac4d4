#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV pass 1: merge-path partition (Merrill & Garland, "Merge-based Parallel Sparse
// Matrix-Vector Multiplication", SC16). The SpMV work is the merge of two sorted lists: the
// row end offsets row_ptr[1..rows] and the nonzero indices 0..nnz-1. Tile t covers merge
// diagonals [t * TILE, (t + 1) * TILE); this pass finds, for every tile boundary g in
// [0, tiles], the row coordinate of the merge path on diagonal min(g * TILE, rows + nnz) by a
// binary search (the nonzero coordinate is the diagonal minus the row). Balanced in rows and
// nonzeros alike: a tile holds at most TILE row ends plus nonzeros, whatever the row lengths.
// A search is a chain of dependent loads, so the host runs this pass with ITEMS = 1 (one
// boundary per invocation): more would run their chains back to back. Built with NNZ_TILES,
// the same pass cuts fixed tiles of nonzeros instead (SpmvKernel::nnz, below).
#include "vkprim.glsl"
#include "csr.glsl"

#define PUSH_SPMV_PARTITION  // pc: push.h's SpmvPartitionPush
#include "push.h"

void main() {
  const uint per_group = WG_SIZE * ITEMS;
  const uint groups_needed = (pc.points + per_group - 1) / per_group;
  const uint64_t total = uint64_t(pc.rows) + pc.nnz;
  FOR_EACH_TILE(group, groups_needed) {
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint g = group * per_group + k * WG_SIZE + gl_LocalInvocationID.x;
      if (g >= pc.points) continue;
#if defined(NNZ_TILES)
      // Fixed nonzero tiles (spmv_tiles.comp): the first row whose end lies past the tile's
      // first nonzero, the smallest i with row_ptr[i + 1] > first; 0 for tile 0 (which also
      // writes the leading empty rows) and `rows` past the last tile.
      const uint64_t first = uint64_t(g) * pc.tile_items;
      uint64_t lo = 0ul;
      uint64_t hi = g == 0u ? 0ul : uint64_t(pc.rows);
      while (lo < hi) {
        const uint64_t pivot = (lo + hi) >> 1;
        if (row_ptr_at(pc.row_ptr_addr, pivot + 1ul) <= first)
          lo = pivot + 1ul;
        else
          hi = pivot;
      }
#else
      const uint64_t diag = min(uint64_t(g) * pc.tile_items, total);
      // The merge path on `diag`: the first row i whose end is not consumed, i.e. the
      // smallest i with row_ptr[i + 1] > diag - i - 1 (a nonzero index).
      uint64_t lo = diag > pc.nnz ? diag - pc.nnz : 0ul;
      uint64_t hi = min(diag, uint64_t(pc.rows));
      while (lo < hi) {
        const uint64_t pivot = (lo + hi) >> 1;
        if (row_ptr_at(pc.row_ptr_addr, pivot + 1ul) <= diag - pivot - 1ul)
          lo = pivot + 1ul;
        else
          hi = pivot;
      }
#endif
      U32Buf(pc.coords_addr + uint64_t(g) * 4ul).v[0] = uint(lo);
    }
  }
}
