#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build, pass 1: sort keys from COO triplets, keys[i] = row << col_bits | col (the values
// are the sort's payload, read straight from the triplets: the stable sort keeps duplicates in
// input order). An entry outside rows x cols sets bit 0 of the status word and is keyed as
// (0, 0), so nothing is ever addressed out of bounds.
#include "vkprim.glsl"
#include "csr_build.glsl"

layout(push_constant) uniform Push {
  uint64_t rows_addr, cols_addr, keys_addr, status_addr;
  uint n, rows, cols, col_bits;
} pc;

void main() {
  FOR_EACH_ITEM(i, pc.n) {
    uint r = u32_at(pc.rows_addr, i), c = u32_at(pc.cols_addr, i);
    if (r >= pc.rows || c >= pc.cols) {
      atomicOr(U32Buf(pc.status_addr).v[0], 1u);
      r = 0u;
      c = 0u;
    }
    KeyBuf(pc.keys_addr + uint64_t(i) * KEY_BYTES).v[0] = (KEY(r) << pc.col_bits) | KEY(c);
  }
}
