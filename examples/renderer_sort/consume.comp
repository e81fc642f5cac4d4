#version 460
// The application's consumer: draw slot s of the visible splats, back to front, gets the colour
// of the splat the sort put there (a hash of its index), for s below the visible count, which
// it reads on the GPU like the sort did.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32s { uint v[]; };
layout(push_constant) uniform Push {
  uint64_t sorted_values, count, colours;  // device addresses
} pc;

void main() {
  const uint s = gl_GlobalInvocationID.x;
  if (s >= U32s(pc.count).v[0]) return;
  const uint i = U32s(pc.sorted_values).v[s];
  U32s(pc.colours).v[s] = (i * 0x85EBCA6Bu) ^ (i >> 13);
}
