// The Krylov solvers' state in device memory (sparse/solvers/pass.hpp mirrors it): four u32
// words, then the scalars as T. Word 0 is the stop reason (0 while running; the passes of an
// iteration skip once it is set, so the iterations of a block after the stop change nothing),
// word 1 the iterations completed, word 2 the breakdown cause, word 3 (CG) 1 while the x update
// of the alpha last computed is pending (CG's p pass applies it, also in the iteration the stop
// is found in). The first 16 + 2 T_SIZE bytes are what the host reads back (status, iterations,
// cause, r.r, b.b).
#ifndef VKPRIM_SOLVER_STATE_GLSL
#define VKPRIM_SOLVER_STATE_GLSL

#define STOP_RUNNING 0u
#define STOP_CONVERGED 1u
#define STOP_ITERATION_LIMIT 2u
#define STOP_BREAKDOWN 3u

// Breakdown causes (word 2).
#define CAUSE_NONE 0u
#define CAUSE_RHO 1u       // r.z (CG) or r0.r (BiCGSTAB) zero or not finite
#define CAUSE_PAP 2u       // p.Ap zero or not finite (CG)
#define CAUSE_R0V 3u       // r0.v zero or not finite (BiCGSTAB)
#define CAUSE_OMEGA 4u     // omega zero or not finite (BiCGSTAB)
#define CAUSE_RESIDUAL 5u  // r.r (or b.b) not finite

#define W_STATUS 0u
#define W_ITERATIONS 1u
#define W_CAUSE 2u
#define W_X_PENDING 3u

// Scalars (T), from byte 16.
#define S_RR 0u     // r.r of the current residual
#define S_BB 1u     // b.b
#define S_THR 2u    // tol^2 * b.b
#define S_RHO 3u    // r.z (CG), r0.r (BiCGSTAB)
#define S_ALPHA 4u
#define S_BETA 5u
#define S_OMEGA 6u
#define S_COUNT 7u

// Slots of the per-workgroup partial sums (`groups` values each).
#define SLOT_RR 0u
#define SLOT_RZ 1u   // r.z (CG), r0.r (BiCGSTAB)
#define SLOT_PQ 2u   // p.q (CG), r0.v (BiCGSTAB)
#define SLOT_SS 3u
#define SLOT_TS 4u
#define SLOT_TT 5u

// Vector passes (solver_vector.comp).
#define OP_CG_INIT 0u
#define OP_CG_DOT 1u
#define OP_CG_UPDATE 2u
#define OP_CG_P 3u
#define OP_BI_INIT 4u
#define OP_BI_P 5u
#define OP_BI_DOT_R0V 6u
#define OP_BI_S 7u
#define OP_BI_DOT_T 8u
#define OP_BI_X 9u

// Scalar passes (solver_scalar.comp).
#define SOP_CG_INIT 0u
#define SOP_CG_ALPHA 1u
#define SOP_CG_BETA 2u
#define SOP_BI_INIT 3u
#define SOP_BI_ALPHA 4u
#define SOP_BI_OMEGA 5u
#define SOP_BI_END 6u

uint state_word(uint64_t state, uint k) { return U32Buf(state + uint64_t(k) * 4ul).v[0]; }
void set_state_word(uint64_t state, uint k, uint v) { U32Buf(state + uint64_t(k) * 4ul).v[0] = v; }
T state_scalar(uint64_t state, uint k) { return TBuf(state + 16ul + uint64_t(k) * T_SIZE).v[0]; }
void set_state_scalar(uint64_t state, uint k, T v) {
  TBuf(state + 16ul + uint64_t(k) * T_SIZE).v[0] = v;
}

bool finite(T x) { return !isnan(x) && !isinf(x); }

#endif
