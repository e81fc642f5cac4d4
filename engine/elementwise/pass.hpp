// Pass layer for the element-wise shaders: their push constants (shaders/elementwise/push.h,
// shared with the GLSL) and the chunked grid-stride dispatch they and gather/scatter share.
#pragma once

#include "core/pipeline.hpp"
#include "../../shaders/elementwise/push.h"

#include <cstdint>

namespace vkprim::detail {

// The bytes a pass of push-constant block Push pushes (the block's C++ size).
template <class Push>
constexpr uint32_t push_size() {
  return uint32_t(sizeof(Push));
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
