// Plan-owned temporary storage: what reserve() of every primitive allocates, outside recording.
#pragma once

#include "core/context_impl.hpp"

#include <vkprim/buffer.hpp>

#include <algorithm>
#include <optional>

namespace vkprim::detail {

// Temporary-storage layouts keep every part 16-byte aligned (vector loads and stores).
constexpr uint64_t align16(uint64_t v) { return (v + 15) & ~uint64_t(15); }

// Bytes of the single-pass tile state (shaders/common/tile_state.glsl) for `tiles` tiles carrying
// values of `value_words` 32-bit words: a 4-word header, then per tile an aggregate and an
// inclusive prefix, each word split into two 16-bit pieces.
constexpr uint64_t tile_state_bytes(uint64_t tiles, uint32_t value_words) {
  return 16 + tiles * 2 * (2 * uint64_t(value_words)) * 4;
}

// Makes `owned` hold at least `bytes` of device memory (reallocating only to grow).
inline Status reserve_owned(const ContextImpl& ctx, std::optional<Buffer>& owned, uint64_t bytes) {
  bytes = std::max<uint64_t>(bytes, 16);
  if (owned && owned->size() >= bytes) return {};
  owned.reset();
  auto b = create_buffer(ctx, bytes, MemoryUsage::device);
  if (!b) return b.error();
  owned = std::move(*b);
  return {};
}

}  // namespace vkprim::detail
