// Tile loads and stores in blocked arrangement: invocation i of a tile holds its items
// [i * ITEMS, (i + 1) * ITEMS). Full tiles whose addresses are 16-byte aligned move 16 bytes per
// access (ITEMS is a multiple of T_PER_VEC4 and of 4) and go through shared memory: memory is
// read and written striped (invocation i takes 16-byte vectors i, i + WG, i + 2 WG, ..., so each
// instruction of a subgroup touches one contiguous block, like the copy shader), and the
// transposition to and from the blocked arrangement happens in shared memory (CUB's warp
// transpose). The staging array is XOR-swizzled by 16-byte vector index (v ^ ((v >> 3) & 7)), so
// neither the striped nor the blocked accesses (2 or 4 vectors per invocation) meet in a bank.
// Built with TILE_IO_BLOCKED (the single pass's shared-memory layer, scan_tiles.comp), full
// tiles are read and written blocked straight from memory instead. A partial tile goes element
// by element and never touches memory past its `valid` items. tile_load and tile_store_scan contain barriers: call them in uniform
// control flow.
#ifndef VKPRIM_TILE_IO_GLSL
#define VKPRIM_TILE_IO_GLSL

#define TILE_ITEMS (gl_WorkGroupSize.x * ITEMS)

#if !defined(TILE_IO_BLOCKED)
shared uvec4 tio_stage[TILE_ITEMS / T_PER_VEC4];
uint tio_swizzle(uint v) { return v ^ ((v >> 3u) & 7u); }

// The full tile's `vecs_per_item_run` 16-byte vectors per invocation, read striped from `src`
// and returned in blocked order (vector j of invocation i is vector i * per + j of the tile).
#define TIO_LOAD_BLOCKED(src, per, out_vecs)                                                   \
  {                                                                                            \
    uvec4 striped_[per];                                                                       \
    for (uint j_ = 0; j_ < (per); ++j_) striped_[j_] = (src).v[gl_LocalInvocationID.x + j_ * gl_WorkGroupSize.x]; \
    barrier();                                                                                 \
    for (uint j_ = 0; j_ < (per); ++j_) tio_stage[tio_swizzle(gl_LocalInvocationID.x + j_ * gl_WorkGroupSize.x)] = striped_[j_]; \
    barrier();                                                                                 \
    for (uint j_ = 0; j_ < (per); ++j_) out_vecs[j_] = tio_stage[tio_swizzle(gl_LocalInvocationID.x * (per) + j_)]; \
  }
#endif

// Element i of the input, with its segment-head flag (0 when `heads` is 0).
Agg load_agg(uint64_t values, uint64_t heads, uint64_t i) {
  const T x = TBuf(values + i * T_SIZE).v[0];
  const uint h = heads != 0ul ? U32Buf(heads + i * 4ul).v[0] : 0u;
  return agg_of(x, h);
}

// This invocation's items of the tile starting at element `first`; items past `valid` are the
// identity.
void tile_load(uint64_t values, uint64_t heads, uint64_t first, uint valid, bool aligned,
               out Agg items[ITEMS]) {
  const uint mine = gl_LocalInvocationID.x * ITEMS;
  if (valid == TILE_ITEMS && aligned) {
    U32x4Buf vin = U32x4Buf(values + first * T_SIZE);
    uvec4 v[ITEMS / T_PER_VEC4];
#if defined(TILE_IO_BLOCKED)
    [[unroll]] for (uint j = 0; j < ITEMS / T_PER_VEC4; ++j) v[j] = vin.v[mine / T_PER_VEC4 + j];
#else
    TIO_LOAD_BLOCKED(vin, ITEMS / T_PER_VEC4, v)
#endif
    [[unroll]] for (uint j = 0; j < ITEMS / T_PER_VEC4; ++j)
      [[unroll]] for (uint e = 0; e < T_PER_VEC4; ++e) items[j * T_PER_VEC4 + e] = agg_of(t_from_vec4(v[j], e), 0u);
    if (heads != 0ul) {
      U32x4Buf hin = U32x4Buf(heads + first * 4ul);
      uvec4 h[ITEMS / 4];
#if defined(TILE_IO_BLOCKED)
      [[unroll]] for (uint j = 0; j < ITEMS / 4; ++j) h[j] = hin.v[mine / 4 + j];
#else
      TIO_LOAD_BLOCKED(hin, ITEMS / 4, h)
#endif
      [[unroll]] for (uint j = 0; j < ITEMS / 4; ++j)
        [[unroll]] for (uint e = 0; e < 4; ++e) items[j * 4 + e] = agg_of(agg_value(items[j * 4 + e]), h[j][e]);
    }
  } else {
    [[unroll]] for (uint k = 0; k < ITEMS; ++k)
      items[k] = mine + k < valid ? load_agg(values, heads, first + mine + k) : agg_identity();
  }
}

// Loads in striped arrangement for operators where order does not matter (commutative
// reductions): invocation i takes 16-byte vectors i, i + WG, i + 2 WG, ... of the tile, so each
// load instruction of a subgroup reads one contiguous block (coalesced, like the copy shader).
// Returns this invocation's combination of its items; partial tiles fall back to elements.
Agg tile_reduce_striped(uint64_t values, uint64_t heads, uint64_t first, uint valid, bool aligned) {
  Agg acc = agg_identity();
  if (valid == TILE_ITEMS && aligned && heads == 0ul) {
    U32x4Buf vin = U32x4Buf(values + first * T_SIZE);
    uvec4 v[ITEMS / T_PER_VEC4];
    [[unroll]] for (uint j = 0; j < ITEMS / T_PER_VEC4; ++j) v[j] = vin.v[gl_LocalInvocationID.x + j * gl_WorkGroupSize.x];
    [[unroll]] for (uint j = 0; j < ITEMS / T_PER_VEC4; ++j)
      [[unroll]] for (uint e = 0; e < T_PER_VEC4; ++e) acc = agg_combine(acc, agg_of(t_from_vec4(v[j], e), 0u));
  } else {
    [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
      const uint i = gl_LocalInvocationID.x + k * gl_WorkGroupSize.x;
      if (i < valid) acc = agg_combine(acc, load_agg(values, heads, first + i));
    }
  }
  return acc;
}

// This invocation's share of the tile's aggregate, items in order.
Agg thread_reduce(Agg items[ITEMS]) {
  Agg acc = items[0];
  [[unroll]] for (uint k = 1; k < ITEMS; ++k) acc = agg_combine(acc, items[k]);
  return acc;
}

// Writes the scanned items: `carry` is the combination of everything before this invocation's
// first item; inclusive or exclusive results.
void tile_store_scan(uint64_t dst, uint64_t first, uint valid, bool aligned, bool exclusive,
                     Agg carry, Agg items[ITEMS]) {
  const uint mine = gl_LocalInvocationID.x * ITEMS;
  T vals[ITEMS];
  [[unroll]] for (uint k = 0; k < ITEMS; ++k) {
    const Agg next = agg_combine(carry, items[k]);
    vals[k] = exclusive ? agg_exclusive_value(carry, items[k]) : agg_value(next);
    carry = next;
  }
  if (valid == TILE_ITEMS && aligned) {
    U32x4Buf vout = U32x4Buf(dst + first * T_SIZE);
#if !defined(TILE_IO_BLOCKED)
    barrier();  // every earlier read of the staging array is done
#endif
    [[unroll]] for (uint j = 0; j < ITEMS / T_PER_VEC4; ++j) {
      uvec4 v = uvec4(0u);
      [[unroll]] for (uint e = 0; e < T_PER_VEC4; ++e) t_into_vec4(v, e, vals[j * T_PER_VEC4 + e]);
#if defined(TILE_IO_BLOCKED)
      vout.v[mine / T_PER_VEC4 + j] = v;
#else
      tio_stage[tio_swizzle(mine / T_PER_VEC4 + j)] = v;
#endif
    }
#if !defined(TILE_IO_BLOCKED)
    barrier();
    [[unroll]] for (uint j = 0; j < ITEMS / T_PER_VEC4; ++j) {
      const uint i = gl_LocalInvocationID.x + j * gl_WorkGroupSize.x;
      vout.v[i] = tio_stage[tio_swizzle(i)];
    }
#endif
  } else {
    TBuf tout = TBuf(dst + first * T_SIZE);
    [[unroll]] for (uint k = 0; k < ITEMS; ++k)
      if (mine + k < valid) tout.v[mine + k] = vals[k];
  }
}

// Aggregates stored as AGG_WORDS 32-bit words (partials of multi-pass plans).
void store_agg_words(uint64_t addr, uint index, Agg a) {
  U32Buf b = U32Buf(addr);
  for (uint i = 0; i < AGG_WORDS; ++i) b.v[index * AGG_WORDS + i] = agg_word(a, i);
}
Agg load_agg_words(uint64_t addr, uint index) {
  U32Buf b = U32Buf(addr);
  uint w[4] = uint[4](0u, 0u, 0u, 0u);
  for (uint i = 0; i < AGG_WORDS; ++i) w[i] = b.v[index * AGG_WORDS + i];
  return agg_from_words(w);
}

#endif
