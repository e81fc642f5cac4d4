// Subgroup-striped tiles (subgroup builds): subgroup s of a tile owns the contiguous chunk of
// gl_SubgroupSize * ITEMS items starting at s * gl_SubgroupSize * ITEMS, walked in ROUNDS rounds;
// in round r, lane l holds the T_PER_VEC4 consecutive items starting at
// r * T_PER_VEC4 * gl_SubgroupSize + l * T_PER_VEC4. Each load and store instruction of a
// subgroup then touches one contiguous block (coalesced 16-byte accesses, like the copy shader),
// and the scan needs one subgroup scan per round plus one workgroup step, with no transposition
// through shared memory. Item k of a lane's items[] is round k / T_PER_VEC4, element
// k % T_PER_VEC4.
#ifndef VKPRIM_TILE_SCAN_STRIPED_GLSL
#define VKPRIM_TILE_SCAN_STRIPED_GLSL

#define ROUNDS (ITEMS / T_PER_VEC4)

// Index within the tile of this lane's item k.
uint striped_index(uint k) {
  const uint S = gl_SubgroupSize;
  return gl_SubgroupID * S * ITEMS + (k / T_PER_VEC4) * T_PER_VEC4 * S +
         gl_SubgroupInvocationID * T_PER_VEC4 + k % T_PER_VEC4;
}

void striped_load(uint64_t values, uint64_t heads, uint64_t first, uint valid, bool aligned,
                  out Agg items[ITEMS]) {
  if (valid == TILE_ITEMS && aligned) {
    U32x4Buf vin = U32x4Buf(values + (first + gl_SubgroupID * gl_SubgroupSize * ITEMS) * T_SIZE);
    uvec4 v[ROUNDS];
    for (uint r = 0; r < ROUNDS; ++r) v[r] = vin.v[r * gl_SubgroupSize + gl_SubgroupInvocationID];
    for (uint r = 0; r < ROUNDS; ++r)
      for (uint e = 0; e < T_PER_VEC4; ++e) items[r * T_PER_VEC4 + e] = agg_of(t_from_vec4(v[r], e), 0u);
    if (heads != 0ul)
      for (uint k = 0; k < ITEMS; ++k)
        items[k] = agg_of(agg_value(items[k]), U32Buf(heads + (first + striped_index(k)) * 4ul).v[0]);
  } else {
    for (uint k = 0; k < ITEMS; ++k) {
      const uint i = striped_index(k);
      items[k] = i < valid ? load_agg(values, heads, first + i) : agg_identity();
    }
  }
}

// (Arrays passed to functions are sized ITEMS, not ROUNDS: glslang emits invalid SPIR-V for
// parameters sized by a specialization-constant expression.)
// Scans the subgroup's chunk: prefix[r] receives the combination of the chunk's items before
// this lane's items of round r. Returns the chunk's total (the same in every lane).
Agg striped_chunk_scan(Agg items[ITEMS], out Agg prefix[ITEMS]) {
  Agg carry = agg_identity();
  for (uint r = 0; r < ROUNDS; ++r) {
    Agg t = items[r * T_PER_VEC4];
    for (uint e = 1; e < T_PER_VEC4; ++e) t = agg_combine(t, items[r * T_PER_VEC4 + e]);
    prefix[r] = agg_combine(carry, subgroup_exclusive(t));
    carry = agg_combine(carry, subgroup_reduce(t));
  }
  return carry;
}

// Writes the scanned items; `base` combines everything before this subgroup's chunk.
void striped_store_scan(uint64_t dst, uint64_t first, uint valid, bool aligned, bool exclusive,
                        Agg base, Agg prefix[ITEMS], Agg items[ITEMS]) {
  T vals[ITEMS];
  for (uint r = 0; r < ROUNDS; ++r) {
    Agg carry = agg_combine(base, prefix[r]);
    for (uint e = 0; e < T_PER_VEC4; ++e) {
      const uint k = r * T_PER_VEC4 + e;
      const Agg next = agg_combine(carry, items[k]);
      vals[k] = exclusive ? agg_exclusive_value(carry, items[k]) : agg_value(next);
      carry = next;
    }
  }
  if (valid == TILE_ITEMS && aligned) {
    U32x4Buf vout = U32x4Buf(dst + (first + gl_SubgroupID * gl_SubgroupSize * ITEMS) * T_SIZE);
    for (uint r = 0; r < ROUNDS; ++r) {
      uvec4 v = uvec4(0u);
      for (uint e = 0; e < T_PER_VEC4; ++e) t_into_vec4(v, e, vals[r * T_PER_VEC4 + e]);
      vout.v[r * gl_SubgroupSize + gl_SubgroupInvocationID] = v;
    }
  } else {
    TBuf tout = TBuf(dst + first * T_SIZE);
    for (uint k = 0; k < ITEMS; ++k) {
      const uint i = striped_index(k);
      if (i < valid) tout.v[i] = vals[k];
    }
  }
}

#endif
