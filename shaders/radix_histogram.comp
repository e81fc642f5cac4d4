#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, once per sort: the global histogram of every digit pass (Onesweep's upfront
// histogram, Adinets & Merrill 2022). hist[pass * 256 + d] counts the keys whose digit of that
// pass is d. The sort uses it only to find passes in which every key has the same digit: those
// passes become copies (radix_pass_trivial), decided on the GPU without a host round trip.
// Workgroups visit tiles grid-stride, count in shared memory (atomics, no barrier in the loop),
// then add their nonzero bins to the zeroed global histogram.
#include "vkprim.glsl"
#include "radix.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_addr;
  uint64_t hist_addr;   // passes * 256 u32, zeroed
  uint64_t count_addr;  // nonzero: the key count is the u32 there, not n
  uint n;
  uint flags;           // radix.glsl: key kind, descending
  uint begin_bit;
  uint end_bit;
  uint passes;          // <= 8
} pc;

shared uint s_hist[8u * RADIX_DIGITS];

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint n = pc.count_addr != 0ul ? U32Buf(pc.count_addr).v[0] : pc.n;
  for (uint i = lid; i < pc.passes * RADIX_DIGITS; i += WG_SIZE) s_hist[i] = 0u;
  barrier();
  KeyBuf keys = KeyBuf(pc.keys_addr);
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = uint((uint64_t(n) + tile_items - 1u) / tile_items);
  FOR_EACH_TILE(tile, tiles) {
    const uint64_t base = uint64_t(tile) * tile_items + lid;
    Key key[ITEMS];  // every load of the tile in flight before the first atomic
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint64_t i = base + k * WG_SIZE;
      key[k] = i < n ? keys.v[uint(i)] : Key(0);
    }
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      if (base + k * WG_SIZE < n) {
        const Key t = radix_transform(key[k], pc.flags);
        for (uint p = 0u; p < pc.passes; ++p) {
          const uint shift = pc.begin_bit + 8u * p;
          atomicAdd(s_hist[p * RADIX_DIGITS + radix_digit(t, shift, min(8u, pc.end_bit - shift))], 1u);
        }
      }
    }
  }
  barrier();
  for (uint i = lid; i < pc.passes * RADIX_DIGITS; i += WG_SIZE)
    if (s_hist[i] != 0u) atomicAdd(U32Buf(pc.hist_addr).v[i], s_hist[i]);
}
