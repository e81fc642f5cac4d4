#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build, pass 5: compaction. The last element of each run holds the run's segmented sum;
// it goes to position pos[i] (exclusive scan of the end flags) as (column, value), with its row
// in row_of for the row-pointer pass. The last invocation writes the entry count.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr_build.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_addr, ends_addr, pos_addr, sums_addr, col_out_addr, val_out_addr, row_of_addr, nnz_addr;
  uint n, col_bits;
} pc;

void main() {
  FOR_EACH_ITEM(i, pc.n) {
    if (u32_at(pc.ends_addr, i) != 0u) {
      const KEY k = key_at(pc.keys_addr, i);
      const uint o = u32_at(pc.pos_addr, i);
      const KEY mask = pc.col_bits == 0u ? KEY(0) : (KEY(~KEY(0)) >> (KEY_BYTES * 8ul - pc.col_bits));
      u32_store(pc.col_out_addr, o, uint(k & mask));
      u32_store(pc.row_of_addr, o, uint(k >> pc.col_bits));
      TBuf(pc.val_out_addr + uint64_t(o) * T_SIZE).v[0] = TBuf(pc.sums_addr + uint64_t(i) * T_SIZE).v[0];
      if (i + 1u == pc.n) U32Buf(pc.nnz_addr).v[0] = o + 1u;
    }
  }
}
