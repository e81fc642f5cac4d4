#version 460
#extension GL_GOOGLE_include_directive : require
// out[i] = u64(in[i]) for i < n: a u32 image's elements as the u64 sums a one-row or one-column
// table then scans in place (engine/summed_area/summed_area.cpp). Grid-stride.
#include "vkprim.glsl"

#define PUSH_SAT_WIDEN  // pc: push.h's SatWidenPush
#include "push.h"

void main() {
  const uint64_t threads = uint64_t(gl_NumWorkGroups.x) * gl_NumWorkGroups.y * WG_SIZE;
  const uint64_t start =
      (uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x) * WG_SIZE + gl_LocalInvocationID.x;
  for (uint64_t i = start; i < pc.n; i += threads)
    U64Buf(ELEM_ADDR(pc.out_addr, i, 8)).v[0] = uint64_t(U32Buf(ELEM_ADDR(pc.in_addr, i, 4)).v[0]);
}
