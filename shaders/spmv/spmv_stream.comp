#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV, stream kernel (CSR-Stream: Greathouse & Daga, "Efficient Sparse Matrix-Vector
// Multiplication on GPUs using the CSR Storage Format", SC14; forced by SpmvKernel::stream,
// include/vkprim/sparse/spmv.hpp): y = alpha * A * x + beta * y in one dispatch, no temporary
// storage, no atomics, no subgroup operations.
//
// Workgroup b owns the block of WG_SIZE consecutive rows r0 = b * WG_SIZE .. r0 + WG_SIZE - 1
// (rows past the matrix are empty; workgroups on a 2-D grid when there are more blocks than
// maxComputeWorkGroupCount[0]). It reads the block's WG_SIZE + 1 row pointers into shared
// memory, then walks the block's nonzeros [row_ptr[r0], row_ptr[r0 + WG_SIZE]) in chunks of
// CHUNK = WG_SIZE * ITEMS entries:
//   1. invocation lid loads entries s * WG_SIZE + lid (s < ITEMS) of the chunk — coalesced, all
//      col/value loads before the first x gather, all x gathers before the first use (fixed
//      trip counts, bounds as guards) — and writes the products into shared memory;
//   2. after a barrier, invocation t adds the part of row r0 + t that lies in the chunk, in
//      entry order, from shared memory to its running sum (a row longer than a chunk continues
//      in the next one); a barrier, and the next chunk.
// Invocation t then writes y[r0 + t] (coalesced). A block costs one pass over its nonzeros and
// two memory round trips per chunk, whatever its rows' lengths inside it; but invocation t adds
// its row serially, so a long row among short ones stalls its workgroup (this kernel is for
// regular matrices). A column index >= cols reads as 0, as in the other kernels.
//
// Determinism: every row is summed serially in entry order (((p1 + p2) + p3) + ...) — the order
// of a serial CPU loop — and has one writer: bit-identical results from run to run.
// lavapipe: llvmpipe stops a shader's loops after 65535 iterations (in our tests, a row's
// serial sum across chunks counts in full), so there a row of more than about 65535 * UNROLL
// entries, or a block of more than 65535 chunks, is lost (a forced stream kernel only; the
// automatic choice never runs it). Other devices have no such cap.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr.glsl"

#define PUSH_SPMV_STREAM  // pc: push.h's SpmvStreamPush
#include "push.h"

#define CHUNK (WG_SIZE * ITEMS)
#define UNROLL 4u  // entries per step of the serial sum (the four p in main())
shared T s_prod[gl_WorkGroupSize.x * ITEMS];
shared ROWPTR_T s_ptr[gl_WorkGroupSize.x + 1];

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint block = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint64_t r0 = uint64_t(block) * WG_SIZE;
  // Surplus workgroups of a 2-D grid: the whole workgroup leaves (uniform).
  if (r0 >= uint64_t(pc.rows)) return;

  // The block's row pointers; rows past the matrix are empty (clamped to row_ptr[rows]).
  s_ptr[lid] = ROWPTR_T(row_ptr_at(pc.row_ptr_addr, min(r0 + lid, uint64_t(pc.rows))));
  if (lid == 0u)
    s_ptr[WG_SIZE] = ROWPTR_T(row_ptr_at(pc.row_ptr_addr, min(r0 + WG_SIZE, uint64_t(pc.rows))));
  barrier();
  const ROWPTR_T block_end = s_ptr[WG_SIZE];
  const ROWPTR_T row_begin = s_ptr[lid];
  const ROWPTR_T row_end = s_ptr[lid + 1u];
  ROWPTR_T chunk_begin = s_ptr[0];
  // The same in every invocation (from shared memory after the barrier): the barriers in the
  // loop are in uniform control flow.
  const uint chunks =
      uint(min((uint64_t(block_end - chunk_begin) + CHUNK - 1ul) / CHUNK, 0xFFFFFFFFul));

  T sum = T(0);
  for (uint c = 0u; c < chunks; ++c) {
    const uint n = uint(min(block_end - chunk_begin, ROWPTR_T(CHUNK)));  // entries in the chunk
    // 1. Products of the chunk's entries into shared memory.
    uint col[ITEMS];
    T val[ITEMS];
    [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
      const uint i = s * WG_SIZE + lid;
      col[s] = 0u;
      val[s] = T(0);
      if (i < n) {
        const uint64_t k = uint64_t(chunk_begin) + i;
        col[s] = U32Buf(pc.col_addr + k * 4ul).v[0];
        val[s] = TBuf(pc.val_addr + k * T_SIZE).v[0];
      }
    }
    T xv[ITEMS];
    [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
      xv[s] = T(0);
      if (s * WG_SIZE + lid < n && col[s] < pc.cols)
        xv[s] = TBuf(pc.x_addr + uint64_t(col[s]) * T_SIZE).v[0];
    }
    [[unroll]] for (uint s = 0u; s < ITEMS; ++s) {
      const uint i = s * WG_SIZE + lid;
      if (i < n) s_prod[i] = col[s] < pc.cols ? val[s] * xv[s] : T(0);
    }
    barrier();

    // 2. This invocation's row, where it overlaps the chunk.
    const ROWPTR_T chunk_end = chunk_begin + n;
    const uint j0 = uint(clamp(row_begin, chunk_begin, chunk_end) - chunk_begin);
    const uint j1 = uint(clamp(row_end, chunk_begin, chunk_end) - chunk_begin);
    // UNROLL entries per step: their shared loads issue together, the adds stay in order.
    for (uint j = j0; j < j1; j += UNROLL) {
      const T p0 = s_prod[j];
      const T p1 = j + 1u < j1 ? s_prod[j + 1u] : T(0);
      const T p2 = j + 2u < j1 ? s_prod[j + 2u] : T(0);
      const T p3 = j + 3u < j1 ? s_prod[j + 3u] : T(0);
      sum += p0;
      if (j + 1u < j1) sum += p1;
      if (j + 2u < j1) sum += p2;
      if (j + 3u < j1) sum += p3;
    }
    barrier();  // the chunk's products are read before the next chunk overwrites them
    chunk_begin = chunk_end;
  }

  const uint64_t row = r0 + lid;
  if (row < uint64_t(pc.rows)) {
    TBuf yb = TBuf(pc.y_addr + row * T_SIZE);
    const T alpha = T_FROM_BITS(pc.alpha_bits);
    if ((pc.flags & 1u) != 0u) {
      yb.v[0] = alpha * sum;
    } else {
      const T beta = T_FROM_BITS(pc.beta_bits);
      yb.v[0] = alpha * sum + beta * yb.v[0];
    }
  }
}
