#version 460
#extension GL_GOOGLE_include_directive : require
// The Krylov solvers' vector passes (op in the push constants, the same for every invocation):
// the element-wise updates of CG and BiCGSTAB, each fused with the dot products that follow
// it and with the Jacobi preconditioner (z = inv_diag * r; none when inv_diag is 0, and then
// the plan passes z's address equal to r's, so z is never written). Element i of n belongs to
// invocation i mod (groups * WG_SIZE) of a fixed grid of `groups` workgroups; each invocation
// adds its products serially in element order, the workgroup adds its invocations' sums by the
// fixed tree of workgroup_sum.glsl and writes one partial sum per slot, partials[slot * groups
// + workgroup]: the same order on every run, so the sums are bit-identical run to run.
// Every op but the two initial ones and CG's p pass returns at once when the state's stop reason
// is set; the p pass returns when no x update is pending (solver_state.glsl, W_X_PENDING), and
// updates only x once the stop reason is set.
// CG's z = inv_diag * r is recomputed where it is read (the update's r.z and the p pass), never
// stored.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "workgroup_sum.glsl"
#include "solver_state.glsl"

// The vectors, by role (sparse/solvers/pass.hpp, SolverVec).
#define V_B 0
#define V_X 1
#define V_R 2
#define V_P 3
#define V_Q 4   // q = A p (CG), v = A y (BiCGSTAB)
#define V_Z 5   // M s (BiCGSTAB; s itself without a preconditioner)
#define V_R0 6
#define V_Y 7   // M p (BiCGSTAB); p itself without a preconditioner
#define V_S 8
#define V_T 9   // t = A z (BiCGSTAB)

#define PUSH_SOLVER_VECTOR  // pc: push.h's SolverVectorPush
#include "push.h"

T ld(uint64_t base, uint64_t i) { return TBuf(ELEM_ADDR(base, i, T_SIZE)).v[0]; }
void st(uint64_t base, uint64_t i, T x) { TBuf(ELEM_ADDR(base, i, T_SIZE)).v[0] = x; }

void main() {
  const uint op = pc.op;
  const bool init = op == OP_CG_INIT || op == OP_BI_INIT;
  // Dynamically uniform: every invocation reads the same word, written before this pass.
  const bool running = state_word(pc.state_addr, W_STATUS) == STOP_RUNNING;
  if (op == OP_CG_P) {
    if (state_word(pc.state_addr, W_X_PENDING) == 0u) return;
  } else if (!init && !running) {
    return;
  }
  const uint lid = gl_LocalInvocationID.x;
  const bool pre = pc.inv_diag_addr != 0ul;
  const uint64_t stride = uint64_t(pc.groups) * WG_SIZE;
  T alpha = T(0), beta = T(0), omega = T(0);
  if (!init) {
    alpha = state_scalar(pc.state_addr, S_ALPHA);
    beta = state_scalar(pc.state_addr, S_BETA);
    omega = state_scalar(pc.state_addr, S_OMEGA);
  }
  T acc0 = T(0), acc1 = T(0), acc2 = T(0);
  for (uint64_t i = uint64_t(gl_WorkGroupID.x) * WG_SIZE + lid; i < uint64_t(pc.n); i += stride) {
    switch (op) {
      case OP_CG_INIT: {  // r = b, x = 0, p = M r; r.r, r.z
        const T r = ld(pc.v[V_B], i);
        const T z = pre ? ld(pc.inv_diag_addr, i) * r : r;
        st(pc.v[V_R], i, r);
        st(pc.v[V_X], i, T(0));
        st(pc.v[V_P], i, z);
        acc0 += r * r;
        acc1 += r * z;
        break;
      }
      case OP_CG_DOT:  // p.q
        acc2 += ld(pc.v[V_P], i) * ld(pc.v[V_Q], i);
        break;
      case OP_CG_UPDATE: {  // r -= alpha q; r.r, r.z (z = M r)
        const T r = ld(pc.v[V_R], i) - alpha * ld(pc.v[V_Q], i);
        st(pc.v[V_R], i, r);
        const T z = pre ? ld(pc.inv_diag_addr, i) * r : r;
        acc0 += r * r;
        acc1 += r * z;
        break;
      }
      case OP_CG_P: {  // x += alpha p; then, while running, p = M r + beta p
        const T p = ld(pc.v[V_P], i);
        st(pc.v[V_X], i, ld(pc.v[V_X], i) + alpha * p);
        if (running) {
          const T r = ld(pc.v[V_R], i);
          const T z = pre ? ld(pc.inv_diag_addr, i) * r : r;
          st(pc.v[V_P], i, z + beta * p);
        }
        break;
      }
      case OP_BI_INIT: {  // r = r0 = b, x = p = v = 0; r.r
        const T r = ld(pc.v[V_B], i);
        st(pc.v[V_R], i, r);
        st(pc.v[V_R0], i, r);
        st(pc.v[V_X], i, T(0));
        st(pc.v[V_P], i, T(0));
        st(pc.v[V_Q], i, T(0));
        acc0 += r * r;
        break;
      }
      case OP_BI_P: {  // p = r + beta (p - omega v), y = M p
        const T p = ld(pc.v[V_R], i) + beta * (ld(pc.v[V_P], i) - omega * ld(pc.v[V_Q], i));
        st(pc.v[V_P], i, p);
        if (pre) st(pc.v[V_Y], i, ld(pc.inv_diag_addr, i) * p);
        break;
      }
      case OP_BI_DOT_R0V:  // r0.v
        acc2 += ld(pc.v[V_R0], i) * ld(pc.v[V_Q], i);
        break;
      case OP_BI_S: {  // s = r - alpha v, z = M s; s.s
        const T s = ld(pc.v[V_R], i) - alpha * ld(pc.v[V_Q], i);
        st(pc.v[V_S], i, s);
        if (pre) st(pc.v[V_Z], i, ld(pc.inv_diag_addr, i) * s);
        acc0 += s * s;
        break;
      }
      case OP_BI_DOT_T: {  // t.s, t.t
        const T t = ld(pc.v[V_T], i);
        acc0 += t * ld(pc.v[V_S], i);
        acc1 += t * t;
        break;
      }
      case OP_BI_X: {  // x += alpha y + omega z, r = s - omega t; r.r, r0.r
        // omega == 0 (s small enough to stop on): the half step, without reading z and t.
        const T y = ld(pc.v[V_Y], i);
        const T s = ld(pc.v[V_S], i);
        T x = ld(pc.v[V_X], i) + alpha * y;
        T r = s;
        if (omega != T(0)) {
          x += omega * ld(pc.v[V_Z], i);
          r = s - omega * ld(pc.v[V_T], i);
        }
        st(pc.v[V_X], i, x);
        st(pc.v[V_R], i, r);
        acc0 += r * r;
        acc1 += ld(pc.v[V_R0], i) * r;
        break;
      }
    }
  }
  workgroup_sum3(acc0, acc1, acc2);
  if (lid != 0u) return;
  const uint64_t g = uint64_t(pc.groups), w = uint64_t(gl_WorkGroupID.x);
  // The slots each op fills.
  uint s0 = 0xFFFFFFFFu, s1 = 0xFFFFFFFFu, s2 = 0xFFFFFFFFu;
  switch (op) {
    case OP_CG_INIT:
    case OP_CG_UPDATE:
    case OP_BI_X: s0 = SLOT_RR; s1 = SLOT_RZ; break;
    case OP_BI_INIT: s0 = SLOT_RR; break;
    case OP_CG_DOT:
    case OP_BI_DOT_R0V: s2 = SLOT_PQ; break;
    case OP_BI_S: s0 = SLOT_SS; break;
    case OP_BI_DOT_T: s0 = SLOT_TS; s1 = SLOT_TT; break;
  }
  if (s0 != 0xFFFFFFFFu) st(pc.partials_addr, uint64_t(s0) * g + w, acc0);
  if (s1 != 0xFFFFFFFFu) st(pc.partials_addr, uint64_t(s1) * g + w, acc1);
  if (s2 != 0xFFFFFFFFu) st(pc.partials_addr, uint64_t(s2) * g + w, acc2);
}
