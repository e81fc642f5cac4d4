#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV, split kernel's long rows (SpmvKernel::split, include/vkprim/sparse/spmv.hpp): the row
// kernel (spmv_rows.comp with long_threshold set) sums every row of at most long_threshold
// entries; spmv_list.comp lists the longer ones in two lists, long and huge rows (each row
// indices in any order, and a u32 count); this pass sums the rows of one list, each split over
// `pieces` workgroups (1 for long rows), in up to two phases (dispatches):
//
//   phase 0, grid (pieces, listed-row capacity): workgroup (p, s) takes the row in list slot s
//     and its chunks p, p + pieces, p + 2 pieces, ... of CHUNK = WG_SIZE * ITEMS entries;
//     invocation lid adds entries lid, lid + WG_SIZE, ... of each chunk serially (all col/value
//     loads of a chunk, then its x gathers, then the adds, in entry order); the workgroup's
//     sums meet in a fixed tree in shared memory; partial[s * pieces + p] = the result.
//   phase 1, grid (listed-row capacity): workgroup s adds the row's `pieces` partials (lid,
//     lid + WG_SIZE, ... serially, then the same fixed tree) and writes
//     y[row] = alpha * sum + beta * y[row].
//   With pieces == 1, phase 0 writes y itself (one workgroup per row: the split kernel's long
//   rows; its huge rows take several pieces and both phases).
//
// Slots past the list's count leave at once (the whole workgroup: uniform). No float atomics:
// a row's partial p is a fixed function of (row, p, pieces) whichever slot the row landed in,
// and the partials are added in a fixed order, so results are bit-identical from run to run
// (for a given `pieces`, which the host derives from the matrix's statistics).
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr.glsl"

#define PUSH_SPMV_LONG  // pc: push.h's SpmvLongPush
#include "push.h"

#define CHUNK (WG_SIZE * ITEMS)
shared T s_sum[gl_WorkGroupSize.x];

// y[row] = alpha * sum + beta * y[row] (y not read when beta is zero).
void write_y(uint64_t row, T sum) {
  TBuf yb = TBuf(pc.y_addr + row * T_SIZE);
  const T alpha = T_FROM_BITS(pc.alpha_bits);
  if ((pc.flags & 1u) != 0u) {
    yb.v[0] = alpha * sum;
  } else {
    const T beta = T_FROM_BITS(pc.beta_bits);
    yb.v[0] = alpha * sum + beta * yb.v[0];
  }
}

// Fixed tree over the workgroup (step d = WG_SIZE/2, ..., 1: lid += lid + d); all return it.
T workgroup_sum(T v) {
  const uint lid = gl_LocalInvocationID.x;
  s_sum[lid] = v;
  barrier();
  for (uint d = WG_SIZE >> 1; d > 0u; d >>= 1) {
    if (lid < d) s_sum[lid] = s_sum[lid] + s_sum[lid + d];
    barrier();
  }
  return s_sum[0];
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint slot = pc.phase == 0u ? gl_WorkGroupID.y : gl_WorkGroupID.x;
  if (slot >= U32Buf(pc.count_addr).v[0]) return;  // the same for the whole workgroup
  const uint64_t row = uint64_t(U32Buf(pc.long_addr).v[slot]);

  if (pc.phase == 0u) {
    const uint p = gl_WorkGroupID.x;
    const uint64_t begin = row_ptr_at(pc.row_ptr_addr, row);
    const uint64_t end = row_ptr_at(pc.row_ptr_addr, row + 1ul);
    const uint64_t stride = uint64_t(pc.pieces) * CHUNK;
    T acc = T(0);
    for (uint64_t c0 = begin + uint64_t(p) * CHUNK; c0 < end; c0 += stride) {
      uint col[ITEMS];
      T val[ITEMS];
      [[unroll]] for (uint i = 0u; i < ITEMS; ++i) {
        const uint64_t k = c0 + i * WG_SIZE + lid;
        col[i] = 0xFFFFFFFFu;
        val[i] = T(0);
        if (k < end) {
          col[i] = U32Buf(pc.col_addr + k * 4ul).v[0];
          val[i] = TBuf(pc.val_addr + k * T_SIZE).v[0];
        }
      }
      T xv[ITEMS];
      [[unroll]] for (uint i = 0u; i < ITEMS; ++i) {
        xv[i] = T(0);
        if (col[i] < pc.cols) xv[i] = TBuf(pc.x_addr + uint64_t(col[i]) * T_SIZE).v[0];
      }
      [[unroll]] for (uint i = 0u; i < ITEMS; ++i)
        if (col[i] < pc.cols) acc += val[i] * xv[i];
    }
    const T sum = workgroup_sum(acc);
    if (lid == 0u) {
      if (pc.pieces == 1u)
        write_y(row, sum);
      else
        TBuf(pc.partial_addr + (uint64_t(slot) * pc.pieces + p) * T_SIZE).v[0] = sum;
    }
  } else {
    T acc = T(0);
    for (uint j = lid; j < pc.pieces; j += WG_SIZE)
      acc += TBuf(pc.partial_addr + (uint64_t(slot) * pc.pieces + j) * T_SIZE).v[0];
    const T sum = workgroup_sum(acc);
    if (lid == 0u) write_y(row, sum);
  }
}
