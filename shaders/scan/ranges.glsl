// Multi-pass plans split the tiles into `groups` contiguous ranges, one per workgroup, the same
// way in every pass and every run: what makes reduce-then-scan deterministic.
#ifndef VKPRIM_RANGES_GLSL
#define VKPRIM_RANGES_GLSL

// Tiles [begin, end) of workgroup `g` out of `groups`, for `tiles` tiles.
uvec2 tile_range(uint g, uint groups, uint tiles) {
  const uint per = (tiles + groups - 1u) / groups;
  const uint begin = min(g * per, tiles);
  return uvec2(begin, min(begin + per, tiles));
}

#endif
