#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, per digit pass, step 1 of reduce-then-scan (Merrill & Grimshaw 2011): each
// workgroup counts the digits of its tile (one tile per workgroup) and writes them digit-major,
// counts[d * tiles + tile], so that one exclusive scan of the array gives every (digit, tile)
// its first output position. Tiles at or past the key count write zeros (a count read from the
// GPU is at most the `tiles` the host sized for). A trivial pass (every key has the same
// digit) writes nothing: the downsweep copies instead.
#include "vkprim.glsl"
#include "radix.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_addr;
  uint64_t varying_addr; // radix_histogram.comp's varying words
  uint64_t counts_addr;  // 256 * tiles u32
  uint64_t count_addr;
  uint n;
  uint tiles;
  uint flags;
  uint shift;            // first bit of this pass's digit
  uint bits;             // digit width, 1..8
} pc;

shared uint s_hist[RADIX_DIGITS];
shared uint s_trivial;

#include "radix_pass.glsl"

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tile = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (tile >= pc.tiles) return;
  const uint n = UNIFORM(pc.count_addr != 0ul ? U32Buf(pc.count_addr).v[0] : pc.n);
  KeyBuf keys = KeyBuf(pc.keys_addr);
  if (lid == 0u) s_trivial = radix_pass_trivial(pc.varying_addr, pc.shift, pc.bits) ? 1u : 0u;
  for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE) s_hist[d] = 0u;
  barrier();
  if (UNIFORM(s_trivial) != 0u) return;
  // Every load issued before the first atomic (all of them in flight at once), then the counts.
  const uint64_t base = uint64_t(tile) * (WG_SIZE * ITEMS) + lid;
  Key key[ITEMS];
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint64_t i = base + k * WG_SIZE;
    key[k] = i < n ? keys.v[uint(i)] : Key(0);
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k)
    if (base + k * WG_SIZE < n) atomicAdd(s_hist[radix_digit(radix_transform(key[k], pc.flags), pc.shift, pc.bits)], 1u);
  barrier();
  for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE)
    U32Buf(pc.counts_addr).v[d * pc.tiles + tile] = s_hist[d];
}
