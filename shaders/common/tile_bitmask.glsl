// A bitmask over the TILE elements of a workgroup's tile in shared memory (TILE a multiple of
// 32, defined by the pass): what the compactions without subgroup operations rank by. Bit e:
// element e of the tile is kept. The pass zeroes s_bits before setting bits (atomicOr) and puts
// a barrier between setting and counting.
#ifndef VKPRIM_TILE_BITMASK_GLSL
#define VKPRIM_TILE_BITMASK_GLSL

shared uint s_bits[TILE / 32u];

// The set bits in [begin, end) (end - begin <= 32, within one word).
uint bits_in(uint begin, uint end) {
  const uint w = s_bits[begin >> 5u];
  const uint lo = begin & 31u, len = end - begin;
  const uint mask = len == 32u ? 0xFFFFFFFFu : ((1u << len) - 1u) << lo;
  return bitCount(w & mask);
}

// The set bits of the blocked run [begin, begin + len) (len divides 32 or is a multiple of it).
uint bits_in_run(uint begin, uint len) {
  uint c = 0u;
  [[unroll]] for (uint r = 0u; r < len; r += 32u) c += bits_in(begin + r, begin + min(r + 32u, len));
  return c;
}

// The set bits before element e in its blocked run of `run` elements (run divides 32 or is a
// multiple of it).
uint bits_before_in_run(uint e, uint run) {
  const uint run_begin = (e / run) * run;
  const uint word_begin = max(run_begin, e & ~31u);
  uint rank = bits_in(word_begin, e);
  for (uint w = run_begin; w < word_begin; w += 32u) rank += bits_in(w, w + 32u);
  return rank;
}

#endif
