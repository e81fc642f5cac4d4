// Pass layer of the Krylov solvers: push-constant blocks mirroring shaders/solvers/*.comp, the
// ops of the two shared shaders, and the layout of the state and workspace.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vkprim::sparse::detail {

// solver_vector.comp: the vectors by role (v[]), the ops (solver_state.glsl's OP_*).
enum SolverVec : uint32_t {
  kVecB = 0,
  kVecX = 1,
  kVecR = 2,
  kVecP = 3,
  kVecQ = 4,  // q = A p (CG), v = A y (BiCGSTAB)
  kVecZ = 5,  // M r (CG), M s (BiCGSTAB); r or s itself without a preconditioner
  kVecR0 = 6,
  kVecY = 7,  // M p (BiCGSTAB); p itself without a preconditioner
  kVecS = 8,
  kVecT = 9,  // A z (BiCGSTAB)
  kVecCount = 10,
};
enum SolverVectorOp : uint32_t {
  kOpCgInit = 0,
  kOpCgDot = 1,
  kOpCgUpdate = 2,
  kOpCgP = 3,
  kOpBiInit = 4,
  kOpBiP = 5,
  kOpBiDotR0v = 6,
  kOpBiS = 7,
  kOpBiDotT = 8,
  kOpBiX = 9,
};
struct SolverVectorPush {
  uint64_t state, partials, inv_diag;
  uint64_t v[kVecCount];
  uint32_t n, groups, op, pad;
};
static_assert(offsetof(SolverVectorPush, n) == 104 && sizeof(SolverVectorPush) == 120);
inline constexpr uint32_t kSolverVectorPushBytes = 120;

// solver_scalar.comp (SOP_*).
enum SolverScalarOp : uint32_t {
  kSopCgInit = 0,
  kSopCgAlpha = 1,
  kSopCgBeta = 2,
  kSopBiInit = 3,
  kSopBiAlpha = 4,
  kSopBiOmega = 5,
  kSopBiEnd = 6,
};
struct SolverScalarPush {
  uint64_t state, partials, tol2_bits;
  uint32_t groups, op, max_iterations, pad;
};
static_assert(offsetof(SolverScalarPush, groups) == 24 && sizeof(SolverScalarPush) == 40);
inline constexpr uint32_t kSolverScalarPushBytes = 40;

// solver_diagonal.comp: bad[0] the first row without a diagonal entry, bad[1] the first with a
// zero or non-finite one (2^32 - 1: none).
struct SolverDiagonalPush {
  uint64_t row_ptr, col, val, inv_diag, bad;
  uint32_t rows, pad;
};
static_assert(offsetof(SolverDiagonalPush, rows) == 40 && sizeof(SolverDiagonalPush) == 48);
inline constexpr uint32_t kSolverDiagonalPushBytes = 48;

// The state (solver_state.glsl): 4 u32 words (stop reason, iterations, breakdown cause, pad),
// then 7 scalars of the value type; the status the host reads is its first 16 + 2 scalars.
inline constexpr uint64_t kSolverStateBytes = 128;
inline constexpr uint32_t kSolverPartialSlots = 6;
inline constexpr uint32_t kSolverScalarRr = 0, kSolverScalarBb = 1;

}  // namespace vkprim::sparse::detail
