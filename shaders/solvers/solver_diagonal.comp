#version 460
#extension GL_GOOGLE_include_directive : require
// The Jacobi preconditioner of the Krylov solvers: inv_diag[r] = 1 / (sum of row r's stored
// entries in column r, in entry order), one row per invocation, grid-stride. A row without a
// diagonal entry lowers bad[0] to its index, a row whose diagonal is zero or not finite lowers
// bad[1] (integer atomicMin: the first such row, whatever the order; both start at 2^32 - 1);
// its inv_diag is 0.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr.glsl"

#define PUSH_SOLVER_DIAGONAL  // pc: push.h's SolverDiagonalPush
#include "push.h"

void main() {
  const uint per_group = WG_SIZE * ITEMS;
  const uint groups_needed = uint((uint64_t(pc.rows) + per_group - 1ul) / per_group);
  FOR_EACH_TILE(group, groups_needed) {
    for (uint i = 0u; i < ITEMS; ++i) {
      const uint64_t r = uint64_t(group) * per_group + i * WG_SIZE + gl_LocalInvocationID.x;
      if (r >= uint64_t(pc.rows)) continue;
      const uint64_t begin = row_ptr_at(pc.row_ptr_addr, r), end = row_ptr_at(pc.row_ptr_addr, r + 1ul);
      T d = T(0);
      bool found = false;
      for (uint64_t k = begin; k < end; ++k) {
        if (uint64_t(U32Buf(ELEM_ADDR(pc.col_addr, k, 4)).v[0]) == r) {
          d += TBuf(ELEM_ADDR(pc.val_addr, k, T_SIZE)).v[0];
          found = true;
        }
      }
      const bool ok = found && d != T(0) && !isnan(d) && !isinf(d);
      if (!found) atomicMin(U32Buf(pc.bad_addr).v[0], uint(r));
      else if (!ok) atomicMin(U32Buf(pc.bad_addr).v[1], uint(r));
      TBuf(ELEM_ADDR(pc.inv_diag_addr, r, T_SIZE)).v[0] = ok ? T(1) / d : T(0);
    }
  }
}
