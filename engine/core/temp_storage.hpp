// Plan-owned temporary storage: what reserve() of every primitive allocates, outside recording.
#pragma once

#include "core/context_impl.hpp"

#include <vkprim/buffer.hpp>

#include <algorithm>
#include <optional>

namespace vkprim::detail {

// Temporary-storage layouts keep every part 16-byte aligned (vector loads and stores).
constexpr uint64_t align16(uint64_t v) { return (v + 15) & ~uint64_t(15); }

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
