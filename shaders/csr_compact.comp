#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build (sort path), pass 5: compaction. The last element of each run of equal keys sums
// the run serially from its first element (the stable sort kept the run in input order, so the
// sum is Eigen's, bit for bit) and writes (column, sum) at position pos[i] (exclusive scan of the
// end flags), with its row in row_of for the row-pointer pass. The last invocation writes the
// entry count.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr_build.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_addr, ends_addr, pos_addr, vals_addr, col_out_addr, val_out_addr, row_of_addr, nnz_addr;
  uint n, col_bits;
} pc;

void main() {
  FOR_EACH_ITEM(i, pc.n) {
    if (u32_at(pc.ends_addr, i) != 0u) {
      const KEY k = key_at(pc.keys_addr, i);
      uint h = i;
      while (h > 0u && key_at(pc.keys_addr, h - 1u) == k) --h;
      T sum = TBuf(pc.vals_addr + uint64_t(h) * T_SIZE).v[0];
      for (uint j = h + 1u; j <= i; ++j) sum += TBuf(pc.vals_addr + uint64_t(j) * T_SIZE).v[0];
      const uint o = u32_at(pc.pos_addr, i);
      const KEY mask = pc.col_bits == 0u ? KEY(0) : (KEY(~KEY(0)) >> (KEY_BYTES * 8ul - pc.col_bits));
      u32_store(pc.col_out_addr, o, uint(k & mask));
      u32_store(pc.row_of_addr, o, uint(k >> pc.col_bits));
      TBuf(pc.val_out_addr + uint64_t(o) * T_SIZE).v[0] = sum;
      if (i + 1u == pc.n) U32Buf(pc.nnz_addr).v[0] = o + 1u;
    }
  }
}
