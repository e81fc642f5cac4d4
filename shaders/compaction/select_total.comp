#version 460
#extension GL_GOOGLE_include_directive : require
// The allocation helper's total, one invocation: stage 0 (before the scan) saves counts[n - 1];
// stage 1 (after it) writes offsets[n - 1] + that count (0 when n is 0) to total_out as a u32
// or u64. Saving first lets the scan run in place.
#include "vkprim.glsl"

#define PUSH_SELECT_TOTAL  // pc: push.h's SelectTotalPush
#include "push.h"

void main() {
  if (gl_LocalInvocationID.x != 0u) return;
  const uint64_t n = call_count(pc.count_addr, pc.n);
  if (pc.stage == 0u) {
    U32Buf(pc.scratch_addr).v[0] = n != 0ul ? U32Buf(ELEM_ADDR(pc.counts_addr, n - 1ul, 4)).v[0] : 0u;
    return;
  }
  const uint total =
      n != 0ul ? U32Buf(ELEM_ADDR(pc.offsets_addr, n - 1ul, 4)).v[0] + U32Buf(pc.scratch_addr).v[0] : 0u;
  if (pc.total_u64 != 0u) U64Buf(pc.total_addr).v[0] = uint64_t(total);
  else U32Buf(pc.total_addr).v[0] = total;
}
