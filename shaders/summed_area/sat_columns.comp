#version 460
#extension GL_GOOGLE_include_directive : require
// Summed-area table, second pass: the inclusive scan of every column of the row-scanned sums,
// in place. The rows are cut into `chunks` chunks of chunk_rows rows; invocation j owns column
// j % width of chunk j / width (adjacent invocations, adjacent columns: coalesced rows).
//   phase 0: the chunk's sum of its column -> partials[chunk * width + column]
//   phase 1: invocation j owns column j: partials become, chunk by chunk, the sums above it
//   phase 2: the chunk's column scanned from the sum above it
// Sums are added in one fixed order: results are the same run to run.
#include "vkprim.glsl"
#include "sums.glsl"

#define PUSH_SAT_COLUMNS  // pc: push.h's SatColumnsPush
#include "push.h"

#define ROW_BATCH 8u

void main() {
  const uint64_t group = uint64_t(gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint64_t j = group * WG_SIZE + gl_LocalInvocationID.x;
  if (pc.phase == 1u) {
    if (j >= pc.width) return;
    S above = S(0);
    for (uint c = 0u; c < pc.chunks; ++c) {
      const uint64_t at = uint64_t(c) * pc.width + j;
      const S chunk_sum = load_sum(pc.partials_addr, at);
      store_sum(pc.partials_addr, at, above);
      above += chunk_sum;
    }
    return;
  }
  if (j >= uint64_t(pc.chunks) * pc.width) return;
  const uint64_t column = j % pc.width, chunk = j / pc.width;
  const uint64_t y0 = chunk * pc.chunk_rows, y1 = min(y0 + pc.chunk_rows, pc.height);
  // Each invocation walks its rows a batch of ROW_BATCH at a time, loading the whole batch
  // before it adds (and, in phase 2, stores): the loads of a batch are in flight together
  // rather than one after another behind each store. Sums are added row by row either way.
  uint64_t y = y0;
  if (pc.phase == 0u) {
    S sum = S(0);
    for (; y + ROW_BATCH <= y1; y += ROW_BATCH) {
      S v[ROW_BATCH];
      [[unroll]] for (uint k = 0u; k < ROW_BATCH; ++k) v[k] = load_sum(pc.sums_addr, (y + k) * pc.width + column);
      [[unroll]] for (uint k = 0u; k < ROW_BATCH; ++k) sum += v[k];
    }
    for (; y < y1; ++y) sum += load_sum(pc.sums_addr, y * pc.width + column);
    store_sum(pc.partials_addr, j, sum);
  } else {
    S sum = load_sum(pc.partials_addr, j);
    for (; y + ROW_BATCH <= y1; y += ROW_BATCH) {
      S v[ROW_BATCH];
      [[unroll]] for (uint k = 0u; k < ROW_BATCH; ++k) v[k] = load_sum(pc.sums_addr, (y + k) * pc.width + column);
      [[unroll]] for (uint k = 0u; k < ROW_BATCH; ++k) {
        sum += v[k];
        store_sum(pc.sums_addr, (y + k) * pc.width + column, sum);
      }
    }
    for (; y < y1; ++y) {
      const uint64_t at = y * pc.width + column;
      sum += load_sum(pc.sums_addr, at);
      store_sum(pc.sums_addr, at, sum);
    }
  }
}
