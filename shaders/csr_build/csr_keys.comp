#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build, pass 1: sort keys from COO triplets, keys[i] = row << col_bits | col (the values
// are the sort's payload, read straight from the triplets: the stable sort keeps duplicates in
// input order). An entry outside rows x cols sets bit 0 of the status word and is keyed as
// (0, 0), so nothing is ever addressed out of bounds.
// The pass also does the radix sort's upfront count of the keys it makes
// (common/radix_upfront.glsl: the varying key bits, and with onesweep every digit pass's
// histogram; csr_keys_varying_k* the bits only), so the sort does not read them again. Its grid
// is bounded (grid-stride) as that pass's.
#include "vkprim.glsl"
#include "csr_build.glsl"
#include "radix_upfront.glsl"

#define PUSH_CSR_KEYS  // pc: push.h's KeysPush
#include "push.h"

void main() {
  Upfront u = upfront_begin(pc.passes);
  const uint tile_items = WG_SIZE * ITEMS;
  FOR_EACH_TILE(tile, (pc.n + tile_items - 1u) / tile_items) {
    const uint base = tile * tile_items + gl_LocalInvocationID.x;
    uint r[ITEMS], c[ITEMS];  // every load of the tile in flight before the first store
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = base + k * WG_SIZE;
      r[k] = i < pc.n ? u32_at(pc.rows_addr, i) : 0u;
      c[k] = i < pc.n ? u32_at(pc.cols_addr, i) : 0u;
    }
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = base + k * WG_SIZE;
      if (i >= pc.n) continue;
      if (r[k] >= pc.rows || c[k] >= pc.cols) {
        atomicOr(U32Buf(pc.status_addr).v[0], 1u);
        r[k] = 0u;
        c[k] = 0u;
      }
      const KEY key = (KEY(r[k]) << pc.col_bits) | KEY(c[k]);
      KeyBuf(pc.keys_addr + uint64_t(i) * KEY_BYTES).v[0] = key;
      upfront_count(u, radix_transform(key, pc.sort_flags), 0u, pc.end_bit, pc.passes);
    }
  }
  upfront_end(u, pc.passes, pc.hist_addr, pc.varying_addr);
}
