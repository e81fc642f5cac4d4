// Tile state (common/tile_state.glsl) carrying a u32 count instead of a scan value: what the
// single-pass compactions (select_tiles.comp, csr_compact.comp) look back over. Include it
// instead of tile_state.glsl; the pass defines reduce_tile_part (tile_state.glsl).
#ifndef VKPRIM_COUNT_STATE_GLSL
#define VKPRIM_COUNT_STATE_GLSL

#define TS_VALUE uint
#define TS_WORDS 1
uint ts_identity() { return 0u; }
uint ts_combine(uint a, uint b) { return a + b; }
uint ts_word(uint v, uint i) { return v; }
uint ts_from_words(uint w[4]) { return w[0]; }
shared uint s_fallback_sum;
// Shared memory only (it runs inside the look-back loop): a count's order does not matter.
uint ts_workgroup_reduce(uint x) {
  if (gl_LocalInvocationID.x == 0u) s_fallback_sum = 0u;
  barrier();
  if (x != 0u) atomicAdd(s_fallback_sum, x);
  barrier();
  const uint total = s_fallback_sum;
  barrier();
  return total;
}
#include "tile_state.glsl"

#endif
