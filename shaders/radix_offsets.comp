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
// This replaced a device-wide single-pass scan of the whole array (its look-back between tiles)
// in session 24 (docs/benchmarks.md). Needs WG_SIZE >= 256 (one invocation per digit for the sum
// of the digits below d0).
#include "vkprim.glsl"
#include "counts_scan.glsl"

layout(push_constant) uniform Push {
  uint64_t totals_addr;   // 256 * groups u32, digit-major: the upsweep's counts per group
  uint64_t digits_addr;   // stripes * 256 u32: the upsweep's digit counts of the pass
  uint64_t offsets_addr;  // 256 * groups u32, digit-major: written here
  uint groups;
  uint stripes;
  uint rows;              // digits per workgroup
} pc;

#define PAD(i) ((i) + ((i) >> 5u))  // one word every 32: the blocked reads of a chunk hit distinct banks
shared uint s_chunk[PAD(WG_SIZE * ITEMS)];

void main() {
  const uint lid = gl_LocalInvocationID.x, d0 = gl_WorkGroupID.x * pc.rows;
  uint below = 0u;  // invocation i < d0: the keys of digit i
  if (lid < d0)
    for (uint s = 0u; s < pc.stripes; ++s) below += U32Buf(pc.digits_addr).v[s * 256u + lid];
  const uint span = pc.rows * pc.groups;  // < 2^32: the rows of 256 * groups counts
  const uint64_t start = uint64_t(d0) * pc.groups * 4u;
  U32Buf totals = U32Buf(pc.totals_addr + start), offsets = U32Buf(pc.offsets_addr + start);
  uint carry = 0u;
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
    uint at = carry + total.y + excl.x;
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      s_chunk[PAD(lid * ITEMS + k)] = at;
      at += c[k];
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = k * WG_SIZE + lid;
      if (first + i < span) offsets.v[first + i] = s_chunk[PAD(i)];
    }
    barrier();  // the chunk's reads are done before the next one's writes
    carry += total.y + total.x;
    below = 0u;
  }
}
