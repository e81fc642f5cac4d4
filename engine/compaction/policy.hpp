// Compaction policy: the tile of every pass.
#pragma once

#include <cstdint>

namespace vkprim::detail::tuning {

// Compaction: one tile of 256 invocations x 32 four-byte or 16 eight-byte elements per workgroup
// in every pass (128 bytes per invocation). 32 items are possible since the single pass packs
// its selection bits into one word (select_tiles.comp: at most 32 items), and tiles of 8192
// halve its look-back chain.
inline constexpr uint32_t kSelectWorkgroup = 256;
constexpr uint32_t select_items(uint32_t element_bytes) { return element_bytes <= 4 ? 32 : 16; }
}  // namespace vkprim::detail::tuning
