#version 460
#extension GL_GOOGLE_include_directive : require
// CSR -> COO rows (for the transpose): row_of[k] = the row holding entry k, the largest r with
// row_ptr[r] <= k (a binary search per entry: balanced on long rows and empty rows alike), for
// the entries [first, first + nnz) of one dispatch (row_of_addr points at entry `first`'s).
#include "vkprim.glsl"
#include "csr_build.glsl"
#include "csr.glsl"

#define PUSH_CSR_EXPAND_ROWS  // pc: push.h's ExpandPush
#include "push.h"

void main() {
  FOR_EACH_ITEM(k, pc.nnz) {
    uint lo = 0u, hi = pc.rows - 1u;  // row_ptr[lo] <= k < row_ptr[rows]
    while (lo < hi) {
      const uint mid = hi - (hi - lo) / 2u;
      if (row_ptr_at(pc.row_ptr_addr, mid) <= pc.first + k) lo = mid; else hi = mid - 1u;
    }
    u32_store(pc.row_of_addr, k, lo);
  }
}
