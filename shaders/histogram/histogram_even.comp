#version 460
#extension GL_GOOGLE_include_directive : require
// Histogram with `bins` even bins over [lower, upper) of u32 (-DSAMPLE_u32) or f32
// (-DSAMPLE_f32) samples; samples outside the range (and NaN) are not counted.
//   u32: bin = (x - lower) * bins / (upper - lower), exact: an f32 estimate (x - lower) * scale,
//        scale = bins / (upper - lower) rounded to f32 on the host, is within one bin of it for
//        bins < 2^22 (three roundings of 2^-24 each), and one comparison in 64-bit integers
//        corrects it; from 2^22 bins on, a 64-bit division (slow on GPUs: per sample it would
//        cost more than the rest of a 256-bin histogram's work).
//   f32: bin = min(uint((x - lower) * scale), bins - 1), scale = float(bins) / (upper - lower)
//        computed on the host in f32 (CUB's scheme; both operations correctly rounded)
// HIST_SHARED: privatized in shared memory (HIST_BINS, specialization constant 2, >= bins),
// flushed to the zeroed global histogram by atomics on nonzero bins; otherwise (more bins than
// shared memory holds) global atomics directly. Workgroups visit tiles grid-stride; no barrier
// inside the loop.
#include "vkprim.glsl"

#define PUSH_HISTOGRAM_EVEN  // pc: push.h's HistogramPush
#include "push.h"

#if defined(HIST_SHARED)
layout(constant_id = 2) const uint HIST_BINS = 256;
shared uint s_hist[HIST_BINS];
#define BIN_ADD(b) atomicAdd(s_hist[b], 1u)
#else
#define BIN_ADD(b) atomicAdd(U32Buf(ELEM_ADDR(pc.hist_addr, b, 4)).v[0], 1u)
#endif

void count_sample(uint bits) {
#if defined(SAMPLE_u32)
  if (bits >= pc.lower && bits <= pc.upper) {
    const uint d = bits - pc.lower;
    const uint64_t range = uint64_t(pc.upper - pc.lower) + 1ul;
    const uint64_t scaled = uint64_t(d) * pc.bins;  // bin = scaled / range
    uint b;
    if (pc.bins < (1u << 22)) {
      b = min(uint(float(d) * uintBitsToFloat(pc.scale)), pc.bins - 1u);
      const uint64_t at = uint64_t(b) * range;  // where bin b starts, scaled
      if (at > scaled) b -= 1u;
      else if (at + range <= scaled) b += 1u;
    } else {
      b = uint(scaled / range);
    }
    BIN_ADD(b);
  }
#elif defined(SAMPLE_f32)
  const float x = uintBitsToFloat(bits), lo = uintBitsToFloat(pc.lower);
  if (x >= lo && x < uintBitsToFloat(pc.upper)) {
    precise const float d = x - lo;
    precise const float s = d * uintBitsToFloat(pc.scale);
    BIN_ADD(min(uint(s), pc.bins - 1u));
  }
#else
#error "define SAMPLE_u32 or SAMPLE_f32"
#endif
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint n = dispatch_count(pc.count_addr, pc.count_first, pc.n);
#if defined(HIST_SHARED)
  for (uint i = lid; i < pc.bins; i += WG_SIZE) s_hist[i] = 0u;
  barrier();
#endif
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = uint((uint64_t(n) + tile_items - 1u) / tile_items);
  FOR_EACH_TILE(tile, tiles) {
    const uint64_t first = uint64_t(tile) * tile_items;
    const uint valid = uint(min(uint64_t(n) - first, uint64_t(tile_items)));
    U32Buf samples = U32Buf(ELEM_ADDR(pc.samples_addr, first, 4));  // indexed within the tile
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = lid + k * WG_SIZE;
      if (i < valid) count_sample(samples.v[i]);
    }
  }
#if defined(HIST_SHARED)
  barrier();
  for (uint i = lid; i < pc.bins; i += WG_SIZE)
    if (s_hist[i] != 0u) atomicAdd(U32Buf(pc.hist_addr).v[i], s_hist[i]);  // i < shared bins
#endif
}
