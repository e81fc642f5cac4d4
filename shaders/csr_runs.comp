#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build (sort path), pass 3: ends[i] = 1 where a run of equal sorted keys (duplicates) ends
// (the compaction's flags).
#include "vkprim.glsl"
#include "csr_build.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_addr, ends_addr;
  uint n;
} pc;

void main() {
  FOR_EACH_ITEM(i, pc.n) {
    const KEY k = key_at(pc.keys_addr, i);
    u32_store(pc.ends_addr, i, (i + 1u == pc.n || key_at(pc.keys_addr, i + 1u) != k) ? 1u : 0u);
  }
}
