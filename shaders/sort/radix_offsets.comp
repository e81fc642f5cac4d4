#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, per digit pass, step 2 of reduce-then-scan (Merrill & Grimshaw 2011): the
// upsweep's group counts, totals[d * groups + g] (radix_upsweep.comp), into offsets[d * groups +
// g], the first output position of digit d's keys in group g. That is the exclusive scan of the
// digit-major array: the keys of every digit below d plus those of digit d in the groups
// before g. Workgroup w scans the rows of `rows` consecutive digits from d0 = w * rows on (a
// power of two: one row per workgroup where rows are long, many where they are short, so that
// a workgroup's work stays near one chunk), and none waits on another: the keys of the digits
// below d0 come from the pass's digit counts, which the upsweep adds into `stripes` copies of
// 256 words by atomics (copy g % stripes for group g, so that fewer groups contend for one word).
// The span goes through shared memory in chunks of WG_SIZE * ITEMS counts (coalesced loads and
// stores; each invocation scans ITEMS consecutive counts), the sum carried from chunk to chunk.
// No look-back between workgroups, as a device-wide single-pass scan of the array would need.
// Needs WG_SIZE >= 256 (one invocation per digit for the sum
// of the digits below d0).
// RADIX_WIDE (sorts of 2^32 keys and more): the offsets are u64 and the keys below d0 are summed
// in 64 bits in shared memory; a chunk's counts still sum below 2^32 (WG_SIZE * ITEMS counts of
// at most one group's keys each).
#include "vkprim.glsl"
#include "counts_scan.glsl"

#define PUSH_RADIX_OFFSETS  // pc: push.h's RadixOffsetsPush
#include "push.h"

#define PAD(i) ((i) + ((i) >> 5u))  // one word every 32: the blocked reads of a chunk hit distinct banks
shared uint s_chunk[PAD(WG_SIZE * ITEMS)];
#if defined(RADIX_WIDE)
shared uint64_t s_below[256];
#endif

void main() {
  const uint lid = gl_LocalInvocationID.x, d0 = gl_WorkGroupID.x * pc.rows;
#if defined(RADIX_WIDE)
  // The keys of the digits below d0, a 64-bit sum (a tree over 256 words in shared memory).
  uint64_t below_d = 0ul;
  if (lid < d0)
    for (uint s = 0u; s < pc.stripes; ++s) below_d += uint64_t(U32Buf(pc.digits_addr).v[s * 256u + lid]);
  if (lid < 256u) s_below[lid] = below_d;
  barrier();
  for (uint h = 128u; h > 0u; h >>= 1) {
    if (lid < h) s_below[lid] += s_below[lid + h];
    barrier();
  }
  uint64_t carry = s_below[0];
  uint below = 0u;  // already in carry
  const uint64_t start = uint64_t(d0) * pc.groups;
  U32Buf totals = U32Buf(pc.totals_addr + start * 4u);
  U64Buf offsets = U64Buf(pc.offsets_addr + start * 8u);
#else
  uint below = 0u;  // invocation i < d0: the keys of digit i
  if (lid < d0)
    for (uint s = 0u; s < pc.stripes; ++s) below += U32Buf(pc.digits_addr).v[s * 256u + lid];
  const uint64_t start = uint64_t(d0) * pc.groups * 4u;
  U32Buf totals = U32Buf(pc.totals_addr + start), offsets = U32Buf(pc.offsets_addr + start);
  uint carry = 0u;
#endif
  const uint span = pc.rows * pc.groups;  // < 2^32: the rows of 256 * groups counts
  for (uint first = 0u; first < span; first += WG_SIZE * ITEMS) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = k * WG_SIZE + lid;
      s_chunk[PAD(i)] = first + i < span ? totals.v[first + i] : 0u;
    }
    barrier();
    uint c[ITEMS];
    uint sum = 0u;
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      c[k] = s_chunk[PAD(lid * ITEMS + k)];
      sum += c[k];
    }
    // .x: this chunk's counts; .y: the digits below d0, in the first chunk only. Its barriers
    // also order the reads above before the writes below.
    uvec2 total;
    const uvec2 excl = counts_exclusive_scan(uvec2(sum, below), total);
#if defined(RADIX_WIDE)
    uint at = excl.x;  // from carry on (a chunk's counts sum below 2^32)
#else
    uint at = carry + total.y + excl.x;
#endif
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      s_chunk[PAD(lid * ITEMS + k)] = at;
      at += c[k];
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = k * WG_SIZE + lid;
#if defined(RADIX_WIDE)
      if (first + i < span) offsets.v[first + i] = carry + uint64_t(s_chunk[PAD(i)]);
#else
      if (first + i < span) offsets.v[first + i] = s_chunk[PAD(i)];
#endif
    }
    barrier();  // the chunk's reads are done before the next one's writes
    carry += total.y + total.x;
    below = 0u;
  }
}
