#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, per digit pass, step 3 of reduce-then-scan (Merrill & Grimshaw 2011): each
// workgroup ranks the keys of its tile stably by digit and scatters them (and their values)
// to offsets[d * tiles + tile] + their rank among the tile's keys of digit d.
//
// Ranking is a local LSD sort of the tile in shared memory by 2-bit splits (Satish, Harris &
// Garland 2009): entries (digit << 16 | index in tile) are reordered stably by bits 0-1 of the
// digit, then 2-3, ... Each split is one workgroup exclusive scan of four packed 16-bit counters
// (common/counts_scan.glsl), so it works at any subgroup size, or with no subgroup operations at
// all. Afterwards the entries are in digit order; the tile's run of digit d starts where the
// digit changes, and consecutive invocations write consecutive outputs within a run. Keys and
// values are re-read by their index in the tile (the tile was just read: cache hits).
//
// One tile per workgroup (2-D grid). A trivial pass, or `copy` set, copies the tile instead.
#include "vkprim.glsl"
#include "radix.glsl"
#include "counts_scan.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_in;
  uint64_t keys_out;
  uint64_t values_in;    // 0: keys only
  uint64_t values_out;
  uint64_t hist_addr;
  uint64_t offsets_addr; // 256 * tiles u32: the exclusive scan of radix_upsweep's counts
  uint64_t count_addr;
  uint n;
  uint tiles;
  uint flags;
  uint shift;
  uint bits;
  uint pass;
  uint copy;             // nonzero: copy keys and values (a sort with no bits to sort)
} pc;

#if VALUE_WORDS == 1
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ValBuf { uint v[]; };
#elif VALUE_WORDS == 2
layout(buffer_reference, std430, buffer_reference_align = 8) buffer ValBuf { uvec2 v[]; };
#endif

#define TILE (WG_SIZE * ITEMS)
shared uint s_ent[TILE];        // digit << 16 | index in tile
shared uint s_off[RADIX_DIGITS];
shared uint s_start[RADIX_DIGITS];
shared uint s_trivial;

#include "radix_pass.glsl"

uint field(uvec2 c, uint b) { return ((b < 2u ? c.x : c.y) >> (16u * (b & 1u))) & 0xFFFFu; }
uvec2 unit(uint b) { return uvec2(b == 0u ? 1u : b == 1u ? 0x10000u : 0u, b == 2u ? 1u : b == 3u ? 0x10000u : 0u); }

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tile = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (tile >= pc.tiles) return;
  const uint n = UNIFORM(pc.count_addr != 0ul ? U32Buf(pc.count_addr).v[0] : pc.n);
  const uint64_t first = uint64_t(tile) * TILE;
  if (first >= n) return;
  const uint valid = uint(min(uint64_t(n) - first, uint64_t(TILE)));
  KeyBuf kin = KeyBuf(pc.keys_in + first * (4u * KEY_WORDS));
  KeyBuf kout = KeyBuf(pc.keys_out);
#if VALUE_WORDS > 0
  ValBuf vin = ValBuf(pc.values_in + first * (4u * VALUE_WORDS));
  ValBuf vout = ValBuf(pc.values_out);
#endif

  if (lid == 0u)
    s_trivial = pc.copy != 0u || radix_pass_trivial(KeyBuf(pc.keys_in), pc.hist_addr, pc.pass, n, pc.flags, pc.shift, pc.bits) ? 1u : 0u;
  barrier();
  if (UNIFORM(s_trivial) != 0u) {
    for (uint k = 0u; k < ITEMS; ++k) {
      const uint j = lid + k * WG_SIZE;
      if (j < valid) {
        kout.v[uint(first) + j] = kin.v[j];
#if VALUE_WORDS > 0
        vout.v[uint(first) + j] = vin.v[j];
#endif
      }
    }
    return;
  }

  // Entries in input order (coalesced loads); items past `valid` get the largest digit, so the
  // stable splits leave them after every key.
  for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE) s_off[d] = U32Buf(pc.offsets_addr).v[d * pc.tiles + tile];
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = lid + k * WG_SIZE;
    const uint d = j < valid ? radix_digit(radix_transform(kin.v[j], pc.flags), pc.shift, pc.bits) : 0xFFu;
    s_ent[j] = (d << 16) | j;
  }
  barrier();

  // Stable 2-bit splits; invocation i holds entries [i * ITEMS, (i + 1) * ITEMS).
  const uint rounds = UNIFORM((pc.bits + 1u) / 2u);
  for (uint r = 0u; r < rounds; ++r) {
    const uint sh = 16u + 2u * r;
    uint e[ITEMS];
    uint before[ITEMS];  // earlier entries of this invocation with the same 2 bits
    uvec2 c = uvec2(0u);
    for (uint k = 0u; k < ITEMS; ++k) {
      e[k] = s_ent[lid * ITEMS + k];
      const uint b = (e[k] >> sh) & 3u;
      before[k] = field(c, b);
      c += unit(b);
    }
    uvec2 total;
    const uvec2 excl = counts_exclusive_scan(c, total);  // barriers: every read above is done
    const uint t0 = total.x & 0xFFFFu, t1 = total.x >> 16, t2 = total.y & 0xFFFFu;
    const uint start[4] = uint[4](0u, t0, t0 + t1, t0 + t1 + t2);
    for (uint k = 0u; k < ITEMS; ++k) {
      const uint b = (e[k] >> sh) & 3u;
      s_ent[start[b] + field(excl, b) + before[k]] = e[k];
    }
    barrier();
  }

  // Where each digit's run starts in the sorted tile.
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
      const uint d = s_ent[p] >> 16;
      if (p == 0u || (s_ent[p - 1u] >> 16) != d) s_start[d] = p;
    }
  }
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
      const uint e = s_ent[p];
      const uint d = e >> 16, j = e & 0xFFFFu;
      const uint dst = s_off[d] + (p - s_start[d]);
      kout.v[dst] = kin.v[j];
#if VALUE_WORDS > 0
      vout.v[dst] = vin.v[j];
#endif
    }
  }
}
