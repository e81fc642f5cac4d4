// Fixed-order sums over a workgroup in shared memory, for the deterministic dot products of the
// Krylov solvers (shaders/solvers/): every invocation's value goes into shared memory, and a
// tree of halving strides (d = WG_SIZE / 2, ..., 1: slot i += slot i + d) adds them in the same
// order on every run, whatever the subgroup size (no subgroup operations). Requires T
// (value_type.glsl) and a power-of-two workgroup size. Every invocation of the workgroup calls
// it, in uniform control flow; every invocation receives the sums. WORKGROUP_SUM_ONE: only
// workgroup_sum1 (one shared array instead of three).
#ifndef VKPRIM_WORKGROUP_SUM_GLSL
#define VKPRIM_WORKGROUP_SUM_GLSL

shared T s_wg_sum0[gl_WorkGroupSize.x];

void workgroup_sum1(inout T a) {
  const uint lid = gl_LocalInvocationID.x;
  s_wg_sum0[lid] = a;
  barrier();
  for (uint d = WG_SIZE / 2u; d > 0u; d >>= 1u) {
    if (lid < d) s_wg_sum0[lid] += s_wg_sum0[lid + d];
    barrier();
  }
  a = s_wg_sum0[0];
  barrier();  // the array may be written again after this call
}

#if !defined(WORKGROUP_SUM_ONE)
shared T s_wg_sum1[gl_WorkGroupSize.x];
shared T s_wg_sum2[gl_WorkGroupSize.x];

void workgroup_sum3(inout T a, inout T b, inout T c) {
  const uint lid = gl_LocalInvocationID.x;
  s_wg_sum0[lid] = a;
  s_wg_sum1[lid] = b;
  s_wg_sum2[lid] = c;
  barrier();
  for (uint d = WG_SIZE / 2u; d > 0u; d >>= 1u) {
    if (lid < d) {
      s_wg_sum0[lid] += s_wg_sum0[lid + d];
      s_wg_sum1[lid] += s_wg_sum1[lid + d];
      s_wg_sum2[lid] += s_wg_sum2[lid + d];
    }
    barrier();
  }
  a = s_wg_sum0[0];
  b = s_wg_sum1[0];
  c = s_wg_sum2[0];
  barrier();  // the arrays may be written again after this call
}
#endif

#endif
