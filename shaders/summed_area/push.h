// Push constants of the summed-area table's passes, for sat_rows.comp, sat_columns.comp,
// sat_widen.comp and engine/summed_area/pass.hpp (common/push_block.h: one definition, offsets
// and sizes checked on both sides).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_SAT_ROWS)
VKPRIM_PUSH_BEGIN(SatRowsPush)      // sat_rows.comp
  VKPRIM_PUSH_U64(in_addr, 0)       // height rows of width values, rows contiguous
  VKPRIM_PUSH_U64(out_addr, 8)      // the rows' inclusive scans, as sums (may be in_addr)
  VKPRIM_PUSH_U64(width, 16)
  VKPRIM_PUSH_U64(height, 24)
VKPRIM_PUSH_END(SatRowsPush, 32)
#endif

#if defined(__cplusplus) || defined(PUSH_SAT_COLUMNS)
VKPRIM_PUSH_BEGIN(SatColumnsPush)   // sat_columns.comp
  VKPRIM_PUSH_U64(sums_addr, 0)     // width x height sums, scanned down the columns in place
  VKPRIM_PUSH_U64(partials_addr, 8) // chunks x width sums: phase 0 writes each chunk's column
                                    // sums, phase 1 turns them into the sums above the chunk
  VKPRIM_PUSH_U64(width, 16)
  VKPRIM_PUSH_U64(height, 24)
  VKPRIM_PUSH_U32(chunk_rows, 32)   // rows per chunk (the last chunk may hold fewer)
  VKPRIM_PUSH_U32(chunks, 36)
  VKPRIM_PUSH_U32(phase, 40)        // 0: chunk sums; 1: their exclusive scan; 2: the columns
VKPRIM_PUSH_END(SatColumnsPush, 48)
#endif

#if defined(__cplusplus) || defined(PUSH_SAT_WIDEN)
VKPRIM_PUSH_BEGIN(SatWidenPush)     // sat_widen.comp
  VKPRIM_PUSH_U64(in_addr, 0)       // n u32
  VKPRIM_PUSH_U64(out_addr, 8)      // n u64
  VKPRIM_PUSH_U64(n, 16)
VKPRIM_PUSH_END(SatWidenPush, 24)
#endif

#ifdef __cplusplus
}  // namespace vkprim::detail
#endif
