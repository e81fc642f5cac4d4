// The subgroup-striped tile arrangement of the single-pass scan and select (subgroup builds):
// subgroup s owns elements [s S ITEMS, (s + 1) S ITEMS) of the tile (S the subgroup size), and
// lane l holds its 16-byte vectors l, l + S, l + 2S, ... (VPI of them), so every load and store
// instruction of a subgroup moves one contiguous block, as the copy shader does. Needs full
// subgroups (the workgroup size a multiple of the subgroup size), value_type.glsl first.
#ifndef VKPRIM_SUBGROUP_STRIPED_GLSL
#define VKPRIM_SUBGROUP_STRIPED_GLSL

#extension GL_KHR_shader_subgroup_basic : require

#define VPI (ITEMS / T_PER_VEC4)  // 16-byte vectors per invocation

// Tile position of element e of this lane's vector j.
uint sg_element(uint j, uint e) {
  return ((gl_SubgroupID * VPI + j) * gl_SubgroupSize + gl_SubgroupInvocationID) * T_PER_VEC4 + e;
}

#endif
