#version 460
#extension GL_GOOGLE_include_directive : require
// Pass 2 of reduce and of reduce-then-scan, one workgroup: the `groups` partials are replaced by
// their exclusive scan, and the total is written as a T to total_addr (if nonzero).
#include "vkprim.glsl"
#include "value_type.glsl"
#include "agg.glsl"
#include "workgroup_scan.glsl"
#include "tile_io.glsl"

#define PUSH_SCAN_PARTIALS  // pc: push.h's ScanPartialsPush
#include "push.h"

void main() {
  const uint lid = gl_LocalInvocationID.x;
  Agg carry = agg_identity();
  for (uint base = 0; base < pc.groups; base += gl_WorkGroupSize.x) {
    const uint i = base + lid;
    const Agg x = i < pc.groups ? load_agg_words(pc.partials_addr, i) : agg_identity();
    Agg chunk;
    const Agg excl = workgroup_exclusive_scan(x, chunk);
    if (i < pc.groups) store_agg_words(pc.partials_addr, i, agg_combine(carry, excl));
    carry = agg_combine(carry, chunk);
  }
  if (lid == 0u && pc.total_addr != 0ul) TBuf(pc.total_addr).v[0] = agg_value(carry);
}
