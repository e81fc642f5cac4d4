#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, per digit pass, step 3 of reduce-then-scan (Merrill & Grimshaw 2011): each
// workgroup ranks the keys of its tile stably by digit and scatters them (and their values)
// to offsets[d * tiles + tile] + their rank among the tile's keys of digit d.
//
// SUBGROUP (the _sg variants): match-based multisplit as in Onesweep (Adinets & Merrill 2022).
//   Subgroup s owns the contiguous run [s * S * ITEMS, (s + 1) * S * ITEMS) of the tile (S the
//   subgroup size); lane l loads elements l, l + S, l + 2S, ... of it (coalesced). For each item
//   in turn, eight ballots (one per digit bit) give every lane the lanes holding the same
//   digit (its peers, a uvec4 mask: any subgroup size up to 128). The subgroup's 256 digit
//   counters live in shared memory, 16 bits each, two per word; a key's rank among the
//   subgroup's keys of its digit is the counter before the item plus its peers on lower lanes,
//   and the lowest peer adds the peer count. Items past the key count take digit 0xFF (larger
//   than any digit), so they rank after every key and no branch surrounds a subgroup
//   operation. Then per digit an exclusive scan over the subgroups, plus an exclusive scan of
//   the tile's digit counts, turn the counters into each key's position in the tile sorted by
//   digit (stable: subgroup, then item, then lane is tile order). Keys (then values, one
//   32-bit word at a time) are written to shared memory at that position and read back in
//   position order: position p of digit d goes to offsets[d * tiles + tile] + (p - start of
//   d in the tile), so consecutive invocations write consecutive addresses. The counters and
//   the staging area share one array (the counters are dead once positions are known): the
//   plan requires min subgroup size * ITEMS >= 128 so that the counters fit in a tile.
// Otherwise (_wg, no subgroup operations): a local LSD sort of the tile in shared memory by
//   2-bit splits (Satish, Harris & Garland 2009): entries (digit << 16 | index in tile) are
//   reordered stably by bits 0-1 of the digit, then 2-3, ... Each split is one workgroup
//   exclusive scan of four packed 16-bit counters (common/counts_scan.glsl). Invocation i
//   holds entries [i * ITEMS, (i + 1) * ITEMS); the array is padded by one word every 32 so
//   that those strided accesses do not hit one bank. Afterwards the entries are in digit
//   order; the tile's run of digit d starts where the digit changes, and consecutive
//   invocations write consecutive outputs within a run. Keys and values are re-read by their
//   index in the tile (the tile was just read: cache hits).
//
// One tile per workgroup (2-D grid). A trivial pass, or `copy` set, copies the tile instead.
#include "vkprim.glsl"
#include "radix.glsl"
#if defined(SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#else
#include "counts_scan.glsl"
#endif

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
#if defined(SUBGROUP)
// First the subgroups' digit counters (gl_NumSubgroups * 128 words), then the staging area.
shared uint s_mem[TILE];
// offsets[d * tiles + tile] - start of digit d in the sorted tile (wrapping u32 arithmetic).
shared uint s_base[RADIX_DIGITS];
// The digit scan's subgroup sums (gl_NumSubgroups <= TILE / 128, as for the counters).
shared uint s_sums[TILE / 128u];
#else
#define PAD(i) ((i) + ((i) >> 5u))
shared uint s_ent[TILE + (TILE >> 5u)];  // digit << 16 | index in tile, at PAD(position)
shared uint s_off[RADIX_DIGITS];
shared uint s_start[RADIX_DIGITS];
#endif
shared uint s_trivial;

#include "radix_pass.glsl"

#if !defined(SUBGROUP)
uint field(uvec2 c, uint b) { return ((b < 2u ? c.x : c.y) >> (16u * (b & 1u))) & 0xFFFFu; }
uvec2 unit(uint b) { return uvec2(b == 0u ? 1u : b == 1u ? 0x10000u : 0u, b == 2u ? 1u : b == 3u ? 0x10000u : 0u); }
#endif

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

#if defined(SUBGROUP)
  const uint lane = gl_SubgroupInvocationID;
  const uint S = gl_SubgroupSize;
  const uint nsg = gl_NumSubgroups;
  const uint run = gl_SubgroupID * S * ITEMS;  // first tile position of this subgroup's run
  const uint counters = gl_SubgroupID * 128u;  // its 256 16-bit digit counters

  // Invocation w < 128 owns digits 2w and 2w + 1 in the scans below; their global offsets
  // (strided reads) are loaded first.
  uint off_lo = 0u, off_hi = 0u;
  if (lid < 128u) {
    off_lo = U32Buf(pc.offsets_addr).v[(2u * lid) * pc.tiles + tile];
    off_hi = U32Buf(pc.offsets_addr).v[(2u * lid + 1u) * pc.tiles + tile];
  }
  for (uint i = lid; i < nsg * 128u; i += WG_SIZE) s_mem[i] = 0u;
  Key key[ITEMS];
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = run + k * S + lane;
    key[k] = j < valid ? kin.v[j] : Key(0);
  }
  barrier();

  // Rank among the subgroup's keys of the same digit, item by item.
  const uvec4 lanes = subgroupBallot(true);
  uint rank[ITEMS];  // digit << 16 | rank; later the position in the sorted tile
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = run + k * S + lane;
    const uint d = j < valid ? radix_digit(radix_transform(key[k], pc.flags), pc.shift, pc.bits) : 0xFFu;
    uvec4 peers = lanes;
    for (uint b = 0u; b < 8u; ++b) {
      const bool set = ((d >> b) & 1u) != 0u;
      const uvec4 ballot = subgroupBallot(set);
      peers &= set ? ballot : ~ballot;
    }
    const uint below = subgroupBallotExclusiveBitCount(peers);
    const uint count = subgroupBallotBitCount(peers);
    const uint word = counters + (d >> 1), sh = 16u * (d & 1u);
    const uint before = (s_mem[word] >> sh) & 0xFFFFu;
    subgroupBarrier();  // every peer has read the counter
    if (below == 0u) atomicAdd(s_mem[word], count << sh);  // the two digits of a word may both add
    subgroupBarrier();  // the counters are current for the next item
    rank[k] = (d << 16) | (before + below);
  }
  barrier();

  // Per digit: its count in the tile, an exclusive scan of those over the digits (the start of
  // each digit in the sorted tile), then per subgroup the start of its keys of that digit.
  // Invocation w < 128 owns counter word w of every subgroup (digits 2w, 2w + 1). Fields stay
  // below 2^16: a tile holds at most 2^16 - 1 keys (the plan checks).
  uint pair = 0u;
  if (lid < 128u)
    for (uint s = 0u; s < nsg; ++s) pair += s_mem[s * 128u + lid];
  const uint c_lo = pair & 0xFFFFu, c_pair = c_lo + (pair >> 16);
  const uint incl = subgroupInclusiveAdd(c_pair);  // then the sums of the subgroups before
  if (lane == S - 1u) s_sums[gl_SubgroupID] = incl;
  barrier();
  uint start = incl - c_pair;
  if (lid < 128u) {
    for (uint s = 0u; s < gl_SubgroupID; ++s) start += s_sums[s];
    uint acc = start | ((start + c_lo) << 16);
    for (uint s = 0u; s < nsg; ++s) {
      const uint c = s_mem[s * 128u + lid];
      s_mem[s * 128u + lid] = acc;
      acc += c;
    }
    s_base[2u * lid] = off_lo - start;
    s_base[2u * lid + 1u] = off_hi - (start + c_lo);
  }
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint d = rank[k] >> 16;
    rank[k] = ((s_mem[counters + (d >> 1)] >> (16u * (d & 1u))) & 0xFFFFu) + (rank[k] & 0xFFFFu);
  }
  barrier();  // the counters are dead: s_mem is the staging area from here

  // Keys through shared memory into sorted order, then out: position p = lid + k * WG_SIZE.
  uint dst[ITEMS];
#if KEY_WORDS == 1
  for (uint k = 0u; k < ITEMS; ++k) s_mem[rank[k]] = key[k];
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    dst[k] = 0u;
    if (p < valid) {
      const uint x = s_mem[p];
      dst[k] = s_base[radix_digit(radix_transform(x, pc.flags), pc.shift, pc.bits)] + p;
      kout.v[dst[k]] = x;
    }
  }
#else
  for (uint k = 0u; k < ITEMS; ++k) s_mem[rank[k]] = uint(key[k]);
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) dst[k] = s_mem[lid + k * WG_SIZE];  // low words, for now
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) s_mem[rank[k]] = uint(key[k] >> 32);
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
      const uint64_t x = (uint64_t(s_mem[p]) << 32) | uint64_t(dst[k]);
      dst[k] = s_base[radix_digit(radix_transform(x, pc.flags), pc.shift, pc.bits)] + p;
      kout.v[dst[k]] = x;
    } else {
      dst[k] = 0u;
    }
  }
#endif

#if VALUE_WORDS == 1
  barrier();  // the staged keys are read
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = run + k * S + lane;
    s_mem[rank[k]] = j < valid ? vin.v[j] : 0u;
  }
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) vout.v[dst[k]] = s_mem[p];
  }
#elif VALUE_WORDS == 2
  uint hi[ITEMS];  // high words by item; then the low words by position
  barrier();  // the staged keys are read
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = run + k * S + lane;
    const uvec2 v = j < valid ? vin.v[j] : uvec2(0u);
    s_mem[rank[k]] = v.x;
    hi[k] = v.y;
  }
  barrier();
  uint lo[ITEMS];
  for (uint k = 0u; k < ITEMS; ++k) lo[k] = s_mem[lid + k * WG_SIZE];
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) s_mem[rank[k]] = hi[k];
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) vout.v[dst[k]] = uvec2(lo[k], s_mem[p]);
  }
#endif

#else  // no subgroup operations: stable 2-bit splits

  // Entries in input order (coalesced loads); items past `valid` get the largest digit, so the
  // stable splits leave them after every key.
  for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE) s_off[d] = U32Buf(pc.offsets_addr).v[d * pc.tiles + tile];
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = lid + k * WG_SIZE;
    const uint d = j < valid ? radix_digit(radix_transform(kin.v[j], pc.flags), pc.shift, pc.bits) : 0xFFu;
    s_ent[PAD(j)] = (d << 16) | j;
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
      e[k] = s_ent[PAD(lid * ITEMS + k)];
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
      s_ent[PAD(start[b] + field(excl, b) + before[k])] = e[k];
    }
    barrier();
  }

  // Where each digit's run starts in the sorted tile.
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
      const uint d = s_ent[PAD(p)] >> 16;
      if (p == 0u || (s_ent[PAD(p - 1u)] >> 16) != d) s_start[d] = p;
    }
  }
  barrier();
  for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
      const uint e = s_ent[PAD(p)];
      const uint d = e >> 16, j = e & 0xFFFFu;
      const uint dst = s_off[d] + (p - s_start[d]);
      kout.v[dst] = kin.v[j];
#if VALUE_WORDS > 0
      vout.v[dst] = vin.v[j];
#endif
    }
  }
#endif
}
