#version 460
#extension GL_GOOGLE_include_directive : require
// The Krylov solvers' scalar passes: one workgroup adds the per-workgroup partial sums of the
// pass before it (a vector pass, or for CG's alpha the product's, spmv_rows.comp's DOT build):
// invocation i keeps four sums, of partials i + (4j + u) WG_SIZE for u = 0..3, each in order of
// j, adds them as (s0 + s1) + (s2 + s3), then the fixed tree of workgroup_sum.glsl adds the
// invocations: bit-identical run to run. Invocation 0 computes alpha,
// beta or omega, counts the iteration and sets the stop reason (solver_state.glsl):
// converged when r.r <= tol^2 b.b, iteration_limit at max_iterations, breakdown when a divisor
// (p.Ap, r.z, r0.v, r0.r, omega) is zero or not finite, or r.r is not finite. Every op but the
// two initial ones returns at once when the stop reason is already set (CG's alpha first clears
// the pending x update, W_X_PENDING, which the iteration that stopped has applied).
// CG's alpha reads its partials (p.q) as slot 0 of its own partials_addr and groups.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "workgroup_sum.glsl"
#include "solver_state.glsl"

#define PUSH_SOLVER_SCALAR  // pc: push.h's SolverScalarPush
#include "push.h"

T partial(uint slot, uint k) {
  return TBuf(pc.partials_addr + (uint64_t(slot) * pc.groups + k) * T_SIZE).v[0];
}

void stop(uint reason, uint cause) {
  set_state_word(pc.state_addr, W_STATUS, reason);
  set_state_word(pc.state_addr, W_CAUSE, cause);
}

void main() {
  const uint op = pc.op;
  const bool init = op == SOP_CG_INIT || op == SOP_BI_INIT;
  if (!init && state_word(pc.state_addr, W_STATUS) != STOP_RUNNING) {
    if (op == SOP_CG_ALPHA && gl_LocalInvocationID.x == 0u)
      set_state_word(pc.state_addr, W_X_PENDING, 0u);
    return;
  }
  uint s0 = SLOT_RR, s1 = SLOT_RZ, s2 = SLOT_PQ;
  uint used = 2u;
  switch (op) {
    case SOP_CG_ALPHA: s0 = 0u; used = 1u; break;
    case SOP_BI_ALPHA: s0 = SLOT_PQ; used = 1u; break;
    case SOP_BI_INIT: used = 1u; break;
    case SOP_BI_OMEGA: s0 = SLOT_SS; s1 = SLOT_TS; s2 = SLOT_TT; used = 3u; break;
  }
  // Four independent sums per invocation: four loads in flight (the product's partials number
  // one per workgroup of its grid, up to rows / 256 and more).
  T a4[4] = T[4](T(0), T(0), T(0), T(0));
  T b4[4] = T[4](T(0), T(0), T(0), T(0));
  T c4[4] = T[4](T(0), T(0), T(0), T(0));
  for (uint k0 = gl_LocalInvocationID.x; k0 < pc.groups; k0 += 4u * WG_SIZE) {
    [[unroll]] for (uint u = 0u; u < 4u; ++u) {
      const uint k = k0 + u * WG_SIZE;
      if (k < pc.groups) {
        a4[u] += partial(s0, k);
        if (used > 1u) b4[u] += partial(s1, k);
        if (used > 2u) c4[u] += partial(s2, k);
      }
    }
  }
  T a = (a4[0] + a4[1]) + (a4[2] + a4[3]);
  T b = (b4[0] + b4[1]) + (b4[2] + b4[3]);
  T c = (c4[0] + c4[1]) + (c4[2] + c4[3]);
  workgroup_sum3(a, b, c);
  if (gl_LocalInvocationID.x != 0u) return;

  const uint64_t st = pc.state_addr;
  const uint max_it = pc.max_iterations;
  if (init) {
    // a = r.r = b.b (x starts at 0); b = r.z (CG).
    const T tol2 = T_FROM_BITS(pc.tol2_bits);
    set_state_scalar(st, S_RR, a);
    set_state_scalar(st, S_BB, a);
    set_state_scalar(st, S_THR, tol2 * a);
    set_state_scalar(st, S_ALPHA, T(1));
    set_state_scalar(st, S_BETA, T(0));
    set_state_scalar(st, S_OMEGA, T(1));
    const T rho = op == SOP_CG_INIT ? b : a;
    set_state_scalar(st, S_RHO, rho);
    set_state_word(st, W_ITERATIONS, 0u);
    set_state_word(st, W_STATUS, STOP_RUNNING);
    set_state_word(st, W_CAUSE, CAUSE_NONE);
    set_state_word(st, W_X_PENDING, 0u);
    if (!finite(a)) stop(STOP_BREAKDOWN, CAUSE_RESIDUAL);
    else if (a == T(0) || a <= tol2 * a) stop(STOP_CONVERGED, CAUSE_NONE);
    else if (max_it == 0u) stop(STOP_ITERATION_LIMIT, CAUSE_NONE);
    else if (rho == T(0) || !finite(rho)) stop(STOP_BREAKDOWN, CAUSE_RHO);
    return;
  }
  const T thr = state_scalar(st, S_THR);
  const T rho = state_scalar(st, S_RHO);
  switch (op) {
    case SOP_CG_ALPHA:
    case SOP_BI_ALPHA: {  // a = p.q (CG) or r0.v (BiCGSTAB)
      const T alpha = rho / a;
      const bool ok = a != T(0) && finite(a) && finite(alpha);
      if (!ok)
        stop(STOP_BREAKDOWN, op == SOP_CG_ALPHA ? CAUSE_PAP : CAUSE_R0V);
      else
        set_state_scalar(st, S_ALPHA, alpha);
      if (op == SOP_CG_ALPHA) set_state_word(st, W_X_PENDING, ok ? 1u : 0u);
      break;
    }
    case SOP_BI_OMEGA: {  // a = s.s, b = t.s, c = t.t
      if (finite(a) && a <= thr) {
        set_state_scalar(st, S_OMEGA, T(0));  // the half step reaches the tolerance
      } else {
        const T omega = b / c;
        if (c == T(0) || !finite(c) || !finite(b) || !finite(omega))
          stop(STOP_BREAKDOWN, CAUSE_OMEGA);
        else
          set_state_scalar(st, S_OMEGA, omega);
      }
      break;
    }
    case SOP_CG_BETA:
    case SOP_BI_END: {  // a = r.r, b = r.z (CG) or r0.r (BiCGSTAB)
      const uint it = state_word(st, W_ITERATIONS) + 1u;
      set_state_word(st, W_ITERATIONS, it);
      set_state_scalar(st, S_RR, a);
      if (!finite(a)) {
        stop(STOP_BREAKDOWN, CAUSE_RESIDUAL);
      } else if (a <= thr) {
        stop(STOP_CONVERGED, CAUSE_NONE);
      } else if (it >= max_it) {
        stop(STOP_ITERATION_LIMIT, CAUSE_NONE);
      } else if (b == T(0) || !finite(b)) {
        stop(STOP_BREAKDOWN, CAUSE_RHO);
      } else if (op == SOP_CG_BETA) {
        set_state_scalar(st, S_BETA, b / rho);
        set_state_scalar(st, S_RHO, b);
      } else {
        const T omega = state_scalar(st, S_OMEGA);
        const T beta = (b / rho) * (state_scalar(st, S_ALPHA) / omega);
        if (omega == T(0) || !finite(beta)) {
          stop(STOP_BREAKDOWN, CAUSE_OMEGA);
        } else {
          set_state_scalar(st, S_BETA, beta);
          set_state_scalar(st, S_RHO, b);
        }
      }
      break;
    }
  }
}
