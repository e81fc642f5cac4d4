#version 460
#extension GL_GOOGLE_include_directive : require
// Summed-area table, first pass: the inclusive scan of every row (in place allowed, where the
// sums are the elements' size). Workgroup w scans rows w, w + groups, ... one at a time, in
// chunks of WG_SIZE x ITEMS elements: the chunk is loaded coalesced into shared memory,
// invocation i scans its ITEMS consecutive elements there, the invocations' totals are scanned
// across the workgroup (common/workgroup_scan.glsl's shared-memory layer: any device, any
// subgroup size), the row's
// carry is added and the chunk stored coalesced; the carry advances by the chunk's total. Every
// chunk is loaded before it is stored. Sums are added in one fixed order: results are the same
// run to run.
#include "vkprim.glsl"
#include "sums.glsl"

#define PUSH_SAT_ROWS  // pc: push.h's SatRowsPush
#include "push.h"

// The workgroup layer's aggregate: a sum.
#define Agg S
Agg agg_identity() { return S(0); }
Agg agg_combine(Agg a, Agg b) { return a + b; }
#include "workgroup_scan.glsl"

#define CHUNK (WG_SIZE * ITEMS)
// Element j of the chunk lives at pad(j): a word of padding after every 32 keeps both the
// coalesced accesses (consecutive j across invocations) and each invocation's run of ITEMS
// consecutive elements free of bank conflicts.
#define pad(j) ((j) + ((j) >> 5))
shared S s_chunk[CHUNK + CHUNK / 32];

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint64_t groups = uint64_t(gl_NumWorkGroups.x) * gl_NumWorkGroups.y;
  const uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  for (uint64_t row = group; row < pc.height; row += groups) {
    const uint64_t first = row * pc.width;
    S carry = S(0);
    for (uint64_t c0 = 0ul; c0 < pc.width; c0 += CHUNK) {
      const uint valid = uint(min(pc.width - c0, uint64_t(CHUNK)));
      for (uint k = 0u; k < ITEMS; ++k) {
        const uint j = k * WG_SIZE + lid;
        s_chunk[pad(j)] = j < valid ? sum_of_bits(U32Buf(ELEM_ADDR(pc.in_addr, first + c0 + j, 4)).v[0]) : S(0);
      }
      barrier();
      S run = S(0);
      for (uint k = 0u; k < ITEMS; ++k) {
        run += s_chunk[pad(lid * ITEMS + k)];
        s_chunk[pad(lid * ITEMS + k)] = run;
      }
      S chunk_total;
      const S before = carry + workgroup_exclusive_scan_shared(run, chunk_total);
      for (uint k = 0u; k < ITEMS; ++k) s_chunk[pad(lid * ITEMS + k)] += before;
      carry += chunk_total;
      barrier();
      for (uint k = 0u; k < ITEMS; ++k) {
        const uint j = k * WG_SIZE + lid;
        if (j < valid) store_sum(pc.out_addr, first + c0 + j, s_chunk[pad(j)]);
      }
      barrier();  // the chunk is out before the next one is loaded
    }
  }
}
