#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV pass 4: finishes the rows that cross tile boundaries (spmv_tiles.comp). `carry_scan` is
// the inclusive segmented sum, over tiles, of each tile's open-row partial (head = the tile saw
// a row end), so carry_scan[t - 1] is everything the row open at tile t's start gathered
// before tile t. A tile flagged in `fix` ends that row: y[row] = alpha * (carry + head) + beta * y.
// One invocation per tile; each row has exactly one writer.
#include "vkprim.glsl"
#include "value_type.glsl"

layout(push_constant) uniform Push {
  uint64_t y_addr;
  uint64_t coords_addr;      // tiles + 1 u32 row coordinates
  uint64_t carry_scan_addr;  // tiles T
  uint64_t head_addr;        // tiles T
  uint64_t fix_addr;         // tiles u32
  uint64_t alpha_bits;
  uint64_t beta_bits;
  uint tiles;
  uint flags;                // bit 0: beta is zero
} pc;

void main() {
  const uint per_group = WG_SIZE * ITEMS;
  const uint groups_needed = (pc.tiles + per_group - 1) / per_group;
  const T alpha = T_FROM_BITS(pc.alpha_bits);
  const T beta = T_FROM_BITS(pc.beta_bits);
  FOR_EACH_TILE(group, groups_needed) {
    for (uint k = 0; k < ITEMS; ++k) {
      const uint t = group * per_group + k * WG_SIZE + gl_LocalInvocationID.x;
      if (t == 0u || t >= pc.tiles) continue;
      if (U32Buf(pc.fix_addr + uint64_t(t) * 4ul).v[0] == 0u) continue;
      const uint row = U32Buf(pc.coords_addr + uint64_t(t) * 4ul).v[0];
      const T sum = TBuf(pc.carry_scan_addr + uint64_t(t - 1u) * T_SIZE).v[0] +
                    TBuf(pc.head_addr + uint64_t(t) * T_SIZE).v[0];
      TBuf yb = TBuf(pc.y_addr + uint64_t(row) * T_SIZE);
      yb.v[0] = (pc.flags & 1u) != 0u ? alpha * sum : alpha * sum + beta * yb.v[0];
    }
  }
}
