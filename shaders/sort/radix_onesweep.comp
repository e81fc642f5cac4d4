#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, one digit pass in one dispatch: Onesweep (Adinets & Merrill 2022, "Onesweep: A
// Faster Least Significant Digit Radix Sort for GPUs"), made safe on devices without
// forward-progress guarantees by decoupled fallback (as the single-pass scan,
// common/tile_state.glsl). Each workgroup reads its tile of keys once:
//   1. tile id from the pass's atomic counter (so every predecessor has started); the _sg
//      builds load the keys of the tile their workgroup id guesses meanwhile (main());
//   2. stable rank of the tile by the pass's digit (sort/radix_rank.glsl: the subgroup match
//      multisplit, _sg, or 2-bit split scans, _wg), which yields the tile's 256 digit counts;
//   3. publish them: state word d of the tile = AGGREGATE | count of digit d; tile 0 publishes
//      INCLUSIVE | (global offset of d + count) instead, the global offsets being the exclusive
//      scan of the pass's upfront histogram (radix_histogram.comp);
//   4. decoupled look-back per digit: invocation d < 256 walks back over its predecessors' word
//      d, adding aggregates, until an inclusive prefix; then publishes its own inclusive
//      prefix at once, not after the other digits' walks, so that successors waiting on that
//      digit need not wait on the slowest digit's walk. The walk reads LB_WINDOW predecessors'
//      words per round trip (independent loads), at most LB_STEPS windows between workgroup
//      barriers; an invocation that has re-read one not-ready word more than SPIN_LIMIT
//      (common/look_back.h) times asks for the fallback, and the whole workgroup then counts
//      the digits of the nearest blocking tile itself from that tile's keys (decoupled
//      fallback: nothing waits on a workgroup that may never run again). No subgroup
//      operation inside the look-back: its inner loop's trip count differs across invocations;
//   5. scatter in sorted order, key (and value) at prefix of its digit + its rank among the
//      tile's keys of that digit (coalesced runs, as in the reduce-then-scan downsweep; the
//      keys are staged in shared memory in sorted order before step 4); the values' loads are
//      issued as soon as the look-back ends, in flight during the keys' scatter, for every key
//      and value width (RANK_EARLY_VALUES), so that their latency hides behind the keys' writes.
// State (per pass, zeroed): word 0 the tile counter, then from word LB_HEADER 256 words per
// tile, each flag (bits 30-31: 0 not ready, 1 aggregate, 2 inclusive prefix) | count (bits
// 0-29): a pass takes fewer than 2^30 keys (the plan falls back to reduce-then-scan beyond).
// Words go from zero to aggregate to inclusive by relaxed atomic stores (publish(): each word is
// written once per kind, so no read-modify-write such as an exchange is needed) and are read
// whole (volatile loads), so a count is seen complete or not at all; no fences are needed since
// a word carries its own value. The plan alternates two state regions; pass p
// zeroes its tile's words of the region pass p + 1 uses (clear_addr), which pass p - 1 used: no
// fill between passes.
// A trivial pass (one digit holds every key) copies the tile. Needs WG_SIZE >= 256.
// ONESWEEP_ROUNDS (32-bit keys alone, _sg; the plan's large tiles): the tile's digit counts are
// taken by shared atomics before the ranking and published at once (as CUB's early counts), the
// look-back runs once the positions are known, with keys and positions in registers, and the
// sorted tile is then staged and written in rounds (sort/radix_rank.glsl, RANK_IN_ROUNDS), so
// that 384 x 18 keys need the shared memory of 384 x 9 and three workgroups fit an SM (the
// counts taken before the ranking keep this build at the registers that three need).
// Its look-back's scratch (the fallback's counts, tile 0's global offsets) lives in the ranking's
// array, free between the positions and the staging.
#include "vkprim.glsl"
#if defined(ONESWEEP_ROUNDS) && !(defined(SUBGROUP) && KEY_WORDS == 1 && VALUE_WORDS == 0)
#error ONESWEEP_ROUNDS: 32-bit keys alone, subgroup ranking
#endif
#include "radix.glsl"
#extension GL_KHR_memory_scope_semantics : require

#define PUSH_RADIX_ONESWEEP  // pc: push.h's RadixOnesweepPush
#include "push.h"
#include "look_back.h"

#if !defined(ONESWEEP_ROUNDS)
shared uint s_count[RADIX_DIGITS];  // the tile's digit counts
#if !defined(SUBGROUP)
#define RADIX_RANK_COUNTS s_count
#endif
#define RANK_EARLY_VALUES  // step 5
#endif
#include "radix_rank.glsl"
#include "radix_pass.glsl"

layout(buffer_reference, std430, buffer_reference_align = 4) coherent volatile buffer StateBuf { uint w[]; };

#define LB_HEADER 4u
#define LB_AGGREGATE (1u << 30)
#define LB_INCLUSIVE (2u << 30)
#define LB_COUNT_MASK 0x3FFFFFFFu
#define LB_STEPS 16u  // windows read per invocation between the workgroup's checks
// Predecessors' words read per round trip by each digit's invocation (independent loads, then
// added nearest first up to the first inclusive prefix or not-ready word). One word per round
// trip is too slow: on a large GPU tiles finish faster than a dependent L2 load per predecessor
// can walk past them; wider windows cost registers and L2 reads. 4 words is the balance.
#define LB_WINDOW 4u

// A state word's one and only write of each kind (no read-modify-write needed).
void publish(StateBuf st, uint i, uint word) {
  atomicStore(st.w[i], word, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

shared uint s_tile;
#if defined(ONESWEEP_ROUNDS)
// In the ranking's array (RANK_WORDS >= 1024: engine/sort/policy.hpp asserts it of the large
// tile), whose words [0, 256) hold the tile's digit counts during the look-back.
#define GOFF(d) s_mem[768u + (d)]
#define SCRATCH(d) s_mem[512u + (d)]
#else
shared uint s_goff[RADIX_DIGITS];     // global digit offsets (exclusive scan of the histogram)
shared uint s_scratch[RADIX_DIGITS];  // a blocking tile's digit counts (fallback)
#define GOFF(d) s_goff[d]
#define SCRATCH(d) s_scratch[d]
#endif
shared uint s_lb_open;                // digits still looking back
shared uint s_lb_fall;                // 1 + the tile to fall back on, the nearest asked for (0: none)

// GOFF(d) = keys of the pass with a digit below d: where digit d starts in the output.
void global_digit_offsets() {
  const uint lid = gl_LocalInvocationID.x;
  uint h = 0u;
  if (lid < RADIX_DIGITS) {
    h = U32Buf(pc.hist_addr).v[pc.pass * RADIX_DIGITS + lid];
    GOFF(lid) = h;
  }
  barrier();
  for (uint o = 1u; o < RADIX_DIGITS; o <<= 1u) {  // Hillis-Steele inclusive scan
    uint v = 0u;
    if (lid < RADIX_DIGITS && lid >= o) v = GOFF(lid - o);
    barrier();
    if (lid < RADIX_DIGITS) GOFF(lid) += v;
    barrier();
  }
  if (lid < RADIX_DIGITS) GOFF(lid) -= h;
  barrier();
}

// Fallback: SCRATCH(d) = the keys of tile t (a full tile: t precedes the caller's) with digit d.
void tile_digit_counts(uint t) {
  const uint lid = gl_LocalInvocationID.x;
  if (lid < RADIX_DIGITS) SCRATCH(lid) = 0u;
  barrier();
  KeyBuf keys = KeyBuf(pc.keys_in + uint64_t(t) * TILE * (4u * KEY_WORDS));
#if defined(ONESWEEP_ROUNDS)
  // One key at a time: the caller's keys hold the registers a tile would need.
  [[dont_unroll]] for (uint k = 0u; k < ITEMS; ++k)
    atomicAdd(SCRATCH(radix_digit(radix_transform(keys.v[lid + k * WG_SIZE], RADIX_FLAGS), pc.shift, pc.bits)), 1u);
#else
  Key key[ITEMS];  // every load in flight before the first atomic
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) key[k] = keys.v[lid + k * WG_SIZE];
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) atomicAdd(SCRATCH(radix_digit(radix_transform(key[k], RADIX_FLAGS), pc.shift, pc.bits)), 1u);
#endif
  barrier();
}

// For invocation d < 256: the number of keys of digit d in the tiles before `tile` plus the
// global offset of d (the tile's first output position for digit d). tile > 0. Where
// `publishes`, each digit's invocation publishes the tile's inclusive prefix of its digit (the
// result + `count`, the tile's keys of that digit) as soon as its own walk ends, not when the
// last digit's does: successors wait on exactly that word.
uint look_back(StateBuf st, uint tile, uint count, bool publishes) {
  const uint lid = gl_LocalInvocationID.x;
  const uint word = LB_HEADER + tile * RADIX_DIGITS + lid;  // this digit's word of the tile
  bool done = lid >= RADIX_DIGITS;
  uint acc = 0u;
  uint j = tile - 1u;  // the nearest predecessor not yet added
  uint spins = 0u;     // reads of tile j's word while not ready
  for (;;) {
    if (lid == 0u) {
      s_lb_open = 0u;
      s_lb_fall = 0u;
    }
    barrier();
    if (!done) {
      bool stuck = false;
      for (uint step = 0u; step < LB_STEPS; ++step) {
        uint w[LB_WINDOW];  // tiles j, j - 1, ... (none below tile 0)
        [[unroll]] for (uint i = 0u; i < LB_WINDOW; ++i) w[i] = i <= j ? st.w[LB_HEADER + (j - i) * RADIX_DIGITS + lid] : 0u;
        // Nearest first: aggregates are added until the first inclusive prefix or not-ready
        // word (constant indices only: the window stays in registers).
        bool stop = false;
        uint stop_word = 0u, taken = 0u;
        [[unroll]] for (uint i = 0u; i < LB_WINDOW; ++i) {
          if (!stop) {
            if (w[i] == 0u || w[i] >= LB_INCLUSIVE) {
              stop = true;
              stop_word = w[i];
            } else {
              acc += w[i] & LB_COUNT_MASK;
              taken += 1u;
            }
          }
        }
        // Tile 0 publishes only inclusive prefixes, so a window that reaches it stops there.
        if (!stop) {
          j -= LB_WINDOW;
          spins = 0u;
        } else if (stop_word != 0u) {
          acc += stop_word & LB_COUNT_MASK;
          done = true;
          if (publishes) publish(st, word, LB_INCLUSIVE | (acc + count));
          break;
        } else {
          spins = taken == 0u ? spins + 1u : 1u;  // reads of tile j - taken while not ready
          j -= taken;
          if (spins > SPIN_LIMIT) {
            stuck = true;
            break;
          }
        }
      }
      if (!done) atomicAdd(s_lb_open, 1u);
      if (stuck) atomicMax(s_lb_fall, j + 1u);
    }
    barrier();
    const uint open = s_lb_open, fall = s_lb_fall;  // uniform
    if (open == 0u) break;
    if (fall != 0u) {
      // Decoupled fallback: count the blocking tile's digits here; every digit waiting on that
      // tile takes them.
      const uint t = fall - 1u;
      uint goff = 0u;
      if (t == 0u) {
        global_digit_offsets();
        if (lid < RADIX_DIGITS) goff = GOFF(lid);
      }
      tile_digit_counts(t);
      if (!done && j == t) {
        acc += SCRATCH(lid) + goff;
        spins = 0u;
        if (t == 0u) {
          done = true;
          if (publishes) publish(st, word, LB_INCLUSIVE | (acc + count));
        } else {
          j = t - 1u;
        }
      }
    }
    barrier();
  }
  return acc;
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  StateBuf st = StateBuf(pc.state_addr);
  const uint n = UNIFORM(uint(call_count(pc.count_addr, pc.n)));
  const uint tiles = uint((uint64_t(n) + TILE - 1u) / TILE);
#if defined(SUBGROUP)
  // Step 1 with the keys' loads in flight: they go out for the tile the workgroup's own id
  // guesses, before the counter's atomic and the trivial pass's test, so that those round trips
  // overlap the loads. A workgroup given another tile (dispatched out of order) loads that
  // tile's keys again. The tile still comes from the counter, as Vulkan promises no dispatch
  // order: from the counter, every predecessor of a tile has started (step 1).
  const uint guess = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x + GUESS_OFFSET;
  const uint64_t guess_first = uint64_t(guess) * TILE;
  rank_zero_counters();
  rank_load_keys(KeyBuf(pc.keys_in + guess_first * (4u * KEY_WORDS)),
                 guess < tiles ? uint(min(uint64_t(n) - guess_first, uint64_t(TILE))) : 0u);
#endif
  if (lid == 0u) s_tile = atomicAdd(st.w[0], 1u);
  const bool trivial = radix_pass_trivial(pc.varying_addr, pc.shift, pc.bits);  // uniform
#if defined(ONESWEEP_ROUNDS)
  // The tile's digit counts (in s_base until the positions), published before the ranking.
  for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE) s_base[d] = 0u;
#else
  for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE) s_count[d] = 0u;
#endif
  barrier();
  const uint tile = UNIFORM(s_tile);
  if (tile >= tiles) return;
  // Zero this tile's words of the next pass's state (and its counter): nobody reads them now.
  if (pc.clear_addr != 0ul) {
    for (uint d = lid; d < RADIX_DIGITS; d += WG_SIZE) U32Buf(pc.clear_addr).v[LB_HEADER + tile * RADIX_DIGITS + d] = 0u;
    if (tile == 0u && lid == 0u) U32Buf(pc.clear_addr).v[0] = 0u;
  }
  const uint64_t first = uint64_t(tile) * TILE;
  const uint valid = uint(min(uint64_t(n) - first, uint64_t(TILE)));
  const uint64_t kin = pc.keys_in + first * (4u * KEY_WORDS);
  const uint64_t vin = pc.values_in + first * (4u * VALUE_WORDS);
  if (UNIFORM(trivial)) {
    radix_copy_tile(kin, pc.keys_out + first * (4u * KEY_WORDS), vin, pc.values_out + first * (4u * VALUE_WORDS), valid);
    return;
  }
#if defined(SUBGROUP)
  if (tile != guess) rank_load_keys(KeyBuf(kin), valid);  // uniform
#endif
  const bool publishes = look_back_publishes(tile);
  // Tile 0 publishes its inclusive prefixes only (never aggregates): publishes_counts = publishes.
  const bool publishes_counts = publishes || (look_back_stall_counts() && tile != 0u);
#if defined(ONESWEEP_ROUNDS)
  const uint word = LB_HEADER + tile * RADIX_DIGITS;
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k)
    if (rank_element(k) < valid) atomicAdd(s_base[radix_digit(radix_transform(rk_key[k], RADIX_FLAGS), pc.shift, pc.bits)], 1u);
  barrier();
  if (lid < RADIX_DIGITS && publishes_counts && tile != 0u) publish(st, word + lid, LB_AGGREGATE | s_base[lid]);
  const uint pair = rank_match(valid, RADIX_FLAGS, pc.shift, pc.bits);  // its barriers end s_base's reads
  const uint start = rank_positions(pair);  // ends with a barrier: s_mem is free
  if (lid < 128u) {
    s_base[2u * lid] = start;
    s_base[2u * lid + 1u] = start + (pair & 0xFFFFu);
    s_mem[2u * lid] = pair & 0xFFFFu;
    s_mem[2u * lid + 1u] = pair >> 16;
  }
  if (tile == 0u) global_digit_offsets();  // barriers
  barrier();
  const uint count = lid < RADIX_DIGITS ? s_mem[lid] : 0u;
  uint prefix = 0u;
  if (tile == 0u) {
    if (lid < RADIX_DIGITS) {
      prefix = GOFF(lid);
      if (publishes) publish(st, word + lid, LB_INCLUSIVE | (prefix + count));
    }
  } else {
    prefix = look_back(st, tile, count, publishes);
  }
  barrier();  // every read of s_mem is done: the staging may overwrite it
  if (lid < RADIX_DIGITS) s_base[lid] = prefix - s_base[lid];
  rank_scatter(pc.keys_out, 0ul, 0ul, valid, RADIX_FLAGS, pc.shift, pc.bits);  // a barrier before s_base's reads
#else
  if (tile == 0u) global_digit_offsets();
  const uint word = LB_HEADER + tile * RADIX_DIGITS;

  // Rank; publish the tile's digit counts as soon as they are known.
#if defined(SUBGROUP)
  const uint pair = rank_match(valid, RADIX_FLAGS, pc.shift, pc.bits);
  if (lid < 128u) {
    const uint c0 = pair & 0xFFFFu, c1 = pair >> 16;
    s_count[2u * lid] = c0;
    s_count[2u * lid + 1u] = c1;
    if (publishes_counts) {
      if (tile == 0u) {
        publish(st, word + 2u * lid, LB_INCLUSIVE | (GOFF(2u * lid) + c0));
        publish(st, word + 2u * lid + 1u, LB_INCLUSIVE | (GOFF(2u * lid + 1u) + c1));
      } else {
        publish(st, word + 2u * lid, LB_AGGREGATE | c0);
        publish(st, word + 2u * lid + 1u, LB_AGGREGATE | c1);
      }
    }
  }
  const uint start = rank_positions(pair);  // barriers: s_count is visible after
  if (lid < 128u) {
    s_base[2u * lid] = start;
    s_base[2u * lid + 1u] = start + (pair & 0xFFFFu);
  }
#else
  rank_wg_load(KeyBuf(kin), valid, RADIX_FLAGS, pc.shift, pc.bits);  // counts into s_count
  if (lid < RADIX_DIGITS && publishes_counts)
    publish(st, word + lid, tile == 0u ? LB_INCLUSIVE | (GOFF(lid) + s_count[lid]) : LB_AGGREGATE | s_count[lid]);
  rank_wg_sort(valid, pc.bits);
#endif

  // The tile's first output position of each digit.
  const uint count = lid < RADIX_DIGITS ? s_count[lid] : 0u;
#if defined(SUBGROUP)
  // The tile goes into shared memory in sorted order before the look-back, which needs none of
  // it, so that the staging overlaps the wait on predecessors; the values are loaded after the
  // look-back (RANK_EARLY_VALUES), not before it, where they would be held through the wait.
  rank_scatter_stage(vin, valid);
#endif
  uint prefix = 0u;
  if (tile == 0u) {
    if (lid < RADIX_DIGITS) prefix = GOFF(lid);
  } else {
    prefix = look_back(st, tile, count, publishes);
  }

#if defined(SUBGROUP)
  barrier();  // s_base holds the digit starts
  if (lid < RADIX_DIGITS) s_base[lid] = prefix - s_base[lid];
  rank_scatter_write(pc.keys_out, vin, pc.values_out, valid, RADIX_FLAGS, pc.shift, pc.bits);
#else
  if (lid < RADIX_DIGITS) s_off[lid] = prefix;
  barrier();
  rank_wg_scatter(kin, pc.keys_out, vin, pc.values_out, valid);
#endif
#endif  // ONESWEEP_ROUNDS
}
