#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, per digit pass, step 3 of reduce-then-scan (Merrill & Grimshaw 2011): each
// workgroup ranks the keys of its tile stably by digit and scatters them (and their values)
// to the tile's first position of digit d (its group's offset of d, radix_offsets.comp, plus
// the tile's prefix of d within the group, radix_upsweep.comp) + their rank among the tile's keys of
// digit d. The ranking and the scatter (the subgroup match multisplit, _sg, or 2-bit split
// scans in shared memory, _wg) are sort/radix_rank.glsl, shared with the single-pass
// radix_onesweep.comp.
//
// One tile per workgroup (2-D grid). A trivial pass, or `copy` set, copies the tile instead.
// RADIX_WIDE (sorts of 2^32 keys and more): the key count is n + 2^32 n_hi, the offsets are
// u64 (radix_offsets.comp's RADIX_WIDE build) and the positions 64-bit (RADIX_POS).
#include "vkprim.glsl"
#include "radix.glsl"
#include "radix_rank.glsl"

#define PUSH_RADIX_DOWNSWEEP  // pc: push.h's RadixDownsweepPush
#include "push.h"

#if defined(RADIX_WIDE)
// Digit d's offset in `group`, and the tile's packed prefix word w (64-bit addresses).
RADIX_POS digit_offset(uint d, uint groups, uint group) {
  return U64Buf(ELEM_ADDR(pc.offsets_addr, uint64_t(d) * groups + group, 8)).v[0];
}
uint prefix_word(uint tile, uint w) {
  return U32Buf(ELEM_ADDR(pc.prefix_addr, uint64_t(tile) * 128u + w, 4)).v[0];
}
#else
RADIX_POS digit_offset(uint d, uint groups, uint group) {
  return U32Buf(pc.offsets_addr).v[d * groups + group];
}
uint prefix_word(uint tile, uint w) { return U32Buf(pc.prefix_addr).v[tile * 128u + w]; }
#endif

#include "radix_pass.glsl"

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tile = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  if (tile >= pc.tiles) return;
#if defined(RADIX_WIDE)
  uint64_t n = (uint64_t(pc.n_hi) << 32) | uint64_t(pc.n);
  if (pc.count_addr != 0ul) {  // all 64 bits (a u64 count past 2^32 - 1), uniform by halves
    const uint64_t c = device_count(pc.count_addr, n);
    n = (uint64_t(UNIFORM(uint(c >> 32))) << 32) | uint64_t(UNIFORM(uint(c)));
  }
#else
  const uint n = UNIFORM(uint(call_count(pc.count_addr, pc.n)));
#endif
  const uint64_t first = uint64_t(tile) * TILE;
  if (first >= n) return;
  const uint valid = uint(min(uint64_t(n) - first, uint64_t(TILE)));
  const uint64_t kin = pc.keys_in + first * (4u * KEY_WORDS);
  const uint64_t vin = pc.values_in + first * (4u * VALUE_WORDS);
  // Whether the pass is a copy, tested only once the tile's loads are in flight: waiting for
  // this read first put its latency before every tile's loads.
  const bool trivial = pc.copy != 0u || radix_pass_trivial(pc.varying_addr, pc.shift, pc.bits);

#if defined(SUBGROUP)
  // Invocation w < 128 owns digits 2w and 2w + 1 in the scans; their global offsets (needed
  // only for the scatter) are loaded once the keys' loads are issued (a trivial pass does not
  // use them; a copy has none).
  const uint groups = (pc.tiles + pc.group_tiles - 1u) / pc.group_tiles, group = tile / pc.group_tiles;
  RADIX_POS off_lo = RADIX_POS(0), off_hi = RADIX_POS(0);
  rank_load(KeyBuf(kin), valid);
  if (lid < 128u && pc.copy == 0u) {
    const uint prefix = prefix_word(tile, lid);
    off_lo = digit_offset(2u * lid, groups, group) + (prefix & 0xFFFFu);
    off_hi = digit_offset(2u * lid + 1u, groups, group) + (prefix >> 16);
  }
#else
  if (pc.copy == 0u) {
    const uint groups = (pc.tiles + pc.group_tiles - 1u) / pc.group_tiles, group = tile / pc.group_tiles;
    for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE)
      s_off[d] = digit_offset(d, groups, group) + ((prefix_word(tile, d / 2u) >> (16u * (d & 1u))) & 0xFFFFu);
  }
  rank_wg_load(KeyBuf(kin), valid, RADIX_FLAGS, pc.shift, pc.bits);
#endif
  if (UNIFORM(trivial)) {
    radix_copy_tile(kin, pc.keys_out + first * (4u * KEY_WORDS), vin, pc.values_out + first * (4u * VALUE_WORDS), valid);
    return;
  }
#if defined(SUBGROUP)
  const uint pair = rank_match(valid, RADIX_FLAGS, pc.shift, pc.bits);
  const uint start = rank_positions(pair);
  if (lid < 128u) {
    s_base[2u * lid] = off_lo - start;
    s_base[2u * lid + 1u] = off_hi - (start + (pair & 0xFFFFu));
  }
  rank_scatter(pc.keys_out, vin, pc.values_out, valid, RADIX_FLAGS, pc.shift, pc.bits);
#else
  rank_wg_sort(valid, pc.bits);
  rank_wg_scatter(kin, pc.keys_out, vin, pc.values_out, valid);
#endif
}
