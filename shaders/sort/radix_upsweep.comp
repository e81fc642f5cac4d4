#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, per digit pass, step 1 of reduce-then-scan (Merrill & Grimshaw 2011), with the
// tiles' digit counts combined by groups of GROUP_TILES consecutive tiles, one group per
// workgroup (one row of shared counters per tile):
//   totals[d * groups + g]: the keys of digit d in group g, digit-major, so that one scan per
//     digit row (radix_offsets.comp) gives every (digit, group) its first output position;
//   digits[(g % stripes) * 256 + d] += the same: the pass's digit counts, in `stripes` copies
//     (one atomic add per digit and group; the copies spread the groups' atomics, which in one
//     copy of 256 words would all contend for the same addresses);
//   prefix[t * 128 + d / 2], 16 bits per digit (low half: the even digit): the keys of digit d
//     in the tiles of t's group before t, tile-major (coalesced writes and reads). A prefix is
//     below (GROUP_TILES - 1) * tile size < 2^16 (engine/sort/policy.hpp).
// The downsweep's tile t starts digit d at offsets[d * groups + t / GROUP_TILES] + prefix of d at
// t. Tiles at or past the key count count zero keys (a count read from the GPU is at most the
// `tiles` the host sized for). A trivial pass (every key has the same digit) writes nothing:
// the downsweep copies instead. RADIX_WIDE (sorts of 2^32 keys and more): the key count is
// n + 2^32 n_hi, and the prefixes and totals are addressed in 64 bits.
#include "vkprim.glsl"
#include "radix.glsl"

layout(constant_id = 2) const uint GROUP_TILES = 8;

#define PUSH_RADIX_UPSWEEP  // pc: push.h's RadixUpsweepPush
#include "push.h"

shared uint s_hist[GROUP_TILES * RADIX_DIGITS];  // tile j of the group: [j * 256, (j + 1) * 256)
shared uint s_trivial;

#include "radix_pass.glsl"

void main() {
  const uint lid = gl_LocalInvocationID.x;
  // 2-D grid: workgroup (x, y) counts the tiles from (x + y * width) * GROUP_TILES on.
  const uint first_tile = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * GROUP_TILES;
  if (first_tile >= pc.tiles) return;  // the 2-D grid's overshoot
#if defined(RADIX_WIDE)
  const uint64_t n = call_count(pc.count_addr, (uint64_t(pc.n_hi) << 32) | uint64_t(pc.n));
#else
  const uint n = uint(call_count(pc.count_addr, pc.n));
#endif
  if (lid == 0u) s_trivial = radix_pass_trivial(pc.varying_addr, pc.shift, pc.bits) ? 1u : 0u;
  for (uint i = lid; i < GROUP_TILES * RADIX_DIGITS; i += WG_SIZE) s_hist[i] = 0u;
  barrier();
  if (s_trivial != 0u) return;
  for (uint j = 0u; j < GROUP_TILES && first_tile + j < pc.tiles &&
                   uint64_t(first_tile + j) * (WG_SIZE * ITEMS) < n; ++j) {
    // Every load of the tile in flight before the first atomic.
    const uint64_t base = uint64_t(first_tile + j) * (WG_SIZE * ITEMS) + lid;
    KeyBuf keys = KeyBuf(ELEM_ADDR(pc.keys_addr, base - lid, KEY_SIZE));  // the tile's keys
    Key key[ITEMS];
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) key[k] = base + k * WG_SIZE < n ? keys.v[lid + k * WG_SIZE] : Key(0);
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      if (base + k * WG_SIZE < n) {
        const uint d = radix_digit(radix_transform(key[k], RADIX_FLAGS), pc.shift, pc.bits);
        atomicAdd(s_hist[j * RADIX_DIGITS + d], 1u);
      }
    }
  }
  barrier();
  // Within-group exclusive prefixes in place (one invocation per digit), and the group totals.
  const uint group = first_tile / GROUP_TILES, groups = (pc.tiles + GROUP_TILES - 1u) / GROUP_TILES;
  for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE) {
    uint sum = 0u;
    [[unroll]] for (uint j = 0u; j < GROUP_TILES; ++j) {
      const uint c = s_hist[j * RADIX_DIGITS + d];
      s_hist[j * RADIX_DIGITS + d] = sum;
      sum += c;
    }
#if defined(RADIX_WIDE)
    U32Buf(ELEM_ADDR(pc.totals_addr, uint64_t(d) * groups + group, 4)).v[0] = sum;
#else
    U32Buf(pc.totals_addr).v[d * groups + group] = sum;
#endif
    if (sum != 0u) atomicAdd(U32Buf(pc.digits_addr).v[(group % pc.stripes) * RADIX_DIGITS + d], sum);
  }
  barrier();
  for (uint i = lid; i < GROUP_TILES * (RADIX_DIGITS / 2u); i += WG_SIZE) {
    const uint j = i / (RADIX_DIGITS / 2u), d = 2u * (i % (RADIX_DIGITS / 2u));
    if (first_tile + j < pc.tiles)
#if defined(RADIX_WIDE)
      U32Buf(ELEM_ADDR(pc.prefix_addr, uint64_t(first_tile + j) * (RADIX_DIGITS / 2u) + d / 2u, 4)).v[0] =
#else
      U32Buf(pc.prefix_addr).v[(first_tile + j) * (RADIX_DIGITS / 2u) + d / 2u] =
#endif
          s_hist[j * RADIX_DIGITS + d] | (s_hist[j * RADIX_DIGITS + d + 1u] << 16);
  }
}
