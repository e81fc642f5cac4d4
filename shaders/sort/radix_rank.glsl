// Radix sort: the stable rank of one tile by one digit and the scatter of its keys (and values)
// in sorted order. Shared by radix_downsweep.comp (reduce-then-scan: the tile's global digit
// offsets come from a scan of per-tile counts) and radix_onesweep.comp (Onesweep: they come from
// a decoupled look-back). The including shader defines KEY_WORDS, VALUE_WORDS (0, 1, 2) and
// optionally SUBGROUP, and includes vkprim.glsl and radix.glsl first. One tile of
// TILE = WG_SIZE * ITEMS keys; every function is called by the whole workgroup in uniform
// control flow (they contain barriers).
//
// SUBGROUP (the _sg variants): match-based multisplit as in Onesweep (Adinets & Merrill 2022).
//   rank_load: subgroup s owns the contiguous run [s * S * ITEMS, (s + 1) * S * ITEMS) of the
//   tile (S the subgroup size); lane l loads elements l, l + S, l + 2S, ... of it (coalesced).
//   rank_match: for each item in turn, eight ballots (one per digit bit) give every lane the
//   lanes holding the same digit (its peers, a uvec4 mask: any subgroup size up to 128). The
//   subgroup's 256 digit counters live in shared memory, 16 bits each, two per word; a key's
//   rank among the subgroup's keys of its digit is the counter before the item plus its peers
//   on lower lanes. The lowest lane of each counter word's lanes (both digits) adds both counts
//   by a plain store, no atomic: no other lane of the subgroup writes that word. (The ballots
//   are core subgroup operations; subgroupPartitionNV in their place is NVIDIA-only and slower.)
//   Items past the key count take digit 0xFF (larger than any digit), so they rank after every
//   key and no branch surrounds a subgroup operation. Returns the tile's digit counts
//   (invocation w < 128: digits 2w, 2w + 1). Every loop over items is [[unroll]], so that
//   rk_key and rk_rank stay in registers: indexed by a loop variable, a compiler may place
//   them in local memory.
//   rank_positions: per digit an exclusive scan over the subgroups, plus an exclusive scan of
//   the tile's digit counts, turn the counters into each key's position in the tile sorted by
//   digit (stable: subgroup, then item, then lane is tile order).
//   rank_scatter: keys (then values, one 32-bit word at a time) are written to shared memory at
//   that position and read back in position order: position p of digit d goes to s_base[d] + p
//   (s_base[d] = the global offset of the tile's keys of digit d - the start of d in the sorted
//   tile, wrapping RADIX_POS arithmetic, set by the caller), so consecutive invocations write
//   consecutive addresses. It comes in two halves, rank_scatter_stage (keys into shared memory)
//   and rank_scatter_write (everything that needs s_base), so that onesweep can stage before its
//   look-back. 32-bit values' loads are issued as soon as 32-bit keys are staged, so that they
//   are in flight during the keys' scatter; where the includer defines RANK_EARLY_VALUES
//   (onesweep), values of every width at the start of rank_scatter_write, before the keys'
//   scatter. The counters and the staging area share one
//   array (the counters are dead once positions are known) of RANK_WORDS (specialization
//   constant 2, set by the plan): the larger of the tile and the counters of
//   the most subgroups the workgroup can hold (WG_SIZE / min subgroup size * 128 words). For
//   32-bit keys alone it may be less than the tile: the tile is then staged and written in
//   rounds of RANK_WORDS positions (RANK_ROUNDS), so that a large tile needs a small tile's
//   shared memory (NVIDIA's Vulkan driver gives the workgroups on an SM about 48 KiB of shared
//   memory, so a tile of more than about 3 500 keys staged at once costs a third of them).
// Otherwise (_wg, no subgroup operations): a local LSD sort of the tile in shared memory by
//   2-bit splits (Satish, Harris & Garland 2009). rank_wg_load: entries (digit << 16 | index in
//   tile) in input order. rank_wg_sort: the entries are reordered stably by bits 0-1 of the
//   digit, then 2-3, ... Each split is one workgroup exclusive scan of four packed 16-bit
//   counters (common/counts_scan.glsl). Invocation i holds entries [i * ITEMS, (i + 1) * ITEMS);
//   the array is padded by one word every 32 so that those strided accesses do not hit one
//   bank. Afterwards the entries are in digit order; the tile's run of digit d starts where the
//   digit changes (s_start). rank_wg_scatter: consecutive invocations write consecutive outputs
//   within a run, at s_off[d] (the global offset of the tile's keys of digit d, set by the
//   caller) + (p - s_start[d]). Keys and values are re-read by their index in the tile (the tile
//   was just read: cache hits).
#ifndef VKPRIM_RADIX_RANK_GLSL
#define VKPRIM_RADIX_RANK_GLSL

#if defined(SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#else
#include "counts_scan.glsl"
#endif

#define VALUE_SIZE (4 * VALUE_WORDS)
#if VALUE_WORDS == 1
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ValBuf { uint v[]; };
#elif VALUE_WORDS == 2
layout(buffer_reference, std430, buffer_reference_align = 8) buffer ValBuf { uvec2 v[]; };
#endif

#define TILE (WG_SIZE * ITEMS)

// A trivial pass: the tile copied as it is (pointers at the tile's first key and value).
void radix_copy_tile(uint64_t keys_in, uint64_t keys_out, uint64_t values_in, uint64_t values_out, uint valid) {
  KeyBuf kin = KeyBuf(keys_in), kout = KeyBuf(keys_out);
#if VALUE_WORDS > 0
  ValBuf vin = ValBuf(values_in), vout = ValBuf(values_out);
#endif
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = gl_LocalInvocationID.x + k * WG_SIZE;
    if (j < valid) {
      kout.v[j] = kin.v[j];
#if VALUE_WORDS > 0
      vout.v[j] = vin.v[j];
#endif
    }
  }
}

#if defined(SUBGROUP)
layout(constant_id = 2) const uint RANK_WORDS = 4096;  // >= gl_NumSubgroups * 128; >= TILE but for RANK_ROUNDS
// First the subgroups' digit counters (gl_NumSubgroups * 128 words), then the staging area.
shared uint s_mem[RANK_WORDS];
// offsets of digit d - start of digit d in the sorted tile (wrapping arithmetic, RADIX_POS).
shared RADIX_POS s_base[RADIX_DIGITS];
// The digit scan's subgroup sums (gl_NumSubgroups <= RANK_WORDS / 128, as for the counters).
shared uint s_sums[RANK_WORDS / 128u];

Key rk_key[ITEMS];    // the tile's keys, subgroup-striped (rank_load)
uint rk_rank[ITEMS];  // digit << 16 | rank in the subgroup; after rank_positions the position

// Tile element of item k of this invocation.
uint rank_element(uint k) {
  return gl_SubgroupID * gl_SubgroupSize * ITEMS + k * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// Loads the tile's keys (keys points at the tile's first key; items past `valid` hold Key(0)).
void rank_load_keys(KeyBuf keys, uint valid) {
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = rank_element(k);
    rk_key[k] = j < valid ? keys.v[j] : Key(0);
  }
}

// Zeroes the subgroup counters (no barrier: the caller's next one ends it).
void rank_zero_counters() {
  for (uint i = gl_LocalInvocationID.x; i < gl_NumSubgroups * 128u; i += WG_SIZE) s_mem[i] = 0u;
}

// Zeroes the subgroup counters and loads the tile's keys.
void rank_load(KeyBuf keys, uint valid) {
  rank_zero_counters();
  rank_load_keys(keys, valid);
  barrier();
}

// Rank among the subgroup's keys of the same digit, item by item. Returns, for invocation
// w < 128, the tile's counts of digits 2w (low 16 bits) and 2w + 1 (high 16 bits); 0 for others.
uint rank_match(uint valid, uint flags, uint shift, uint bits) {
  const uint counters = gl_SubgroupID * 128u;  // this subgroup's 256 16-bit digit counters
  const uvec4 lanes = subgroupBallot(true);
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint d = rank_element(k) < valid ? radix_digit(radix_transform(rk_key[k], flags), shift, bits) : 0xFFu;
    // Eight ballots, unconditionally: skipping those above the pass's bits would cost a branch
    // per ballot, more than the ballot it saves. Bits 1-7 give the
    // lanes whose digit shares this lane's counter word (d >> 1), bit 0 splits them by digit.
    uvec4 word_peers = lanes;
    uvec4 odd = uvec4(0u);
    [[unroll]] for (uint b = 0u; b < 8u; ++b) {
      const bool set = ((d >> b) & 1u) != 0u;
      const uvec4 ballot = subgroupBallot(set);
      if (b == 0u) odd = ballot;
      else word_peers &= set ? ballot : ~ballot;
    }
    const uvec4 peers = word_peers & ((d & 1u) != 0u ? odd : ~odd);
    const uint below = subgroupBallotExclusiveBitCount(peers);
    const uint word = counters + (d >> 1), sh = 16u * (d & 1u);
    const uint old = s_mem[word];
    subgroupBarrier();  // every lane has read its counter word
    // The lowest lane of each counter word adds both digits' counts: a plain store, since no
    // other lane of the subgroup writes that word.
    if (subgroupBallotExclusiveBitCount(word_peers) == 0u) {
      const uint n_odd = subgroupBallotBitCount(word_peers & odd);
      s_mem[word] = old + (subgroupBallotBitCount(word_peers) - n_odd) + (n_odd << 16);
    }
    subgroupBarrier();  // the counters are current for the next item
#if KEY_WORDS == 1 && !defined(RANK_EARLY_VALUES)
    // Through an identity shuffle, which the compiler cannot see through: it then keeps the
    // record packed (one register per item) up to rank_positions instead of its parts (digit,
    // counter address, rank), which saves registers (on NVIDIA's Vulkan driver, the large tile
    // of 384 x 18 in two rounds keeps three workgroups an SM only with it). Not in onesweep
    // where it stages the tile before its look-back (RANK_EARLY_VALUES): there the packed record
    // is slower; its ONESWEEP_ROUNDS build does take it.
    rk_rank[k] = subgroupShuffle((d << 16) | (((old >> sh) & 0xFFFFu) + below), gl_SubgroupInvocationID);
#else
    rk_rank[k] = (d << 16) | (((old >> sh) & 0xFFFFu) + below);
#endif
  }
  barrier();
  // Invocation w < 128 owns counter word w of every subgroup (digits 2w, 2w + 1). Fields stay
  // below 2^16: a tile holds at most 2^16 - 1 keys (the plan checks).
  uint pair = 0u;
  if (gl_LocalInvocationID.x < 128u)
    for (uint s = 0u; s < gl_NumSubgroups; ++s) pair += s_mem[s * 128u + gl_LocalInvocationID.x];
  return pair;
}

// Per digit: its count in the tile, an exclusive scan of those over the digits (the start of
// each digit in the sorted tile), then per subgroup the start of its keys of that digit; the
// ranks become positions in the sorted tile. `pair` is rank_match's result. Returns, for
// invocation w < 128, the start of digit 2w in the sorted tile (digit 2w + 1 starts
// pair & 0xFFFF later). Ends with a barrier: s_mem is free for the staging.
uint rank_positions(uint pair) {
  const uint lid = gl_LocalInvocationID.x;
  const uint c_lo = pair & 0xFFFFu, c_pair = c_lo + (pair >> 16);
  const uint incl = subgroupInclusiveAdd(c_pair);  // then the sums of the subgroups before
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) s_sums[gl_SubgroupID] = incl;
  barrier();
  uint start = incl - c_pair;
  if (lid < 128u) {
    for (uint s = 0u; s < gl_SubgroupID; ++s) start += s_sums[s];
    uint acc = start | ((start + c_lo) << 16);
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
      const uint c = s_mem[s * 128u + lid];
      s_mem[s * 128u + lid] = acc;
      acc += c;
    }
  }
  barrier();
  const uint counters = gl_SubgroupID * 128u;
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint d = rk_rank[k] >> 16;
    rk_rank[k] = ((s_mem[counters + (d >> 1)] >> (16u * (d & 1u))) & 0xFFFFu) + (rk_rank[k] & 0xFFFFu);
  }
  barrier();  // the counters are dead: s_mem is the staging area from here
  return start;
}

// Keys through shared memory into sorted order, then out: position p = lid + k * WG_SIZE goes
// to s_base[digit] + p. values_in points at the tile's first value (0: keys only). s_base is
// read only after the first barrier here, so the caller may write it just before the call.
// The values' loads are issued before the keys' scatter, so that they are in flight during it:
// with RANK_EARLY_VALUES at the start of rank_scatter_write (onesweep: after its look-back),
// and for 32-bit keys with 32-bit values as soon as the keys are staged; otherwise after it
// (the reduce-then-scan downsweep of 64-bit keys or values, where early loads would hold
// registers the keys do not free).
#if KEY_WORDS == 1 && VALUE_WORDS == 1 && !defined(RANK_EARLY_VALUES)
#define RANK_VALUES_AT_STAGE 1
#endif
#if VALUE_WORDS == 1
uint rk_val[ITEMS];
#define RANK_NO_VALUE 0u
#elif VALUE_WORDS == 2
uvec2 rk_val[ITEMS];
#define RANK_NO_VALUE uvec2(0u)
#endif
RADIX_POS rk_dst[ITEMS];  // 64-bit keys: the low words of the sorted keys, then every key's output index
#if VALUE_WORDS > 0
void rank_load_values(uint64_t values_in, uint valid) {
  ValBuf vin = ValBuf(values_in);
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) rk_val[k] = rank_element(k) < valid ? vin.v[rank_element(k)] : RANK_NO_VALUE;
}
#endif

// First half of rank_scatter: the keys into shared memory in sorted order (64-bit keys: the low
// words read back into registers, the high words left staged), and for 32-bit keys with 32-bit
// values (without RANK_EARLY_VALUES) the values' loads issued. Needs nothing from the global
// offsets, so onesweep does it before its look-back. Nothing may touch s_mem between the halves.
void rank_scatter_stage(uint64_t values_in, uint valid) {
  const uint lid = gl_LocalInvocationID.x;
#if KEY_WORDS == 1
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) s_mem[rk_rank[k]] = rk_key[k];
#else
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) s_mem[rk_rank[k]] = uint(rk_key[k]);
  barrier();
  // The low words, for now.
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) rk_dst[k] = RADIX_POS(s_mem[lid + k * WG_SIZE]);
  barrier();
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) s_mem[rk_rank[k]] = uint(rk_key[k] >> 32);
#endif
#if defined(RANK_VALUES_AT_STAGE)
  rank_load_values(values_in, valid);
#endif
}

// Second half: keys out from shared memory in position order to s_base[digit] + position, then
// the values through shared memory the same way.
void rank_scatter_write(uint64_t keys_out, uint64_t values_in, uint64_t values_out, uint valid, uint flags,
                        uint shift, uint bits) {
  const uint lid = gl_LocalInvocationID.x;
#if VALUE_WORDS > 0 && defined(RANK_EARLY_VALUES)
  rank_load_values(values_in, valid);  // in flight during the keys' scatter
#endif
  barrier();  // the staged keys (and s_base) are visible
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
#if KEY_WORDS == 1
      const uint x = s_mem[p];
#else
      const uint64_t x = (uint64_t(s_mem[p]) << 32) | uint64_t(uint(rk_dst[k]));
#endif
      rk_dst[k] = s_base[radix_digit(radix_transform(x, flags), shift, bits)] + p;
      KeyBuf(ELEM_ADDR(keys_out, rk_dst[k], KEY_SIZE)).v[0] = x;
    } else {
      rk_dst[k] = RADIX_POS(0);
    }
  }
#if VALUE_WORDS > 0
  barrier();  // the staged keys are read
#if !defined(RANK_VALUES_AT_STAGE) && !defined(RANK_EARLY_VALUES)
  rank_load_values(values_in, valid);
#endif
#if VALUE_WORDS == 1
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) s_mem[rk_rank[k]] = rk_val[k];
  barrier();
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) ValBuf(ELEM_ADDR(values_out, rk_dst[k], VALUE_SIZE)).v[0] = s_mem[p];
  }
#else
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) s_mem[rk_rank[k]] = rk_val[k].x;
  barrier();
  uint lo[ITEMS];  // low words by position
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) lo[k] = s_mem[lid + k * WG_SIZE];
  barrier();
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) s_mem[rk_rank[k]] = rk_val[k].y;
  barrier();
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) ValBuf(ELEM_ADDR(values_out, rk_dst[k], VALUE_SIZE)).v[0] = uvec2(lo[k], s_mem[p]);
  }
#endif
#endif
}

// 32-bit keys alone (reduce-then-scan, and onesweep's ONESWEEP_ROUNDS build) may stage the
// sorted tile in rounds: where RANK_WORDS is less than the tile (the plan's
// RadixTile::stage_rounds), round r stages positions [r * RANK_WORDS, (r + 1) * RANK_WORDS) and
// writes them out before the next round, so that a large tile needs no more shared memory than
// its counters or a fraction of its keys.
#if KEY_WORDS == 1 && VALUE_WORDS == 0 && !defined(RANK_EARLY_VALUES)
#define RANK_IN_ROUNDS 1
const uint RANK_ROUNDS = (TILE + RANK_WORDS - 1u) / RANK_WORDS;
#endif

void rank_scatter(uint64_t keys_out, uint64_t values_in, uint64_t values_out, uint valid, uint flags,
                  uint shift, uint bits) {
#if defined(RANK_IN_ROUNDS)
  if (RANK_ROUNDS > 1u) {
    const uint lid = gl_LocalInvocationID.x;
    for (uint r = 0u; r < RANK_ROUNDS; ++r) {
      const uint first = r * RANK_WORDS;
      if (r > 0u) barrier();  // the round before has read its keys back
      [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
        const uint q = rk_rank[k] - first;  // wraps above RANK_WORDS for earlier positions
        if (q < RANK_WORDS) s_mem[q] = rk_key[k];
      }
      barrier();  // the staged keys (and s_base) are visible
      [[unroll]] for (uint k = 0u; k * WG_SIZE < RANK_WORDS; ++k) {
        const uint q = lid + k * WG_SIZE;
        if (q < RANK_WORDS && first + q < valid) {
          const uint x = s_mem[q];
          const uint p = first + q;
          KeyBuf(ELEM_ADDR(keys_out, s_base[radix_digit(radix_transform(x, flags), shift, bits)] + p, KEY_SIZE)).v[0] = x;
        }
      }
    }
    return;
  }
#endif
  rank_scatter_stage(values_in, valid);
  rank_scatter_write(keys_out, values_in, values_out, valid, flags, shift, bits);
}

#else  // no subgroup operations: stable 2-bit splits

#define PAD(i) ((i) + ((i) >> 5u))
shared uint s_ent[TILE + (TILE >> 5u)];  // digit << 16 | index in tile, at PAD(position)
shared RADIX_POS s_off[RADIX_DIGITS];    // global offset of the tile's keys of digit d (caller)
shared uint s_start[RADIX_DIGITS];       // start of digit d in the sorted tile (present digits)

uint rank_field(uvec2 c, uint b) { return ((b < 2u ? c.x : c.y) >> (16u * (b & 1u))) & 0xFFFFu; }
uvec2 rank_unit(uint b) { return uvec2(b == 0u ? 1u : b == 1u ? 0x10000u : 0u, b == 2u ? 1u : b == 3u ? 0x10000u : 0u); }

// Entries in input order (coalesced loads); items past `valid` get the largest digit, so the
// stable splits leave them after every key. With RADIX_RANK_COUNTS defined (the name of a
// zeroed shared uint[256]), also counts the tile's digits there.
void rank_wg_load(KeyBuf keys, uint valid, uint flags, uint shift, uint bits) {
  const uint lid = gl_LocalInvocationID.x;
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint j = lid + k * WG_SIZE;
    const uint d = j < valid ? radix_digit(radix_transform(keys.v[j], flags), shift, bits) : 0xFFu;
    s_ent[PAD(j)] = (d << 16) | j;
#if defined(RADIX_RANK_COUNTS)
    if (j < valid) atomicAdd(RADIX_RANK_COUNTS[d], 1u);
#endif
  }
  barrier();
}

// Stable 2-bit splits; invocation i holds entries [i * ITEMS, (i + 1) * ITEMS). Then where each
// present digit's run starts (s_start). Ends with a barrier.
void rank_wg_sort(uint valid, uint bits) {
  const uint lid = gl_LocalInvocationID.x;
  const uint rounds = UNIFORM((bits + 1u) / 2u);
  for (uint r = 0u; r < rounds; ++r) {
    const uint sh = 16u + 2u * r;
    uint e[ITEMS];
    uint before[ITEMS];  // earlier entries of this invocation with the same 2 bits
    uvec2 c = uvec2(0u);
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      e[k] = s_ent[PAD(lid * ITEMS + k)];
      const uint b = (e[k] >> sh) & 3u;
      before[k] = rank_field(c, b);
      c += rank_unit(b);
    }
    uvec2 total;
    const uvec2 excl = counts_exclusive_scan(c, total);  // barriers: every read above is done
    const uint t0 = total.x & 0xFFFFu, t1 = total.x >> 16, t2 = total.y & 0xFFFFu;
    const uint start[4] = uint[4](0u, t0, t0 + t1, t0 + t1 + t2);
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint b = (e[k] >> sh) & 3u;
      s_ent[PAD(start[b] + rank_field(excl, b) + before[k])] = e[k];
    }
    barrier();
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
      const uint d = s_ent[PAD(p)] >> 16;
      if (p == 0u || (s_ent[PAD(p - 1u)] >> 16) != d) s_start[d] = p;
    }
  }
  barrier();
}

// Position p of the sorted tile to s_off[d] + (p - s_start[d]). keys_in / values_in point at the
// tile's first key / value (values_in 0: keys only). The caller's writes to s_off must be
// visible (a barrier after them).
void rank_wg_scatter(uint64_t keys_in, uint64_t keys_out, uint64_t values_in, uint64_t values_out, uint valid) {
  const uint lid = gl_LocalInvocationID.x;
  KeyBuf kin = KeyBuf(keys_in);
#if VALUE_WORDS > 0
  ValBuf vin = ValBuf(values_in);
#endif
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint p = lid + k * WG_SIZE;
    if (p < valid) {
      const uint e = s_ent[PAD(p)];
      const uint d = e >> 16, j = e & 0xFFFFu;
      const RADIX_POS dst = s_off[d] + (p - s_start[d]);
      KeyBuf(ELEM_ADDR(keys_out, dst, KEY_SIZE)).v[0] = kin.v[j];
#if VALUE_WORDS > 0
      ValBuf(ELEM_ADDR(values_out, dst, VALUE_SIZE)).v[0] = vin.v[j];
#endif
    }
  }
}

#endif  // SUBGROUP

#endif
