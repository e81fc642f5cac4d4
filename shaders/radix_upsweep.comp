#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, per digit pass, step 1 of reduce-then-scan (Merrill & Grimshaw 2011): the digit
// counts of every tile, written digit-major, counts[d * tiles + tile], so that one exclusive
// scan of the array gives every (digit, tile) its first output position. Each workgroup counts
// GROUP_TILES consecutive tiles (one row of shared counters per tile), so that its writes of a
// digit's counts fill whole 32-byte sectors: one tile per workgroup wrote 4 bytes per sector,
// partial writes that cost an H200 about a third of the pass. Tiles at or past the key count
// write zeros (a count read from the GPU is at most the `tiles` the host sized for). A trivial
// pass (every key has the same digit) writes nothing: the downsweep copies instead.
#include "vkprim.glsl"
#include "radix.glsl"

layout(constant_id = 2) const uint GROUP_TILES = 8;

layout(push_constant) uniform Push {
  uint64_t keys_addr;
  uint64_t varying_addr; // radix_histogram.comp's varying words
  uint64_t counts_addr;  // 256 * tiles u32
  uint64_t count_addr;
  uint n;
  uint tiles;
  uint shift;            // first bit of this pass's digit
  uint bits;             // digit width, 1..8
} pc;

shared uint s_hist[GROUP_TILES * RADIX_DIGITS];  // tile j of the group: [j * 256, (j + 1) * 256)
shared uint s_trivial;

#include "radix_pass.glsl"

void main() {
  const uint lid = gl_LocalInvocationID.x;
  // 2-D grid: workgroup (x, y) counts the tiles from (x + y * width) * GROUP_TILES on.
  const uint first_tile = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * GROUP_TILES;
  const uint n = pc.count_addr != 0ul ? U32Buf(pc.count_addr).v[0] : pc.n;
  if (lid == 0u) s_trivial = radix_pass_trivial(pc.varying_addr, pc.shift, pc.bits) ? 1u : 0u;
  for (uint i = lid; i < GROUP_TILES * RADIX_DIGITS; i += WG_SIZE) s_hist[i] = 0u;
  barrier();
  if (s_trivial != 0u) return;
  KeyBuf keys = KeyBuf(pc.keys_addr);
  for (uint j = 0u; j < GROUP_TILES && first_tile + j < pc.tiles &&
                   uint64_t(first_tile + j) * (WG_SIZE * ITEMS) < n; ++j) {
    // Every load of the tile in flight before the first atomic.
    const uint64_t base = uint64_t(first_tile + j) * (WG_SIZE * ITEMS) + lid;
    Key key[ITEMS];
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint64_t i = base + k * WG_SIZE;
      key[k] = i < n ? keys.v[uint(i)] : Key(0);
    }
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      if (base + k * WG_SIZE < n) {
        const uint d = radix_digit(radix_transform(key[k], RADIX_FLAGS), pc.shift, pc.bits);
        atomicAdd(s_hist[j * RADIX_DIGITS + d], 1u);
      }
    }
  }
  barrier();
  // Consecutive invocations write one digit's counts of consecutive tiles.
  for (uint i = lid; i < GROUP_TILES * RADIX_DIGITS; i += WG_SIZE) {
    const uint d = i / GROUP_TILES, j = i % GROUP_TILES;
    if (first_tile + j < pc.tiles)
      U32Buf(pc.counts_addr).v[d * pc.tiles + first_tile + j] = s_hist[j * RADIX_DIGITS + d];
  }
}
