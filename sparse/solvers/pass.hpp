// Pass layer of the Krylov solvers: the push constants of shaders/solvers/*.comp
// (shaders/solvers/push.h, shared with the GLSL), the ops of the two shared shaders, and the
// layout of the state and workspace.
#pragma once

#include "../../shaders/solvers/push.h"

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
  kVecZ = 5,  // M s (BiCGSTAB; s itself without a preconditioner); CG recomputes M r
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
inline constexpr uint32_t kSolverVectorPushBytes = sizeof(SolverVectorPush);

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
inline constexpr uint32_t kSolverScalarPushBytes = sizeof(SolverScalarPush);

inline constexpr uint32_t kSolverDiagonalPushBytes = sizeof(SolverDiagonalPush);

// The state (solver_state.glsl): 4 u32 words (stop reason, iterations, breakdown cause, CG's
// pending x update),
// then 7 scalars of the value type; the status the host reads is its first 16 + 2 scalars.
inline constexpr uint64_t kSolverStateBytes = 128;
inline constexpr uint32_t kSolverPartialSlots = 6;
inline constexpr uint32_t kSolverSlotPq = 2;  // SLOT_PQ: p.q (CG), r0.v (BiCGSTAB)
inline constexpr uint32_t kSolverScalarRr = 0, kSolverScalarBb = 1;

}  // namespace vkprim::sparse::detail
