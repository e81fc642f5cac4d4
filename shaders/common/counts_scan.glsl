// Workgroup exclusive sum of one uvec2 per invocation: packed counters (two 16-bit counts per
// word in the radix rank, a plain count in .x for compaction). All invocations must call it in
// uniform control flow; it contains barriers and reuses its shared memory.
//   SUBGROUP defined: subgroup sums, then the subgroup totals summed by subgroup 0 (any
//                     subgroup size: the totals are scanned a subgroup-sized chunk at a time).
//   otherwise:        a Hillis-Steele scan in shared memory.
#ifndef VKPRIM_COUNTS_SCAN_GLSL
#define VKPRIM_COUNTS_SCAN_GLSL

#if defined(SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

shared uvec2 cs_scratch[gl_WorkGroupSize.x];

uvec2 counts_exclusive_scan(uvec2 x, out uvec2 total) {
  const uint lid = gl_LocalInvocationID.x;
#if defined(SUBGROUP)
  const uvec2 excl = subgroupExclusiveAdd(x);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) cs_scratch[gl_SubgroupID] = excl + x;
  barrier();
  if (gl_SubgroupID == 0u) {
    uvec2 carry = uvec2(0u);
    for (uint base = 0u; base < gl_NumSubgroups; base += gl_SubgroupSize) {
      const uint i = base + gl_SubgroupInvocationID;
      const uvec2 v = i < gl_NumSubgroups ? cs_scratch[i] : uvec2(0u);
      const uvec2 s = subgroupInclusiveAdd(v);
      if (i < gl_NumSubgroups) cs_scratch[i] = carry + s;
      carry += subgroupAdd(v);
    }
  }
  barrier();
  const uvec2 before = gl_SubgroupID == 0u ? uvec2(0u) : cs_scratch[gl_SubgroupID - 1u];
  total = cs_scratch[gl_NumSubgroups - 1u];
  barrier();
  return before + excl;
#else
  cs_scratch[lid] = x;
  barrier();
  for (uint d = 1u; d < gl_WorkGroupSize.x; d <<= 1) {
    const uvec2 v = lid >= d ? cs_scratch[lid - d] + cs_scratch[lid] : cs_scratch[lid];
    barrier();
    cs_scratch[lid] = v;
    barrier();
  }
  const uvec2 excl = lid == 0u ? uvec2(0u) : cs_scratch[lid - 1u];
  total = cs_scratch[gl_WorkGroupSize.x - 1u];
  barrier();
  return excl;
#endif
}

#endif
