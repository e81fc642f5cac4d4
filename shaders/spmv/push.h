// Push constants of the SpMV passes, for their shaders and sparse/spmv/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides). Flag bits:
// sparse/spmv/pass.hpp (kSpmv*).
// In the complex builds (SpmvOptions::complex) a value V is two T, interleaved in A, x and y;
// per-tile arrays of values (carries, heads) hold every tile's real part, then the imaginary
// parts.
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::sparse::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_SPMV_PARTITION)
VKPRIM_PUSH_BEGIN(SpmvPartitionPush)  // spmv_partition.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1 row pointers
  VKPRIM_PUSH_U64(coords_addr, 8)   // out: points u32 row coordinates
  VKPRIM_PUSH_U64(nnz, 16)
  VKPRIM_PUSH_U32(rows, 24)
  VKPRIM_PUSH_U32(tile_items, 28)   // merge items per SpMV tile
  VKPRIM_PUSH_U32(points, 32)       // tiles + 1
VKPRIM_PUSH_END(SpmvPartitionPush, 40)
#endif

#if defined(__cplusplus) || defined(PUSH_SPMV_TILES)
VKPRIM_PUSH_BEGIN(SpmvTilesPush)    // spmv_tiles.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1
  VKPRIM_PUSH_U64(col_addr, 8)      // nnz u32 column indices
  VKPRIM_PUSH_U64(val_addr, 16)     // nnz T
  VKPRIM_PUSH_U64(x_addr, 24)       // cols T
  VKPRIM_PUSH_U64(y_addr, 32)       // rows T, read (unless beta == 0) and written
  VKPRIM_PUSH_U64(coords_addr, 40)  // tiles + 1 u32: the first row each tile writes
                                    // (spmv_partition)
  VKPRIM_PUSH_U64(carry_addr, 48)   // out: tiles T
  VKPRIM_PUSH_U64(carry_head_addr, 56)  // out: tiles u32
  VKPRIM_PUSH_U64(head_addr, 64)    // out: tiles T
  VKPRIM_PUSH_U64(fix_addr, 72)     // out: tiles u32
  VKPRIM_PUSH_U64(nnz, 80)
  VKPRIM_PUSH_U64(alpha_bits, 88)   // T's bit pattern
  VKPRIM_PUSH_U64(beta_bits, 96)
  VKPRIM_PUSH_U32(rows, 104)
  VKPRIM_PUSH_U32(cols, 108)
  VKPRIM_PUSH_U32(tiles, 112)
  VKPRIM_PUSH_U32(flags, 116)       // bit 0: beta is zero (y is not read); bit 1: vector loads
                                    // allowed; bit 2: fixed nonzero tiles (else merge-path tiles)
VKPRIM_PUSH_END(SpmvTilesPush, 120)
#endif

#if defined(__cplusplus) || defined(PUSH_SPMV_FIXUP)
VKPRIM_PUSH_BEGIN(SpmvFixupPush)    // spmv_fixup.comp
  VKPRIM_PUSH_U64(y_addr, 0)
  VKPRIM_PUSH_U64(coords_addr, 8)   // tiles + 1 u32 row coordinates
  VKPRIM_PUSH_U64(carry_scan_addr, 16)  // tiles T
  VKPRIM_PUSH_U64(head_addr, 24)    // tiles T
  VKPRIM_PUSH_U64(fix_addr, 32)     // tiles u32
  VKPRIM_PUSH_U64(alpha_bits, 40)
  VKPRIM_PUSH_U64(beta_bits, 48)
  VKPRIM_PUSH_U32(tiles, 56)
  VKPRIM_PUSH_U32(flags, 60)        // bit 0: beta is zero
VKPRIM_PUSH_END(SpmvFixupPush, 64)
#endif

// Row kernel: one dispatch, L = 2^lane_shift lanes per row. long_threshold != 0 (split kernel):
// rows longer than it are skipped (spmv_list.comp lists them).
#if defined(__cplusplus) || defined(PUSH_SPMV_ROWS)
VKPRIM_PUSH_BEGIN(SpmvRowsPush)     // spmv_rows.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1
  VKPRIM_PUSH_U64(col_addr, 8)      // nnz u32 column indices
  VKPRIM_PUSH_U64(val_addr, 16)     // nnz V (T, or two T for a complex build)
  VKPRIM_PUSH_U64(x_addr, 24)       // cols V
  VKPRIM_PUSH_U64(y_addr, 32)       // rows V, read (unless beta == 0) and written
  VKPRIM_PUSH_U64(alpha_bits, 40)   // T's bit pattern (alpha and beta are real)
  VKPRIM_PUSH_U64(beta_bits, 48)
  VKPRIM_PUSH_U32(rows, 56)
  VKPRIM_PUSH_U32(cols, 60)
  VKPRIM_PUSH_U32(lane_shift, 64)   // log2(L); L <= the subgroup size (subgroup build) and
                                    // <= WG_SIZE
  VKPRIM_PUSH_U32(flags, 68)        // bit 0: beta is zero (y is not read)
  VKPRIM_PUSH_U32(long_threshold, 72)  // split kernel: rows longer than this are left to
                                    // spmv_long; 0: none
  VKPRIM_PUSH_U64(dot_addr, 80)     // DOT build: out, one T per workgroup (the workgroup's
                                    // sum of y[row] * x[row] over its rows)
VKPRIM_PUSH_END(SpmvRowsPush, 88)
#endif

// Split kernel's lists of long and huge rows.
#if defined(__cplusplus) || defined(PUSH_SPMV_LIST)
VKPRIM_PUSH_BEGIN(SpmvListPush)     // spmv_list.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1
  VKPRIM_PUSH_U64(long_addr, 8)     // up to the host's capacity of row indices
  VKPRIM_PUSH_U64(huge_addr, 16)    // the same for huge rows
  VKPRIM_PUSH_U64(counts_addr, 24)  // u32 count of long rows, then of huge rows
  VKPRIM_PUSH_U32(rows, 32)
  VKPRIM_PUSH_U32(long_threshold, 36)
  VKPRIM_PUSH_U32(huge_threshold, 40)  // >= long_threshold
VKPRIM_PUSH_END(SpmvListPush, 48)
#endif

// Split kernel's long rows: phase 0 partial sums, phase 1 combine + write y.
#if defined(__cplusplus) || defined(PUSH_SPMV_LONG)
VKPRIM_PUSH_BEGIN(SpmvLongPush)     // spmv_long.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1
  VKPRIM_PUSH_U64(col_addr, 8)      // nnz u32 column indices
  VKPRIM_PUSH_U64(val_addr, 16)     // nnz T
  VKPRIM_PUSH_U64(x_addr, 24)       // cols T
  VKPRIM_PUSH_U64(y_addr, 32)       // rows T
  VKPRIM_PUSH_U64(long_addr, 40)    // row indices (written by spmv_list.comp)
  VKPRIM_PUSH_U64(count_addr, 48)   // u32: how many
  VKPRIM_PUSH_U64(partial_addr, 56)  // capacity * pieces T
  VKPRIM_PUSH_U64(alpha_bits, 64)
  VKPRIM_PUSH_U64(beta_bits, 72)
  VKPRIM_PUSH_U32(cols, 80)
  VKPRIM_PUSH_U32(pieces, 84)
  VKPRIM_PUSH_U32(flags, 88)        // bit 0: beta is zero (y is not read)
  VKPRIM_PUSH_U32(phase, 92)        // 0: partial sums, 1: combine and write y
VKPRIM_PUSH_END(SpmvLongPush, 96)
#endif

// Stream kernel: one dispatch, WG_SIZE rows per workgroup.
#if defined(__cplusplus) || defined(PUSH_SPMV_STREAM)
VKPRIM_PUSH_BEGIN(SpmvStreamPush)   // spmv_stream.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1
  VKPRIM_PUSH_U64(col_addr, 8)      // nnz u32 column indices
  VKPRIM_PUSH_U64(val_addr, 16)     // nnz T
  VKPRIM_PUSH_U64(x_addr, 24)       // cols T
  VKPRIM_PUSH_U64(y_addr, 32)       // rows T, read (unless beta == 0) and written
  VKPRIM_PUSH_U64(alpha_bits, 40)   // T's bit pattern
  VKPRIM_PUSH_U64(beta_bits, 48)
  VKPRIM_PUSH_U32(rows, 56)
  VKPRIM_PUSH_U32(cols, 60)
  VKPRIM_PUSH_U32(flags, 64)        // bit 0: beta is zero (y is not read)
  VKPRIM_PUSH_U32(pad, 68)
VKPRIM_PUSH_END(SpmvStreamPush, 72)
#endif

// Row-length statistics: 8 u32 out (max row length, empty rows, rows longer than
// long_threshold, long_threshold, rows longer than huge_threshold, huge_threshold, wide rows:
// first and last column more than wide_span apart, wide_span).
#if defined(__cplusplus) || defined(PUSH_SPMV_STATS)
VKPRIM_PUSH_BEGIN(SpmvStatsPush)    // spmv_stats.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1
  VKPRIM_PUSH_U64(out_addr, 8)      // 8 u32, zeroed before this pass
  VKPRIM_PUSH_U64(col_addr, 16)     // nnz u32 column indices
  VKPRIM_PUSH_U32(rows, 24)
  VKPRIM_PUSH_U32(long_threshold, 28)
  VKPRIM_PUSH_U32(huge_threshold, 32)
  VKPRIM_PUSH_U32(wide_span, 36)
VKPRIM_PUSH_END(SpmvStatsPush, 40)
#endif

#ifdef __cplusplus
}  // namespace vkprim::sparse::detail
#endif
