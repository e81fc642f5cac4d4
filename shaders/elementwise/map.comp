#version 460
#extension GL_GOOGLE_include_directive : require
// Element-wise maps over T (common/value_type.glsl), one operation per variant:
//   OP_affine: z[i] = a * x[i] + b
//   OP_abs:    z[i] = |x[i]|            (identity for unsigned T)
//   OP_axpby:  z[i] = a * x[i] + b * y[i]
// Integer arithmetic wraps modulo 2^bits; z may alias x or y (each element is read once,
// then written once, by the same invocation).
#include "vkprim.glsl"
#include "value_type.glsl"

#define PUSH_MAP  // pc: push.h's MapPush
#include "push.h"

// Element i of the tile whose x, y are given (indices within the tile: vkprim.glsl).
T apply(TBuf xs, TBuf ys, uint i, T a, T b) {
  const T x = xs.v[i];
#if defined(OP_affine)
  return a * x + b;
#elif defined(OP_abs)
#if defined(T_SIGNED)
  return abs(x);
#else
  return x;
#endif
#elif defined(OP_axpby)
  return a * x + b * ys.v[i];
#else
#error "define one of OP_affine OP_abs OP_axpby"
#endif
}

void main() {
  const T a = T_FROM_BITS(pc.a);
  const T b = T_FROM_BITS(pc.b);
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = (pc.n + tile_items - 1) / tile_items;
  FOR_EACH_TILE(tile, tiles) {
    const uint first = tile * tile_items;
    TBuf xs = TBuf(ELEM_ADDR(pc.x, first, T_SIZE)), ys = TBuf(ELEM_ADDR(pc.y, first, T_SIZE));
    TBuf zs = TBuf(ELEM_ADDR(pc.z, first, T_SIZE));
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = gl_LocalInvocationID.x + k * WG_SIZE;
      if (first + i < pc.n) zs.v[i] = apply(xs, ys, i, a, b);
    }
  }
}
