// Subgroup layer: scans and reductions of one Agg per invocation across the subgroup, for any
// subgroup size (4 to 128). Compiled only in passes built with -DSUBGROUP (the device has
// subgroup arithmetic and relative shuffles): operators with intrinsics use them (agg.glsl),
// the others (compensated and segmented sums) a Hillis-Steele scan over relative shuffles.
// Passes built without SUBGROUP never include this file and use workgroup_scan.glsl's
// shared-memory path instead.
#ifndef VKPRIM_SUBGROUP_SCAN_GLSL
#define VKPRIM_SUBGROUP_SCAN_GLSL

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#if T_SIZE == 8
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#endif

#if defined(AGG_SUBGROUP_INCLUSIVE)
Agg subgroup_inclusive(Agg x) { return AGG_SUBGROUP_INCLUSIVE(x); }
Agg subgroup_exclusive(Agg x) { return AGG_SUBGROUP_EXCLUSIVE(x); }
Agg subgroup_reduce(Agg x) { return AGG_SUBGROUP_REDUCE(x); }
#else
Agg agg_shuffle_up(Agg a, uint delta) {
  uint w[4] = uint[4](0u, 0u, 0u, 0u);
  for (uint i = 0; i < AGG_WORDS; ++i) w[i] = subgroupShuffleUp(agg_word(a, i), delta);
  return agg_from_words(w);
}
Agg subgroup_inclusive(Agg x) {
  const uint lane = gl_SubgroupInvocationID;
  for (uint d = 1; d < gl_SubgroupSize; d <<= 1) {
    Agg y = agg_shuffle_up(x, d);
    if (lane >= d) x = agg_combine(y, x);
  }
  return x;
}
Agg subgroup_exclusive(Agg x) {
  Agg y = agg_shuffle_up(subgroup_inclusive(x), 1);
  return gl_SubgroupInvocationID == 0 ? agg_identity() : y;
}
Agg subgroup_reduce(Agg x) {
  // The last lane's inclusive value, read back by every lane (a relative shuffle "down").
  Agg incl = subgroup_inclusive(x);
  uint w[4] = uint[4](0u, 0u, 0u, 0u);
  for (uint i = 0; i < AGG_WORDS; ++i) w[i] = subgroupShuffleDown(agg_word(incl, i), gl_SubgroupSize - 1 - gl_SubgroupInvocationID);
  return agg_from_words(w);
}
#endif

// The exclusive scan of x across the subgroup and, in `total`, the combination of all of it.
// 4-byte operators with intrinsics use two of them (a 32-bit reduction is one instruction on
// some GPUs); the others take both from one inclusive scan: shifted up a lane, and the last
// lane's value read back by every lane, which halves the shuffles of a wider aggregate.
Agg subgroup_exclusive_total(Agg x, out Agg total) {
#if defined(AGG_SUBGROUP_INCLUSIVE) && T_SIZE == 4
  total = AGG_SUBGROUP_REDUCE(x);
  return AGG_SUBGROUP_EXCLUSIVE(x);
#else
  const Agg incl = subgroup_inclusive(x);
  const uint lane = gl_SubgroupInvocationID;
  uint up[4] = uint[4](0u, 0u, 0u, 0u), last[4] = uint[4](0u, 0u, 0u, 0u);
  for (uint i = 0; i < AGG_WORDS; ++i) {
    up[i] = subgroupShuffleUp(agg_word(incl, i), 1u);
    last[i] = subgroupShuffleDown(agg_word(incl, i), gl_SubgroupSize - 1u - lane);
  }
  total = agg_from_words(last);
  return lane == 0u ? agg_identity() : agg_from_words(up);
#endif
}

#endif
