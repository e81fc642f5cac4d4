#version 460
#extension GL_GOOGLE_include_directive : require
// Column blocks of a CSR matrix (sparse::split_columns, sparse/csr_build/csr_split.cpp): the entries of
// A whose column lies in [col_begin, col_end), as a CSR matrix of A's shape. Two modes:
//   0 (flags):   pos[k] = 1 where entry k lies in the block, else 0, for k < nnz; pos[nnz] = 0.
//                An exclusive scan of pos[0..nnz] (the host's) turns them into output positions.
//                pos is as wide as the row pointer (ROWPTR_64: u64, so nnz may pass 2^32).
//   1 (scatter): entry k of the block goes to position pos[k] (col_idx and values), and row r's
//                pointer is pos[row_ptr[r]], for r <= rows: the entries keep their order.
// Grid-stride over max(nnz + 1, rows + 1) items; every address in 64 bits. VALUE_SIZE: 4 or 8
// bytes per value, copied as words.
#include "vkprim.glsl"
#include "csr.glsl"

#define PUSH_CSR_SPLIT  // pc: push.h's SplitPush
#include "push.h"

bool in_block(uint64_t k) {
  const uint c = U32Buf(pc.col_addr + k * 4ul).v[0];
  return c >= pc.col_begin && c < pc.col_end;
}

void main() {
  const uint64_t per_tile = uint64_t(WG_SIZE * ITEMS);
  const uint64_t items = max(pc.nnz, uint64_t(pc.rows)) + 1ul;
  const uint64_t tiles = (items + per_tile - 1ul) / per_tile;
  for (uint64_t t = gl_WorkGroupID.x; t < tiles; t += gl_NumWorkGroups.x) {
    [[unroll]] for (uint i = 0u; i < ITEMS; ++i) {
      const uint64_t k = t * per_tile + uint64_t(i * WG_SIZE + gl_LocalInvocationID.x);
      if (pc.mode == 0u) {
        if (k <= pc.nnz) row_ptr_store(pc.pos_addr, k, k < pc.nnz && in_block(k) ? 1ul : 0ul);
        continue;
      }
      if (k < pc.nnz && in_block(k)) {
        const uint64_t p = row_ptr_at(pc.pos_addr, k);
        U32Buf(pc.out_col_addr + p * 4ul).v[0] = U32Buf(pc.col_addr + k * 4ul).v[0];
#if VALUE_SIZE == 8
        U32x2Buf(pc.out_val_addr + p * 8ul).v[0] = U32x2Buf(pc.val_addr + k * 8ul).v[0];
#else
        U32Buf(pc.out_val_addr + p * 4ul).v[0] = U32Buf(pc.val_addr + k * 4ul).v[0];
#endif
      }
      if (k <= uint64_t(pc.rows))
        row_ptr_store(pc.out_row_ptr_addr, k, row_ptr_at(pc.pos_addr, row_ptr_at(pc.row_ptr_addr, k)));
    }
  }
}
