#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV, row kernel (the fast path for regular matrices, and the first pass of the split kernel
// for irregular ones; include/vkprim/sparse/spmv.hpp says when each runs): y = alpha * A * x +
// beta * y in one dispatch, no temporary storage, no atomics.
// A group of L = 2^lane_shift consecutive lanes of a subgroup owns one row (the adaptive
// "CSR-vector" layout): the lanes stride over the row's nonzeros (lane j takes j, j + L, ...,
// so every step loads L consecutive col_idx / values), each keeps a serial sum, and the L sums
// are combined by a fixed tree (step d = L/2, ..., 1: lane j += lane j + d) through relative
// subgroup shuffles, or through shared memory in the build without subgroup operations (the
// same tree, so both builds give the same bits). Lane 0 of the group writes y. WG_SIZE / L rows
// per workgroup, workgroups on a 2-D grid when there are more than maxComputeWorkGroupCount[0].
//
// Uniformity: the loop over a row runs to the subgroup-wide maximum trip count (subgroupMax),
// and lanes past the last row or past their row's end are masked, never sent away early, so
// the shuffles after the loop run with the whole subgroup converged.
// Determinism: every sum has a fixed order (per lane serial, then the fixed tree) and every y
// element one writer: bit-identical results from run to run for a given L.
// WINDOW build (SpmvAnalysis::skip_empty_rows, for matrices with many empty rows): a workgroup
// owns a window of WINDOW_ROWS rows instead of WG_SIZE / L, writes y of its empty rows itself
// and hands only the non-empty ones to the lane groups (main() below), each summed as above:
// the same bits as this kernel with the same L.
// COMPLEX build: values, x and y are complex (spmv_value.glsl: two T each, real part first);
// products are complex, sums and the tree as above per part, alpha and beta real.
// DOT build (real values, square A, no window, no long rows; the CG solver's A p with p.Ap):
// also writes, per workgroup, the sum of y[row] * x[row] over its rows (the values it writes to
// y), added by the fixed tree of workgroup_sum.glsl, to dot_addr[workgroup]: one partial per
// workgroup of the grid, in the same order on every run.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr.glsl"
#include "spmv_value.glsl"

#if defined(SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#endif

#define PUSH_SPMV_ROWS  // pc: push.h's SpmvRowsPush
#include "push.h"

#if !defined(SUBGROUP)
shared V s_part[gl_WorkGroupSize.x];
#endif
#if defined(DOT)
#define WORKGROUP_SUM_ONE
#include "workgroup_sum.glsl"
#endif
#if defined(WINDOW)
#include "counts_scan.glsl"
#define WINDOW_RUN 4u                    // rows looked at per invocation
#define WINDOW_ROWS (WG_SIZE * WINDOW_RUN)  // rows per workgroup (kSpmvRowsWindow)
shared uint s_list[WINDOW_ROWS];         // the window's non-empty rows (offsets in the window)
#endif

#if defined(SUBGROUP)
// Relative shuffle of T as 32-bit words (no 64-bit subgroup types needed for f64).
T shuffle_down_t(T v, uint delta) {
#if T_SIZE == 4
  return subgroupShuffleDown(v, delta);
#else
  const uvec2 w = unpackDouble2x32(v);
  return packDouble2x32(uvec2(subgroupShuffleDown(w.x, delta), subgroupShuffleDown(w.y, delta)));
#endif
}
// A value V: one T, or a complex value's two parts shuffled alike.
V shuffle_down(V v, uint delta) {
#if defined(COMPLEX)
  return V(shuffle_down_t(v.x, delta), shuffle_down_t(v.y, delta));
#else
  return shuffle_down_t(v, delta);
#endif
}
#endif

#define UNROLL 4ul  // entries per lane per step (take_step)
#define UNROLL_N 4u

// acc += A[k] * x[col[k]] for the UNROLL entries k, k + L, ... of one step that lie inside the
// row (a column >= cols reads as 0): all column and value loads first, then all x gathers,
// then the adds in entry order, so a lane has UNROLL gathers in flight at once.
void take_step(uint64_t k, uint64_t L, uint64_t end, inout V acc) {
  uint c[UNROLL_N];
  V a[UNROLL_N];
  V xv[UNROLL_N];
  [[unroll]] for (uint u = 0u; u < UNROLL_N; ++u) {
    const uint64_t ku = k + uint64_t(u) * L;
    c[u] = 0xFFFFFFFFu;
    a[u] = V(0);
    if (ku < end) {
      c[u] = U32Buf(pc.col_addr + ku * 4ul).v[0];
      a[u] = VBuf(pc.val_addr + ku * V_SIZE).v[0];
    }
  }
  [[unroll]] for (uint u = 0u; u < UNROLL_N; ++u) {
    xv[u] = V(0);
    if (c[u] < pc.cols) xv[u] = VBuf(pc.x_addr + uint64_t(c[u]) * V_SIZE).v[0];
  }
  [[unroll]] for (uint u = 0u; u < UNROLL_N; ++u)
    if (c[u] < pc.cols) acc += V_MUL(a[u], xv[u]);
}

// y[row] before the product (zero when beta is zero: y is not read).
V read_y(uint64_t row) {
  return (pc.flags & 1u) != 0u ? V(0) : VBuf(pc.y_addr + row * V_SIZE).v[0];
}

// y[row] = alpha * acc + beta * y_old, y_old = read_y(row) (every row, empty ones included,
// goes through here); returns the value written.
V write_y(uint64_t row, V acc, V y_old) {
  VBuf yb = VBuf(pc.y_addr + row * V_SIZE);
  const T alpha = T_FROM_BITS(pc.alpha_bits);
  V y;
  if ((pc.flags & 1u) != 0u) {
    y = alpha * acc;
  } else {
    const T beta = T_FROM_BITS(pc.beta_bits);
    y = alpha * acc + beta * y_old;
  }
  yb.v[0] = y;
  return y;
}

// The lane group `slot` of the workgroup (L = 2^lane_shift lanes) sums row `row` (nothing when
// !live) and its lane 0 writes y. Called by every invocation in uniform control flow. Returns,
// on the lane that writes y, y[row] * x[row] in the DOT build (0 elsewhere and otherwise).
T sum_row(uint64_t row, bool live, uint lane) {
  const uint L = 1u << pc.lane_shift;
  uint64_t begin = 0ul, end = 0ul;
  if (live) {
    begin = row_ptr_at(pc.row_ptr_addr, row);
    end = row_ptr_at(pc.row_ptr_addr, row + 1ul);
  }
  // Split kernel (SpmvKernel::split): a row longer than long_threshold is not summed here;
  // spmv_list.comp listed it and spmv_long.comp writes its y (running alongside: its y is
  // neither read nor written here).
  const bool is_long = pc.long_threshold != 0u && end - begin > uint64_t(pc.long_threshold);
  if (is_long) end = begin;
  // The old y (beta != 0: the second and later column blocks, or the caller's beta) is loaded
  // before the row's entries, so that its latency passes during their gathers instead of
  // after them.
  V y_old = V(0);
  if (live && !is_long && lane == 0u) y_old = read_y(row);
#if defined(DOT)
  T x_row = T(0);  // loaded early for the same reason
  if (live && lane == 0u) x_row = TBuf(pc.x_addr + row * T_SIZE).v[0];
#endif
  // Each step takes UNROLL entries per lane (UNROLL * L per lane group): independent loads in
  // flight, and a loop count that stays under llvmpipe's (lavapipe's) cap of 65535 loop
  // iterations per invocation for rows up to 65535 * UNROLL * L entries (the automatic choice
  // never sends longer rows here; a forced row kernel on lavapipe would drop their tail). The
  // step count saturates rather than wraps.
  const uint64_t group_stride = uint64_t(L) * UNROLL;
  const uint64_t steps64 = (end - begin + group_stride - 1ul) / group_stride;
  const uint steps = uint(min(steps64, 0xFFFFFFFFul));
#if defined(SUBGROUP)
  const uint trip = subgroupMax(steps);  // uniform across the subgroup
#else
  const uint trip = steps;  // no subgroup operation follows inside or right after the loop
#endif

  // Lane j sums entries j, j + L, j + 2L, ... of its row in that order.
  V acc = V(0);
  uint64_t k = begin + lane;
  for (uint s = 0u; s < trip; ++s) {
    take_step(k, uint64_t(L), end, acc);
    k += group_stride;
  }

  // Fixed tree over the group's L lanes; lane 0 ends with the row's sum (other lanes may hold
  // values from beyond their group, which nobody reads).
#if defined(SUBGROUP)
  for (uint d = L >> 1; d > 0u; d >>= 1) acc += shuffle_down(acc, d);
#else
  const uint lid = gl_LocalInvocationID.x;
  s_part[lid] = acc;
  barrier();
  for (uint d = L >> 1; d > 0u; d >>= 1) {
    if (lane < d) s_part[lid] = s_part[lid] + s_part[lid + d];
    barrier();
  }
  acc = s_part[lid];
  barrier();  // s_part is read before a next call overwrites it
#endif

  T dot = T(0);
  if (live && !is_long && lane == 0u) {
    const V y = write_y(row, acc, y_old);
#if defined(DOT)
    dot = y * x_row;
#endif
  }
  return dot;
}

void main() {
  const uint L = 1u << pc.lane_shift;
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
#if defined(SUBGROUP)
  // Lane groups never straddle subgroups: L divides the subgroup size.
  const uint slot = gl_SubgroupID * (gl_SubgroupSize >> pc.lane_shift) +
                    (gl_SubgroupInvocationID >> pc.lane_shift);
  const uint lane = gl_SubgroupInvocationID & (L - 1u);
#else
  const uint slot = gl_LocalInvocationID.x >> pc.lane_shift;
  const uint lane = gl_LocalInvocationID.x & (L - 1u);
#endif
  const uint rows_per_pass = WG_SIZE >> pc.lane_shift;
#if defined(WINDOW)
  // Window mode: the workgroup's window of WINDOW_ROWS rows; invocation i looks at rows
  // [i * WINDOW_RUN, (i + 1) * WINDOW_RUN) of it, writes y of the empty ones (a zero sum) and
  // counts the others; one exclusive scan of the counts lists the non-empty rows in row order,
  // and the lane groups take them rows_per_pass at a time.
  const uint64_t window = uint64_t(group) * WINDOW_ROWS;
  if (window >= uint64_t(pc.rows)) return;  // surplus workgroups of a 2-D grid (uniform)
  const uint lid = gl_LocalInvocationID.x;
  const uint64_t first = window + uint64_t(lid) * WINDOW_RUN;
  uint nonempty = 0u;  // bit j: row first + j has entries
  uint64_t prev = first < uint64_t(pc.rows) ? row_ptr_at(pc.row_ptr_addr, first) : 0ul;
  [[unroll]] for (uint j = 0u; j < WINDOW_RUN; ++j) {
    const uint64_t r = first + j;
    if (r < uint64_t(pc.rows)) {
      const uint64_t next = row_ptr_at(pc.row_ptr_addr, r + 1ul);
      if (next == prev) write_y(r, V(0), read_y(r));
      else nonempty |= 1u << j;
      prev = next;
    }
  }
  uvec2 total;
  uint at = counts_exclusive_scan(uvec2(bitCount(nonempty), 0u), total).x;
  for (uint j = 0u; j < WINDOW_RUN; ++j)
    if ((nonempty & (1u << j)) != 0u) s_list[at++] = lid * WINDOW_RUN + j;
  barrier();
  const uint count = total.x;  // uniform
  for (uint base = 0u; base < count; base += rows_per_pass) {
    const bool live = base + slot < count;
    sum_row(window + (live ? s_list[base + slot] : 0u), live, lane);
  }
#else
  // Surplus workgroups of a 2-D grid: the whole workgroup leaves (uniform).
  if (uint64_t(group) * rows_per_pass >= uint64_t(pc.rows)) return;
  const uint64_t row = uint64_t(group) * rows_per_pass + slot;
  T dot = sum_row(row, row < uint64_t(pc.rows), lane);
#if defined(DOT)
  workgroup_sum1(dot);
  if (gl_LocalInvocationID.x == 0u) TBuf(pc.dot_addr + uint64_t(group) * T_SIZE).v[0] = dot;
#endif
#endif
}
