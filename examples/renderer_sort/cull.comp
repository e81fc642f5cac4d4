#version 460
// The application's culling pass: splat i is visible in frame f unless (i * golden) >> 29 == 0
// (7 in 8 are); a visible splat appends its depth key and its index at the slot an atomic on
// the count gives it, so their order varies from run to run. Depth is 24 bits that are a
// bijection of i in every frame (an odd multiplier modulo 2^24), so no two splats tie.
//   key16 == 0: the key is the depth as an f32 in [0, 1), exact;
//   key16 == 1: the key is the depth's top 16 bits in a u32 (ties: what a 16-bit sort sees).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32s { uint v[]; };
layout(push_constant) uniform Push {
  uint64_t keys, values, count;  // device addresses
  uint n, frame, key16;
} pc;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n || ((i * 0x9E3779B9u) >> 29) == 0u) return;
  const uint depth = (i * 2654435761u + pc.frame * 40503u) & 0xFFFFFFu;
  const uint slot = atomicAdd(U32s(pc.count).v[0], 1u);
  U32s(pc.keys).v[slot] = pc.key16 != 0u ? depth >> 8 : floatBitsToUint(float(depth) / 16777216.0);
  U32s(pc.values).v[slot] = i;
}
