#version 460
#extension GL_GOOGLE_include_directive : require
// SpMV analysis (Spmv::analyze): row-length statistics of a CSR matrix from its row pointer,
// computed once per matrix. out[0] = the longest row's length (saturated at 2^32 - 1),
// out[1] = the number of empty rows, out[2] = the number of rows longer than long_threshold
// (the split kernel's long rows); out[3] = long_threshold; out[4] = the number of rows longer
// than huge_threshold; out[5] = huge_threshold; out[6] = the number of wide rows, whose first and
// last column indices differ by more than wide_span (the row kernel's column blocks); out[7] =
// wide_span. Each invocation folds its rows (grid-stride), the workgroup folds in shared
// memory, and one invocation per workgroup merges by integer atomics (max and count are exact,
// so the result does not depend on the order).
#include "vkprim.glsl"
#include "csr.glsl"

#define PUSH_SPMV_STATS  // pc: push.h's SpmvStatsPush
#include "push.h"

layout(buffer_reference, std430, buffer_reference_align = 4) buffer StatsBuf { uint v[8]; };

shared uint s_max[gl_WorkGroupSize.x];
shared uint s_empty[gl_WorkGroupSize.x];
shared uint s_long[gl_WorkGroupSize.x];
shared uint s_huge[gl_WorkGroupSize.x];
shared uint s_wide[gl_WorkGroupSize.x];

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint per_group = WG_SIZE * ITEMS;
  const uint groups_needed = uint((uint64_t(pc.rows) + per_group - 1ul) / per_group);
  uint longest = 0u, empty = 0u, long_rows = 0u, huge_rows = 0u, wide_rows = 0u;
  FOR_EACH_TILE(group, groups_needed) {
    [[unroll]] for (uint i = 0u; i < ITEMS; ++i) {
      const uint64_t r = uint64_t(group) * per_group + i * WG_SIZE + lid;
      if (r >= uint64_t(pc.rows)) continue;
      const uint64_t begin = row_ptr_at(pc.row_ptr_addr, r);
      const uint64_t len = row_ptr_at(pc.row_ptr_addr, r + 1ul) - begin;
      longest = max(longest, uint(min(len, 0xFFFFFFFFul)));
      if (len == 0ul) ++empty;
      if (len > uint64_t(pc.long_threshold)) ++long_rows;
      if (len > uint64_t(pc.huge_threshold)) ++huge_rows;
      if (len > 1ul) {
        const uint first = U32Buf(pc.col_addr + begin * 4ul).v[0];
        const uint last = U32Buf(pc.col_addr + (begin + len - 1ul) * 4ul).v[0];
        if (max(first, last) - min(first, last) > pc.wide_span) ++wide_rows;
      }
    }
  }
  s_max[lid] = longest;
  s_empty[lid] = empty;
  s_long[lid] = long_rows;
  s_huge[lid] = huge_rows;
  s_wide[lid] = wide_rows;
  barrier();
  for (uint d = WG_SIZE >> 1; d > 0u; d >>= 1) {
    if (lid < d) {
      s_max[lid] = max(s_max[lid], s_max[lid + d]);
      s_empty[lid] += s_empty[lid + d];
      s_long[lid] += s_long[lid + d];
      s_huge[lid] += s_huge[lid + d];
      s_wide[lid] += s_wide[lid + d];
    }
    barrier();
  }
  if (lid == 0u) {
    StatsBuf out_buf = StatsBuf(pc.out_addr);
    if (s_max[0] != 0u) atomicMax(out_buf.v[0], s_max[0]);
    if (s_empty[0] != 0u) atomicAdd(out_buf.v[1], s_empty[0]);
    if (s_long[0] != 0u) atomicAdd(out_buf.v[2], s_long[0]);
    if (s_huge[0] != 0u) atomicAdd(out_buf.v[4], s_huge[0]);
    if (s_wide[0] != 0u) atomicAdd(out_buf.v[6], s_wide[0]);
    if (gl_WorkGroupID.x == 0u) {  // what out[2], out[4] and out[6] counted
      out_buf.v[3] = pc.long_threshold;
      out_buf.v[5] = pc.huge_threshold;
      out_buf.v[7] = pc.wide_span;
    }
  }
}
