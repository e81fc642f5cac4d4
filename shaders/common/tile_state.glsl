// Tile state for single-pass scans: decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016) made safe on devices without
// forward-progress guarantees by decoupled fallback (Smith, Levien & Owens, SPAA 2025): a
// workgroup that waits too long on a predecessor reduces that tile's input itself.
//
// Layout of the state buffer (zeroed before every scan):
//   word 0          tile counter (tile ids come from it, not from gl_WorkGroupID)
//   words 4...      per tile, 2 * AGG_PIECES words: its aggregate, then its inclusive prefix.
// Each word is TS_READY | a 16-bit piece of the value. A word is written once (atomicOr into
// zeroed memory) and read whole (volatile loads of 16-byte vectors, each word single-copy
// atomic), so a value is seen complete or not at all and state never goes backwards; no 64-bit
// atomics and no memory-model fences are needed.
#ifndef VKPRIM_TILE_STATE_GLSL
#define VKPRIM_TILE_STATE_GLSL

// The look-back's specialization constants: SPIN_LIMIT (the `spin_limit` the passes hand to
// look_back below) and the testing stalls (look_back_publishes).
#include "look_back.h"

// The value carried: the pass's Agg (agg.glsl) unless the pass defines TS_VALUE first, with
// TS_WORDS, ts_identity(), ts_combine(a, b) (a earlier), ts_word(v, i), ts_from_words(uint[4])
// and ts_workgroup_reduce(x) (every invocation's x combined in invocation order, shared memory
// only: it runs inside the look-back loop, where subgroup operations are not safe).
#ifndef TS_VALUE
#define TS_VALUE Agg
#define TS_WORDS AGG_WORDS
#define ts_identity agg_identity
#define ts_combine agg_combine
#define ts_word agg_word
#define ts_from_words agg_from_words
#define ts_workgroup_reduce workgroup_reduce_shared
#endif

#define AGG_PIECES (2 * TS_WORDS)
#define TS_READY 0x80000000u
#define TS_HEADER_WORDS 4
#define TS_NOT_READY 0u
#define TS_AGGREGATE 1u
#define TS_INCLUSIVE 2u

layout(buffer_reference, std430, buffer_reference_align = 4) coherent volatile buffer StateBuf { uint w[]; };

uint ts_index(uint tile, uint kind, uint piece) {
  return TS_HEADER_WORDS + (tile * 2u + kind) * AGG_PIECES + piece;
}

// kind 0: aggregate, 1: inclusive prefix.
void ts_publish(StateBuf st, uint tile, uint kind, TS_VALUE a) {
  for (uint i = 0; i < TS_WORDS; ++i) {
    const uint w = ts_word(a, i);
    atomicOr(st.w[ts_index(tile, kind, 2 * i)], TS_READY | (w & 0xFFFFu));
    atomicOr(st.w[ts_index(tile, kind, 2 * i + 1)], TS_READY | (w >> 16));
  }
}

// A tile's words of both kinds are consecutive, 4 * TS_WORDS of them from a 16-byte boundary
// (the header is 4 words, and every layout aligns the state to 16 bytes), so they are read as
// TS_WORDS 16-byte vectors: one load instead of four a vector, each word still whole, so a
// look-back step issues a quarter of the loads.
layout(buffer_reference, std430, buffer_reference_align = 16) coherent volatile buffer StateVecs { uvec4 w[]; };

// TS_INCLUSIVE, TS_AGGREGATE or TS_NOT_READY, with the value in `a` when ready. All words of
// both kinds are loaded before any is looked at: one memory round trip, not one per kind.
// TS_READ_BY_HAND (one-word values only): the same, written out for the single word; which form
// keeps the single-pass scan at 64 registers a thread (four workgroups an SM) on NVIDIA's
// compiler depends on the value type (the loop form gives f32 80 registers, this one gives u32
// 80), so scan_tiles.comp picks it for float values.
uint ts_read(StateBuf st, uint tile, out TS_VALUE a) {
  uint w[2][2 * TS_WORDS];
#if TS_WORDS == 1 && defined(TS_READ_BY_HAND)
  const uvec4 v = StateVecs(uint64_t(st)).w[ts_index(tile, 0u, 0u) / 4u];
  uint words[4] = uint[4](0u, 0u, 0u, 0u);
  if ((v.z & v.w & TS_READY) != 0u) {
    words[0] = (v.z & 0xFFFFu) | (v.w << 16);
    a = ts_from_words(words);
    return TS_INCLUSIVE;
  }
  if ((v.x & v.y & TS_READY) != 0u) {
    words[0] = (v.x & 0xFFFFu) | (v.y << 16);
    a = ts_from_words(words);
    return TS_AGGREGATE;
  }
  a = ts_identity();
  return TS_NOT_READY;  // (the decode below is the loop form's; this form never reaches it)
#else
  StateVecs sv = StateVecs(uint64_t(st));
  [[unroll]] for (uint q = 0; q < TS_WORDS; ++q) {
    const uvec4 v = sv.w[ts_index(tile, 0u, 0u) / 4u + q];
    [[unroll]] for (uint c = 0; c < 4u; ++c) {
      const uint f = 4u * q + c;
      w[f / (2u * TS_WORDS)][f % (2u * TS_WORDS)] = v[c];
    }
  }
#endif
  a = ts_identity();
  for (int kind = 1; kind >= 0; --kind) {
    uint words[4] = uint[4](0u, 0u, 0u, 0u);
    bool ready = true;
    for (uint i = 0; i < TS_WORDS; ++i) {
      const uint lo = w[kind][2 * i], hi = w[kind][2 * i + 1];
      ready = ready && (lo & hi & TS_READY) != 0u;
      words[i] = (lo & 0xFFFFu) | (hi << 16);
    }
    if (ready) {
      a = ts_from_words(words);
      return kind == 1 ? TS_INCLUSIVE : TS_AGGREGATE;
    }
  }
  return TS_NOT_READY;
}

// The including pass defines
//   TS_VALUE reduce_tile_part(uint tile, uint part, uint parts)
// the combination, in order, of part `part` of `parts` equal consecutive slices of the tile's
// input: what a look-back falls back to when a predecessor does not publish in time.
TS_VALUE reduce_tile_part(uint tile, uint part, uint parts);

shared TS_VALUE lb_acc;

// Look-back with the whole workgroup, through shared memory and no subgroup operations (a
// subgroup-only variant driven by ballots is slower, and subgroup operations inside this loop
// break on lavapipe). Per step, invocations 0..LB_WINDOW-1 read a
// window of predecessors (nearest first) and mark, by one shared atomicMin, the nearest that
// ends this step: an inclusive prefix (done) or one not ready (blocked). Invocation 0 then
// combines the window's values up to that point only, nearest-first. All invocations must call
// it in uniform control flow.
#define LB_WINDOW 32u
shared TS_VALUE lb_val[LB_WINDOW];
shared uint lb_stop;  // (window position << 2) | LB_STOP_*, the smallest of the step
shared uint lb_status;
shared uint lb_next;
#define LB_STOP_INCLUSIVE 0u
#define LB_STOP_BLOCKED 1u
#define LB_STOP_NONE 2u  // the whole window held aggregates

// Returns the combination of every tile before `tile`, in every invocation. Invocation 0
// publishes the tile's inclusive prefix (that combination, then `total`) as soon as it knows it,
// unless `publishes` is false.
TS_VALUE look_back(StateBuf st, uint tile, uint spin_limit, TS_VALUE total, bool publishes) {
  const uint lid = gl_LocalInvocationID.x;
  uint j = tile - 1u;        // the nearest predecessor not yet combined
  uint blocked_on = 0xFFFFFFFFu;
  uint spins = 0u;
  if (lid == 0u) {
    lb_acc = ts_identity();
    lb_stop = (LB_WINDOW << 2) | LB_STOP_NONE;
  }
  for (;;) {
    barrier();
    if (lid < LB_WINDOW && lid <= j) {
      TS_VALUE v;
      const uint f = ts_read(st, j - lid, v);
      lb_val[lid] = v;
      // Tile 0's aggregate is its inclusive prefix; the window's last entry (tile 0, or the
      // window's end) stops the step too.
      if (f == TS_NOT_READY) atomicMin(lb_stop, (lid << 2) | LB_STOP_BLOCKED);
      else if (f == TS_INCLUSIVE || j - lid == 0u) atomicMin(lb_stop, (lid << 2) | LB_STOP_INCLUSIVE);
    }
    barrier();
    if (lid == 0u) {
      const uint stop = lb_stop >> 2, why = lb_stop & 3u;
      const uint last = min(min(stop, LB_WINDOW), j + 1u);  // entries [0, last) are aggregates
      TS_VALUE acc = lb_acc;
      for (uint w = 0u; w < last; ++w) acc = ts_combine(lb_val[w], acc);
      if (why == LB_STOP_INCLUSIVE) {
        acc = ts_combine(lb_val[stop], acc);
        // The tile's inclusive prefix goes out now, not after the workgroup's barriers: it is
        // what successors' look-backs wait on.
        if (publishes) ts_publish(st, tile, 1u, ts_combine(acc, total));
      }
      lb_acc = acc;
      // 0: keep going from lb_next, 1: blocked at lb_next, 2: done
      lb_status = why == LB_STOP_INCLUSIVE ? 2u : why == LB_STOP_BLOCKED ? 1u : 0u;
      lb_next = j - last;
      lb_stop = (LB_WINDOW << 2) | LB_STOP_NONE;
    }
    barrier();
    const uint status = lb_status;
    const uint next = lb_next;
    if (status == 2u) break;
    bool fall_back = false;
    if (status == 1u) {
      if (next != blocked_on) {
        blocked_on = next;
        spins = 0u;
      }
      spins += 1u;
      fall_back = spins > spin_limit;
    }
    if (fall_back) {
      // Decoupled fallback: do the blocking tile's reduction here.
      const TS_VALUE t = ts_workgroup_reduce(reduce_tile_part(next, lid, gl_WorkGroupSize.x));
      if (lid == 0u) {
        lb_acc = ts_combine(t, lb_acc);
        if (next == 0u && publishes) ts_publish(st, tile, 1u, ts_combine(lb_acc, total));
      }
      if (next == 0u) break;
      blocked_on = 0xFFFFFFFFu;
      spins = 0u;
      j = next - 1u;
    } else {
      j = next;
    }
  }
  barrier();
  TS_VALUE result = lb_acc;
  barrier();
  return result;
}

// The whole protocol for one tile, in every invocation (uniform control flow): publish the
// tile's own combination `total` (tile 0: as its inclusive prefix), look back, publish the
// inclusive prefix, and return the combination of every tile before `tile`. `publishes` false
// (testing: a tile look_back_publishes stalls) skips both publications, so successors must fall
// back.
TS_VALUE tile_exclusive_prefix(StateBuf st, uint tile, TS_VALUE total, uint spin_limit, bool publishes) {
  const bool writer = gl_LocalInvocationID.x == 0u && publishes;
  if (tile == 0u) {
    if (writer) ts_publish(st, 0u, 1u, total);
    return ts_identity();
  }
  if (writer) ts_publish(st, tile, 0u, total);
  return look_back(st, tile, spin_limit, total, publishes);  // publishes the inclusive prefix
}

#endif
