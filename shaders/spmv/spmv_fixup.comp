#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV pass 4: finishes the rows that cross tile boundaries (spmv_tiles.comp). `carry_scan` is
// the inclusive segmented sum, over tiles, of each tile's open-row partial (head = the tile saw
// a row end), so carry_scan[t - 1] is everything the row open at tile t's start gathered
// before tile t. A tile flagged in `fix` ends that row: y[row] = alpha * (carry + head) + beta * y.
// One invocation per tile; each row has exactly one writer. When every row is shorter than a
// tile, every tile holds a row end (a tile without one is a tile of nonzeros of one row), so
// carry_scan[t - 1] = carry[t - 1] exactly (the segmented operator returns the item itself at a
// head): the host then skips the scan and passes the carries here (spmv.cpp).
#include "vkprim.glsl"
#include "value_type.glsl"
#include "spmv_value.glsl"

// COMPLEX build: y complex; carry_scan and head split by part (tiles real parts, then tiles
// imaginary parts: spmv_tiles.comp), read back into one complex value per tile.

#define PUSH_SPMV_FIXUP  // pc: push.h's SpmvFixupPush
#include "push.h"

void main() {
  const uint per_group = WG_SIZE * ITEMS;
  const uint groups_needed = (pc.tiles + per_group - 1) / per_group;
  const T alpha = T_FROM_BITS(pc.alpha_bits);
  const T beta = T_FROM_BITS(pc.beta_bits);
  const bool read_y = (pc.flags & 1u) == 0u;
  FOR_EACH_TILE(group, groups_needed) {
    // Every load of an item is issued before the first use of any (fixed trip counts): the
    // flag, row, carry and partial of each tile in one round trip, then the old y values.
    bool fix[ITEMS];
    uint row[ITEMS];
    V sum[ITEMS], y_old[ITEMS];
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint t = group * per_group + k * WG_SIZE + gl_LocalInvocationID.x;
      fix[k] = false;
      row[k] = 0u;
      sum[k] = V(0);
      if (t > 0u && t < pc.tiles) {
        fix[k] = U32Buf(pc.fix_addr + uint64_t(t) * 4ul).v[0] != 0u;
        row[k] = U32Buf(pc.coords_addr + uint64_t(t) * 4ul).v[0];
#if defined(COMPLEX)
        const uint64_t im = uint64_t(pc.tiles) * T_SIZE;  // offset of the imaginary parts
        sum[k] = V(TBuf(pc.carry_scan_addr + uint64_t(t - 1u) * T_SIZE).v[0] +
                       TBuf(pc.head_addr + uint64_t(t) * T_SIZE).v[0],
                   TBuf(pc.carry_scan_addr + im + uint64_t(t - 1u) * T_SIZE).v[0] +
                       TBuf(pc.head_addr + im + uint64_t(t) * T_SIZE).v[0]);
#else
        sum[k] = TBuf(pc.carry_scan_addr + uint64_t(t - 1u) * T_SIZE).v[0] +
                 TBuf(pc.head_addr + uint64_t(t) * T_SIZE).v[0];
#endif
      }
    }
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      y_old[k] = V(0);
      if (fix[k] && read_y) y_old[k] = VBuf(pc.y_addr + uint64_t(row[k]) * V_SIZE).v[0];
    }
    [[unroll]] for (uint k = 0; k < ITEMS; ++k)
      if (fix[k])
        VBuf(pc.y_addr + uint64_t(row[k]) * V_SIZE).v[0] =
            read_y ? alpha * sum[k] + beta * y_old[k] : alpha * sum[k];
  }
}
