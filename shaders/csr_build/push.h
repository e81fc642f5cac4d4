// Push constants of the CSR build's passes, for their shaders and sparse/csr_build/ (csr_build.cpp,
// csr_split.cpp) (common/push_block.h: one definition, offsets and sizes checked on both sides).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::sparse::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_CSR_KEYS)
VKPRIM_PUSH_BEGIN(KeysPush)         // csr_keys.comp
  VKPRIM_PUSH_U64(rows_addr, 0)
  VKPRIM_PUSH_U64(cols_addr, 8)
  VKPRIM_PUSH_U64(keys_addr, 16)
  VKPRIM_PUSH_U64(status_addr, 24)
  VKPRIM_PUSH_U64(hist_addr, 32)    // the sort's upfront results, zeroed
  VKPRIM_PUSH_U64(varying_addr, 40)
  VKPRIM_PUSH_U32(n, 48)
  VKPRIM_PUSH_U32(rows, 52)
  VKPRIM_PUSH_U32(cols, 56)
  VKPRIM_PUSH_U32(col_bits, 60)
  VKPRIM_PUSH_U32(sort_flags, 64)   // the sort's key flags (common/radix.glsl), bits [0, end_bit)
  VKPRIM_PUSH_U32(end_bit, 68)
  VKPRIM_PUSH_U32(passes, 72)
VKPRIM_PUSH_END(KeysPush, 80)
#endif

#if defined(__cplusplus) || defined(PUSH_CSR_COMPACT)
VKPRIM_PUSH_BEGIN(CompactPush)      // csr_compact.comp
  VKPRIM_PUSH_U64(keys_addr, 0)     // this chunk's sorted keys and values (its entry 0 = entry
  VKPRIM_PUSH_U64(vals_addr, 8)     // first)
  VKPRIM_PUSH_U64(col_out_addr, 16)
  VKPRIM_PUSH_U64(val_out_addr, 24)
  VKPRIM_PUSH_U64(row_ptr_addr, 32)
  VKPRIM_PUSH_U64(gaps_addr, 40)    // u32 count, u32 status (both zeroed), 2 words, then uvec4
                                    // (first row, end row, value low and high words)
  VKPRIM_PUSH_U64(counts_addr, 48)  // out: entry count low word, status, entry count high word
                                    // (u32 each)
  VKPRIM_PUSH_U64(state_addr, 56)   // tile state, zeroed
  VKPRIM_PUSH_U64(first, 64)        // this chunk's first entry
  VKPRIM_PUSH_U64(base_addr, 72)    // nonzero: the u64 run ends of the chunks before
  VKPRIM_PUSH_U64(total_addr, 80)   // nonzero: receives the u64 run ends up to this chunk's end
  VKPRIM_PUSH_U32(m, 88)            // this chunk's entries (at most 2^31)
  VKPRIM_PUSH_U32(stop, 92)         // m where the chunk holds the build's last entry, else ~0u
  VKPRIM_PUSH_U32(col_bits, 96)
  VKPRIM_PUSH_U32(rows, 100)
  VKPRIM_PUSH_U32(row_ptr_64, 104)  // nonzero: u64 row pointer entries
VKPRIM_PUSH_END(CompactPush, 112)
#endif

#if defined(__cplusplus) || defined(PUSH_CSR_ROW_PTR)
VKPRIM_PUSH_BEGIN(RowPtrPush)       // csr_row_ptr.comp
  VKPRIM_PUSH_U64(gaps_addr, 0)     // u32 count, 3 more words, then uvec4 (first row, end row,
                                    // value low and high words)
  VKPRIM_PUSH_U64(row_ptr_addr, 8)
VKPRIM_PUSH_END(RowPtrPush, 16)
#endif

#if defined(__cplusplus) || defined(PUSH_CSR_EXPAND_ROWS)
VKPRIM_PUSH_BEGIN(ExpandPush)       // csr_expand_rows.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)
  VKPRIM_PUSH_U64(row_of_addr, 8)
  VKPRIM_PUSH_U32(nnz, 16)
  VKPRIM_PUSH_U32(rows, 20)
  VKPRIM_PUSH_U64(first, 24)
VKPRIM_PUSH_END(ExpandPush, 32)
#endif

#if defined(__cplusplus) || defined(PUSH_CSR_SPLIT)
VKPRIM_PUSH_BEGIN(SplitPush)        // csr_split.comp
  VKPRIM_PUSH_U64(row_ptr_addr, 0)  // rows + 1 (ROWPTR_64: u64)
  VKPRIM_PUSH_U64(col_addr, 8)      // nnz u32
  VKPRIM_PUSH_U64(val_addr, 16)     // nnz values
  VKPRIM_PUSH_U64(pos_addr, 24)     // nnz + 1, as wide as the row pointer
  VKPRIM_PUSH_U64(out_row_ptr_addr, 32)  // rows + 1, as wide as the input's
  VKPRIM_PUSH_U64(out_col_addr, 40)
  VKPRIM_PUSH_U64(out_val_addr, 48)
  VKPRIM_PUSH_U64(nnz, 56)
  VKPRIM_PUSH_U32(rows, 64)
  VKPRIM_PUSH_U32(col_begin, 68)
  VKPRIM_PUSH_U32(col_end, 72)
  VKPRIM_PUSH_U32(mode, 76)
VKPRIM_PUSH_END(SplitPush, 80)
#endif

#ifdef __cplusplus
}  // namespace vkprim::sparse::detail
#endif
