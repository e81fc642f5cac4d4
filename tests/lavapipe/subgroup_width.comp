#version 460
// How many invocations a compute subgroup holds, against what gl_SubgroupSize says, with the
// pipeline requiring full subgroups (subgroup_width.c). Word 0: gl_SubgroupSize; word 1:
// gl_NumSubgroups; word 2: subgroupAdd(1) in subgroup 0; word 3: the largest
// gl_SubgroupInvocationID + 1 of any invocation.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Out { uint w[4]; };
void main() {
  const uint members = subgroupAdd(1u);
  if (gl_LocalInvocationID.x == 0u) {
    w[0] = gl_SubgroupSize;
    w[1] = gl_NumSubgroups;
    w[2] = members;
  }
  atomicMax(w[3], gl_SubgroupInvocationID + 1u);
}
