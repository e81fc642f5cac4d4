#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build, pass 6: the long runs of rows that start at the same entry (empty rows; listed by
// csr_compact.comp, which writes the short ones itself): each listed run (first row, end row,
// value) gets one workgroup at a time, its invocations writing row_ptr[r] = value for
// r in [first, end), ITEMS rows each per step.
#include "vkprim.glsl"
#include "csr.glsl"

#define PUSH_CSR_ROW_PTR  // pc: push.h's RowPtrPush
#include "push.h"

void main() {
  const uint count = U32Buf(pc.gaps_addr).v[0];
  for (uint g = gl_WorkGroupID.x; g < count; g += gl_NumWorkGroups.x) {
    const uvec4 gap = U32x4Buf(pc.gaps_addr + 16ul).v[g];
    const uint64_t value = uint64_t(gap.z) | (uint64_t(gap.w) << 32);
    for (uint r = gap.x + gl_LocalInvocationID.x; r < gap.y; r += WG_SIZE * ITEMS)
      [[unroll]] for (uint k = 0u; k < ITEMS; ++k)
        if (r + k * WG_SIZE < gap.y) row_ptr_store(pc.row_ptr_addr, r + k * WG_SIZE, value);
  }
}
