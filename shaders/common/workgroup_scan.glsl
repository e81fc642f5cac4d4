// Workgroup layer: one Agg per invocation scanned or reduced across the workgroup. All
// invocations must call these in uniform control flow (they contain barriers); shared memory
// is reused, so results must be read before the next call.
//   SUBGROUP defined: subgroup scans, then the subgroup totals scanned by subgroup 0.
//   otherwise:        a Hillis-Steele scan in shared memory (no subgroup operations at all).
#ifndef VKPRIM_WORKGROUP_SCAN_GLSL
#define VKPRIM_WORKGROUP_SCAN_GLSL

#if defined(SUBGROUP)
#include "subgroup_scan.glsl"
#endif

shared Agg wg_scratch[gl_WorkGroupSize.x];

// The shared-memory path (Hillis-Steele), available in every build: no subgroup operations, so
// it is also safe inside loops whose uniformity the compiler cannot see (look-back fallback).
Agg workgroup_exclusive_scan_shared(Agg x, out Agg total) {
  const uint lid = gl_LocalInvocationID.x;
  wg_scratch[lid] = x;
  barrier();
  for (uint d = 1; d < gl_WorkGroupSize.x; d <<= 1) {
    Agg v = lid >= d ? agg_combine(wg_scratch[lid - d], wg_scratch[lid]) : wg_scratch[lid];
    barrier();
    wg_scratch[lid] = v;
    barrier();
  }
  Agg excl = lid == 0 ? agg_identity() : wg_scratch[lid - 1];
  total = wg_scratch[gl_WorkGroupSize.x - 1];
  barrier();
  return excl;
}

Agg workgroup_reduce_shared(Agg x) {
  Agg total;
  workgroup_exclusive_scan_shared(x, total);
  return total;
}

#if defined(SUBGROUP)
// Given each subgroup's total (the same in all its invocations), returns the combination of the
// totals of the subgroups before this one; `total` receives all of them combined.
Agg workgroup_scan_subgroup_totals(Agg subgroup_total, out Agg total) {
  if (gl_SubgroupInvocationID == 0u) wg_scratch[gl_SubgroupID] = subgroup_total;
  barrier();
  if (gl_SubgroupID == 0u) {
    // Scan the subgroup totals, a subgroup-sized chunk at a time (there may be more totals
    // than lanes when subgroups are small).
    Agg carry = agg_identity();
    for (uint base = 0; base < gl_NumSubgroups; base += gl_SubgroupSize) {
      const uint i = base + gl_SubgroupInvocationID;
      Agg v = i < gl_NumSubgroups ? wg_scratch[i] : agg_identity();
      Agg s = subgroup_inclusive(v);
      Agg chunk = subgroup_reduce(v);
      if (i < gl_NumSubgroups) wg_scratch[i] = agg_combine(carry, s);
      carry = agg_combine(carry, chunk);
    }
  }
  barrier();
  Agg before = gl_SubgroupID == 0u ? agg_identity() : wg_scratch[gl_SubgroupID - 1u];
  total = wg_scratch[gl_NumSubgroups - 1u];
  barrier();
  return before;
}
#endif

// Returns the exclusive prefix of x over the invocations before this one; `total` receives the
// combination of all of them (the same in every invocation).
Agg workgroup_exclusive_scan(Agg x, out Agg total) {
#if defined(SUBGROUP)
  Agg subgroup_total;
  const Agg excl = subgroup_exclusive_total(x, subgroup_total);
  const Agg before = workgroup_scan_subgroup_totals(subgroup_total, total);
  return agg_combine(before, excl);
#else
  return workgroup_exclusive_scan_shared(x, total);
#endif
}

// The combination of every invocation's x, in invocation order, in every invocation.
Agg workgroup_reduce(Agg x) {
#if defined(SUBGROUP)
  Agg s = subgroup_reduce(x);
  if (gl_SubgroupInvocationID == 0) wg_scratch[gl_SubgroupID] = s;
  barrier();
  Agg total = agg_identity();
  for (uint i = 0; i < gl_NumSubgroups; ++i) total = agg_combine(total, wg_scratch[i]);
  barrier();
  return total;
#else
  return workgroup_reduce_shared(x);
#endif
}

#endif
