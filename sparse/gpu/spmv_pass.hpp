// Pass layer of the GPU sparse kernels: push-constant blocks mirroring shaders/spmv_*.comp,
// and the tile-shape policy (CUB-style tuning, kept apart from the algorithm).
#pragma once

#include <cstddef>
#include <cstdint>

namespace vkprim::sparse::detail {

struct SpmvPartitionPush {
  uint64_t row_ptr, coords, nnz;
  uint32_t rows, tile_items, points;
};
static_assert(offsetof(SpmvPartitionPush, points) == 32);
inline constexpr uint32_t kSpmvPartitionPushBytes = 36;

struct SpmvTilesPush {
  uint64_t row_ptr, col, val, x, y, coords, carry, carry_head, head, fix, nnz, alpha_bits,
      beta_bits;
  uint32_t rows, cols, tiles, flags;
};
static_assert(offsetof(SpmvTilesPush, rows) == 104 && offsetof(SpmvTilesPush, flags) == 116);
inline constexpr uint32_t kSpmvTilesPushBytes = 120;

struct SpmvFixupPush {
  uint64_t y, coords, carry_scan, head, fix, alpha_bits, beta_bits;
  uint32_t tiles, flags;
};
static_assert(offsetof(SpmvFixupPush, flags) == 60);
inline constexpr uint32_t kSpmvFixupPushBytes = 64;

inline constexpr uint32_t kSpmvBetaZero = 1u;

namespace tuning {
// SpMV tiles: 256 invocations x 8 merge items (2048 rows + nonzeros per tile), as CUB's
// AgentSpmv policies; fewer items when the tile's shared memory (products, row ends and the
// scan scratch) would not fit the device.
inline constexpr uint32_t kSpmvWorkgroup = 256;
inline constexpr uint32_t kSpmvItems = 8;
// Shared memory of one spmv_tiles workgroup.
constexpr uint64_t spmv_shared_bytes(uint32_t wg, uint32_t items, uint32_t value_bytes) {
  return uint64_t(wg) * items * (value_bytes + 4) + uint64_t(wg) * 16 + 1024;
}
// Partition and fix-up: one invocation per tile boundary, grid-stride.
inline constexpr uint32_t kSpmvSmallWorkgroup = 256;
inline constexpr uint32_t kSpmvSmallItems = 4;
}  // namespace tuning

}  // namespace vkprim::sparse::detail
