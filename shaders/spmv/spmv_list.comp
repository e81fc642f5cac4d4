#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV, split kernel (SpmvKernel::split, include/vkprim/sparse/spmv.hpp): lists the rows the
// row kernel leaves to spmv_long.comp, from the row pointer alone. A row longer than
// long_threshold entries goes to the long-row list, or to the huge-row list when it is longer
// than huge_threshold; each list is row indices, its length a u32 count of its own (the two
// counts side by side, zeroed before this pass: one fill for every list of a product).
// Each invocation looks at ITEMS rows per tile of WG_SIZE * ITEMS (grid-stride) and appends a
// long row by an integer atomic: a list's order may vary from run to run, but spmv_long.comp's
// sums do not depend on it. Listing apart from the row kernel lets the long rows' pass run
// alongside it (no barrier between the two: they write different elements of y).
#include "vkprim.glsl"
#include "csr.glsl"

#define PUSH_SPMV_LIST  // pc: push.h's SpmvListPush
#include "push.h"

void main() {
  const uint per_group = WG_SIZE * ITEMS;
  const uint groups_needed = uint((uint64_t(pc.rows) + per_group - 1ul) / per_group);
  FOR_EACH_TILE(group, groups_needed) {
    [[unroll]] for (uint i = 0u; i < ITEMS; ++i) {
      const uint64_t r = uint64_t(group) * per_group + i * WG_SIZE + gl_LocalInvocationID.x;
      if (r >= uint64_t(pc.rows)) continue;
      const uint64_t len = row_ptr_at(pc.row_ptr_addr, r + 1ul) - row_ptr_at(pc.row_ptr_addr, r);
      if (len > uint64_t(pc.long_threshold)) {
        const bool huge = len > uint64_t(pc.huge_threshold);
        const uint slot = atomicAdd(U32Buf(pc.counts_addr).v[huge ? 1 : 0], 1u);
        U32Buf(huge ? pc.huge_addr : pc.long_addr).v[slot] = uint(r);
      }
    }
  }
}
