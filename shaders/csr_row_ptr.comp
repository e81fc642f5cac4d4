#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build, pass 6: row pointer from the sorted row of each entry: row_ptr[r] = the number of
// entries in rows < r (a lower-bound binary search per row: balanced whatever the row lengths,
// no atomics). The entry count comes from the device word the compaction wrote.
#include "vkprim.glsl"
#include "csr_build.glsl"
#include "csr.glsl"

layout(push_constant) uniform Push {
  uint64_t row_of_addr, nnz_addr, row_ptr_addr;
  uint rows;
} pc;

void main() {
  const uint nnz = U32Buf(pc.nnz_addr).v[0];
  FOR_EACH_ITEM(r, pc.rows + 1u) {
    uint lo = 0u, hi = nnz;
    while (lo < hi) {
      const uint mid = lo + (hi - lo) / 2u;
      if (u32_at(pc.row_of_addr, mid) < r) lo = mid + 1u; else hi = mid;
    }
    row_ptr_store(pc.row_ptr_addr, r, lo);
  }
}
