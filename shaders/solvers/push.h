// Push constants of the solver passes, for their shaders and sparse/solvers/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides). Vector roles
// and ops: sparse/solvers/pass.hpp and solver_state.glsl.
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::sparse::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_SOLVER_VECTOR)
VKPRIM_PUSH_BEGIN(SolverVectorPush)  // solver_vector.comp
  VKPRIM_PUSH_U64(state_addr, 0)     // the solver state (solver_state.glsl)
  VKPRIM_PUSH_U64(partials_addr, 8)  // per-workgroup partial sums, kSolverPartialSlots x groups T
  VKPRIM_PUSH_U64(inv_diag_addr, 16)  // n T: the Jacobi preconditioner; 0: none
  VKPRIM_PUSH_U64S(v, 10, 24)        // the vectors by role (SolverVec), n T each
  VKPRIM_PUSH_U32(n, 104)
  VKPRIM_PUSH_U32(groups, 108)
  VKPRIM_PUSH_U32(op, 112)           // SolverVectorOp
VKPRIM_PUSH_END(SolverVectorPush, 120)
#endif

#if defined(__cplusplus) || defined(PUSH_SOLVER_SCALAR)
VKPRIM_PUSH_BEGIN(SolverScalarPush)  // solver_scalar.comp
  VKPRIM_PUSH_U64(state_addr, 0)
  VKPRIM_PUSH_U64(partials_addr, 8)
  VKPRIM_PUSH_U64(tol2_bits, 16)     // tol^2 as T's bit pattern
  VKPRIM_PUSH_U32(groups, 24)
  VKPRIM_PUSH_U32(op, 28)            // SolverScalarOp
  VKPRIM_PUSH_U32(max_iterations, 32)
VKPRIM_PUSH_END(SolverScalarPush, 40)
#endif

#if defined(__cplusplus) || defined(PUSH_SOLVER_DIAGONAL)
VKPRIM_PUSH_BEGIN(SolverDiagonalPush)  // solver_diagonal.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)
  VKPRIM_PUSH_U64(col_addr, 8)
  VKPRIM_PUSH_U64(val_addr, 16)
  VKPRIM_PUSH_U64(inv_diag_addr, 24)  // out: rows T
  VKPRIM_PUSH_U64(bad_addr, 32)      // out: 2 u32, the first row without a diagonal entry and
                                     // the first with a zero or non-finite one (2^32 - 1: none)
  VKPRIM_PUSH_U32(rows, 40)
VKPRIM_PUSH_END(SolverDiagonalPush, 48)
#endif

#ifdef __cplusplus
}  // namespace vkprim::sparse::detail
#endif
