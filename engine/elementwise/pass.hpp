// Pass layer for the element-wise shaders: push-constant blocks mirroring the GLSL (std430
// offsets checked below) and the chunked grid-stride dispatch they all share.
#pragma once

#include "core/pipeline.hpp"

#include <cstddef>
#include <cstdint>

namespace vkprim::detail {

struct CopyPush {     // shaders/elementwise/copy.comp
  uint64_t src, dst;
  uint32_t n;
};
static_assert(offsetof(CopyPush, n) == 16);

struct FillPush {     // shaders/elementwise/fill.comp
  uint64_t dst, pad_;
  uint32_t value[4];
  uint32_t n;
};
static_assert(offsetof(FillPush, value) == 16 && offsetof(FillPush, n) == 32);

struct MapPush {      // shaders/elementwise/map.comp
  uint64_t x, y, z, a, b;
  uint32_t n;
};
static_assert(offsetof(MapPush, n) == 40);

struct GatherPush {   // shaders/gather_scatter/gather.comp
  uint64_t src, idx, dst, src_n;
  uint32_t fallback[2];
  uint32_t n;
};
static_assert(offsetof(GatherPush, fallback) == 32 && offsetof(GatherPush, n) == 40);

struct ScatterPush {  // shaders/gather_scatter/scatter.comp
  uint64_t src, idx, dst, dst_n;
  uint32_t n;
};
static_assert(offsetof(ScatterPush, n) == 32);

template <class Push>
constexpr uint32_t push_size() {
  return uint32_t(offsetof(Push, n) + sizeof(uint32_t));
}

// Records `pipe` over `items` items in dispatches of at most ctx.max_items_per_dispatch items
// (for_each_chunk; nothing for no items).
// `prepare(push, first, count)` fills the push constants of the chunk [first, first + count),
// rebasing its addresses; the chunks touch disjoint elements, so no barrier separates them.
template <class Push, class Prepare>
void record_chunked(const ContextImpl& ctx, const Pipeline& pipe, VkCommandBuffer cmd,
                    uint64_t items, Prepare&& prepare) {
  if (items == 0) return;
  const uint64_t chunk = ctx.max_items_per_dispatch;
  (void)for_each_chunk(items, chunk, [&](uint64_t first, uint64_t count, uint64_t) {
    Push push{};
    prepare(push, first, count);
    push.n = uint32_t(count);
    pipe.dispatch(cmd, &push, grid_groups(ctx, count, pipe.tile_items()));
    return Status{};
  });
}

}  // namespace vkprim::detail
