// Pass layer of the GPU sparse kernels: the push constants of shaders/spmv/spmv_*.comp
// (shaders/spmv/push.h, shared with the GLSL), and the tile-shape policy (CUB-style tuning, kept
// apart from the algorithm).
#pragma once

#include "../../shaders/spmv/push.h"

#include <cstdint>
#include <vkprim/sparse/spmv.hpp>

#include "vkprim_shader_ids.hpp"

namespace vkprim::sparse::detail {

inline constexpr uint32_t kSpmvPartitionPushBytes = sizeof(SpmvPartitionPush);
inline constexpr uint32_t kSpmvTilesPushBytes = sizeof(SpmvTilesPush);
inline constexpr uint32_t kSpmvFixupPushBytes = sizeof(SpmvFixupPush);
inline constexpr uint32_t kSpmvRowsPushBytes = sizeof(SpmvRowsPush);
inline constexpr uint32_t kSpmvListPushBytes = sizeof(SpmvListPush);
inline constexpr uint32_t kSpmvLongPushBytes = sizeof(SpmvLongPush);
inline constexpr uint32_t kSpmvStreamPushBytes = sizeof(SpmvStreamPush);
inline constexpr uint32_t kSpmvStatsPushBytes = sizeof(SpmvStatsPush);

// Flag bits of the tiles, fix-up, row, long and stream passes.
inline constexpr uint32_t kSpmvBetaZero = 1u;
inline constexpr uint32_t kSpmvVectorLoads = 2u;   // tiles: aligned arrays, 4 entries per load
inline constexpr uint32_t kSpmvNonzeroTiles = 4u;  // tiles: fixed nonzero tiles (else merge path)

namespace tuning {
// SpMV tiles (spmv_tiles.comp): 256 invocations x 8 items (merge items, or nonzeros); ITEMS is
// fixed at build time (FIXED_ITEMS in shaders/spmv/variants.cmake). 16 items are faster only on
// rows of exactly 16 entries, which align with the invocations; elsewhere 8 are.
inline constexpr uint32_t kSpmvWorkgroup = 256;
inline constexpr uint32_t kSpmvItems = 8;
constexpr bool spmv_items_match_variants() {
  namespace v = vkprim::detail::variants;
  for (v::Real real : v::kRealAxis)
    for (v::RowPtr rp : v::kRowPtrAxis)
      for (v::Layer layer : v::kLayerAxis)
        if (vkprim::detail::shader_fixed_items(v::spmv_tiles(real, rp, layer)) != kSpmvItems)
          return false;
  return true;
}
static_assert(spmv_items_match_variants(),
              "shaders/spmv/variants.cmake compiles spmv_tiles for other items than kSpmvItems");
// Shared memory of one spmv_tiles workgroup: the row sums, the row-end bitmask and the scan's
// scratch.
constexpr uint64_t spmv_shared_bytes(uint32_t wg, uint32_t items, uint32_t value_bytes) {
  return uint64_t(wg) * items * value_bytes + uint64_t(wg) * items / 8 + uint64_t(wg) * 16 + 1024;
}
// Partition and fix-up: one invocation per tile boundary (a partition search is a chain of
// dependent loads: two per invocation would run back to back), grid-stride.
inline constexpr uint32_t kSpmvSmallWorkgroup = 256;
inline constexpr uint32_t kSpmvSmallItems = 1;

// Row kernel: 256 invocations, 256 / L rows per workgroup; kSpmvRowsUnroll entries per lane
// per loop step.
inline constexpr uint32_t kSpmvRowsWorkgroup = 256;
// Row kernel over windows (SpmvAnalysis::skip_empty_rows): 256 invocations look at 4 rows each
// (WINDOW_RUN in spmv_rows.comp), chosen when at least kSpmvSkipEmptyPercent % of the rows are
// empty (and the rows are regular): from there the lane groups no longer idle on empty rows
// repay the window's bookkeeping (the list of its non-empty rows); below it they do not.
inline constexpr uint64_t kSpmvRowsWindow = uint64_t(kSpmvRowsWorkgroup) * 4;
inline constexpr uint64_t kSpmvSkipEmptyPercent = 90;
inline constexpr uint64_t kSpmvRowsUnroll = 4;  // UNROLL in spmv_rows.comp
// Lanes per row: the largest power of two <= ceil(ceil(mean row length) / E), at most the
// subgroup size, with E = 8 entries per lane (about two loop steps of 4 per mean-length row)
// on matrices of at least kSpmvRowsManyRows rows, where throughput counts, and E = 4 (one
// step) on smaller ones, where a row's chain of dependent steps is the latency (with E = 8,
// small matrices take up to twice as long). The boundary between the two sets is not tuned.
// SpmvOptions::row_lanes overrides it.
inline constexpr uint64_t kSpmvRowsManyRows = uint64_t(1) << 20;
// The largest power of two <= ceil(ceil(nnz / rows) / per_lane), at most max_lanes.
constexpr uint32_t spmv_lanes_for(uint64_t rows, uint64_t nnz, uint64_t per_lane,
                                  uint32_t max_lanes) {
  const uint64_t mean_ceil = rows ? (nnz + rows - 1) / rows : 1;
  const uint64_t want = (mean_ceil + per_lane - 1) / per_lane;
  uint32_t lanes = 1;
  while (lanes * 2 <= max_lanes && uint64_t(lanes) * 2 <= want) lanes *= 2;
  return lanes;
}
constexpr uint32_t spmv_row_lanes(uint64_t rows, uint64_t nnz, uint32_t max_lanes) {
  const uint64_t per_lane = rows >= kSpmvRowsManyRows ? 2 * kSpmvRowsUnroll : kSpmvRowsUnroll;
  return spmv_lanes_for(rows, nnz, per_lane, max_lanes);
}
// Wide rows (SpmvAnalysis: at least half the non-empty rows spread over more than a quarter of
// x, so the gathers hit all of x at random) on matrices of at least kSpmvRowsManyRows rows take
// more lanes: E = 4 for 4-byte values, E = 2 for 8-byte values, so that more of their
// independent gathers are in flight. Banded rows keep the rule above (their gathers hit the
// cache).
constexpr uint32_t spmv_wide_row_lanes(uint64_t rows, uint64_t nnz, uint32_t value_bytes,
                                       uint32_t max_lanes) {
  return spmv_lanes_for(rows, nnz, value_bytes == 4 ? kSpmvRowsUnroll : kSpmvRowsUnroll / 2,
                        max_lanes);
}
// The split kernel's row part: E = 4 (its matrices have long rows, and the rest are gathered
// like any other rows; on large matrices more lanes per row than that gain it nothing), except
// on matrices of fewer than kSpmvSplitSubgroupRows rows, which take a subgroup per row
// (max_lanes). Those are too small to keep the device busy, so their product takes as long as
// its longest chain of dependent steps: a subgroup a row shortens the long rows' chains, and
// raises the long-row threshold (spmv_long_threshold) past most of their rows, so that most
// such products need no long-row list (its fill and list passes and their barriers: several
// times the row pass's own time at these sizes).
inline constexpr uint64_t kSpmvSplitSubgroupRows = uint64_t(1) << 17;
constexpr uint32_t spmv_split_row_lanes(uint64_t rows, uint64_t nnz, uint32_t max_lanes) {
  if (rows < kSpmvSplitSubgroupRows) return max_lanes;
  return spmv_lanes_for(rows, nnz, kSpmvRowsUnroll, max_lanes);
}
// The row kernel skipping empty rows: lanes from the mean of the non-empty rows; wide rows on
// large matrices as above, otherwise E = 8 on large matrices with 4-byte values and E = 4 for
// the rest.
constexpr uint32_t spmv_skip_row_lanes(uint64_t rows, uint64_t nonempty, uint64_t nnz,
                                       uint32_t value_bytes, bool wide, uint32_t max_lanes) {
  if (rows >= kSpmvRowsManyRows && wide)
    return spmv_wide_row_lanes(nonempty, nnz, value_bytes, max_lanes);
  return spmv_lanes_for(nonempty, nnz,
                        rows >= kSpmvRowsManyRows && value_bytes == 4 ? 2 * kSpmvRowsUnroll
                                                                      : kSpmvRowsUnroll,
                        max_lanes);
}
// The automatic choice: the row kernel when the longest row is at most
// kSpmvRowsMaxFactor * mean + kSpmvRowsMaxSlack entries (regular rows) and its lane group
// needs at most kSpmvRowsMaxSteps loop steps of kSpmvRowsUnroll * L entries; the split kernel
// (or the merge path) otherwise (a long row keeps one lane group busy while the others idle,
// and a few very long rows leave most of the GPU without work). The step cap also keeps the row kernel under
// llvmpipe's limit of 65535 loop iterations per invocation.
inline constexpr double kSpmvRowsMaxFactor = 8.0;
inline constexpr double kSpmvRowsMaxSlack = 32.0;
inline constexpr uint64_t kSpmvRowsMaxSteps = 1024;
// The automatic choice runs the row kernel on regular rows, f32 and f64: with its lanes per row
// (spmv_row_lanes) it is faster than the stream kernel on every regular matrix of the benchmark
// suite (docs/sparse-gpu.md). The stream kernel stays as a forced choice (SpmvKernel::stream).
// Stream kernel: blocks of 256 rows, chunks of 256 x 8 nonzeros staged in shared memory
// (SpmvOptions::items_per_invocation overrides the 8; fewer when the chunk would not fit).
inline constexpr uint32_t kSpmvStreamWorkgroup = 256;
inline constexpr uint32_t kSpmvStreamItems = 8;
constexpr uint64_t spmv_stream_shared_bytes(uint32_t items, uint32_t value_bytes) {
  return uint64_t(kSpmvStreamWorkgroup) * items * value_bytes + (kSpmvStreamWorkgroup + 1) * 8;
}
// Split kernel (SpmvKernel::split): the row kernel sums rows of at most
// spmv_long_threshold(L) = kSpmvLongSteps loop steps of 4 L entries (so one row stalls its
// subgroup for at most that many steps); longer rows are listed: "long" rows of at most
// kSpmvHugeRow entries (8 chunks of 256 x 8) get one workgroup each (spmv_long.comp, chunks
// summed in turn), "huge" rows are split into `pieces` workgroups each (piece p taking chunks
// p, p + pieces, ...), with about kSpmvLongTargetGroups workgroups for all of them together
// and no more pieces than the longest row has chunks. At most kSpmvLongMaxRows rows per list
// (one grid dimension); a matrix with more goes to the merge path. 32 steps rather than fewer:
// a lower threshold lists many more rows, each a workgroup of its own.
// Column blocks (SpmvAnalysis::column_blocks, the recommendation for split_columns): on GPUs,
// ceil(x bytes / kSpmvColumnBlockBytes) blocks (at most kSpmvAutoColumnBlocks) where x is larger
// than that, the row or split kernel runs, at least half the non-empty rows are wide (their
// gathers hit all of x), the matrix has at least kSpmvRowsManyRows rows and x is gathered at
// least kSpmvColumnBlockGathers times per element. Each block gathers from its part of x only,
// which the cache holds better; more than 2 blocks, or x of 16 MiB or less, cost more in extra
// passes over y than they save (x gathered fewer than 3 times per element is left whole: the
// gain there is untested). Blocks are split
// copies of the matrix (split_columns), not passes of the row kernel over the whole matrix each
// stopping at its block's end within the rows: every such pass would touch every row.
inline constexpr uint64_t kSpmvColumnBlockBytes = uint64_t(16) << 20;
inline constexpr uint32_t kSpmvAutoColumnBlocks = 2;
inline constexpr uint64_t kSpmvColumnBlockGathers = 3;
// Wide rows (SpmvRowStats::wide_rows): first and last column more than cols / 4 apart.
inline constexpr uint64_t kSpmvWideSpanDivisor = 4;
constexpr uint32_t spmv_wide_span(uint64_t cols) { return uint32_t(cols / kSpmvWideSpanDivisor); }
inline constexpr uint32_t kSpmvLongSteps = 32;
constexpr uint32_t spmv_long_threshold(uint32_t lanes) {
  return kSpmvLongSteps * uint32_t(kSpmvRowsUnroll) * lanes;
}
inline constexpr uint32_t kSpmvLongWorkgroup = 256;
inline constexpr uint32_t kSpmvLongItems = 8;
inline constexpr uint64_t kSpmvLongTargetGroups = 4096;
inline constexpr uint64_t kSpmvLongMaxRows = 65535;
inline constexpr uint32_t kSpmvHugeRow = 8 * kSpmvLongWorkgroup * kSpmvLongItems;
constexpr uint32_t spmv_long_pieces(uint64_t long_rows, uint64_t max_row_length) {
  const uint64_t chunk = uint64_t(kSpmvLongWorkgroup) * kSpmvLongItems;
  const uint64_t by_target = (kSpmvLongTargetGroups + long_rows - 1) / (long_rows ? long_rows : 1);
  const uint64_t by_length = (max_row_length + chunk - 1) / chunk;
  const uint64_t p = by_target < by_length ? by_target : by_length;
  return uint32_t(p < 1 ? 1 : p > 65535 ? 65535 : p);
}
// Irregular rows on GPUs: with 4-byte values, on matrices of at least kSpmvRowsManyRows rows and
// no empty row, whose rows hold enough entries on average that the split kernel takes at least
// kSpmvTilesOverSplitLanes lanes per row, fixed nonzero tiles rather than the split kernel: the
// tiles balance the irregular rows' work. With fewer lanes (most rows of one entry) and with
// 8-byte values the split kernel is the faster.
inline constexpr uint32_t kSpmvTilesOverSplitLanes = 4;
// Statistics pass: one invocation per row, 4 rows each, grid-stride.
inline constexpr uint32_t kSpmvStatsWorkgroup = 256;
inline constexpr uint32_t kSpmvStatsItems = 4;
}  // namespace tuning

}  // namespace vkprim::sparse::detail
