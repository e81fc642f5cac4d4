// Push constants of the compaction passes, for their shaders and engine/compaction/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides). Modes and
// option bits: engine/compaction/pass.hpp (kSelect*).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::detail {
#endif

// Partition and unique-by-key: count, scan (u64) and scatter with 64-bit element counts.
#if defined(__cplusplus) || defined(PUSH_SELECT_UPSWEEP)
VKPRIM_PUSH_BEGIN(SelectUpsweepPush)  // select_upsweep.comp
  VKPRIM_PUSH_U64(in_addr, 0)
  VKPRIM_PUSH_U64(flags_addr, 8)    // mode 0: u32 flags
  VKPRIM_PUSH_U64(counts_addr, 16)  // tiles + 1 u64
  VKPRIM_PUSH_U64(count_addr, 24)   // nonzero: the element count is read there (device_count)
  VKPRIM_PUSH_U64(heads_addr, 32)   // nonzero (mode 2): heads[i] = 1 at run heads, else 0
  VKPRIM_PUSH_U64(n, 40)
  VKPRIM_PUSH_U32(tiles, 48)
  VKPRIM_PUSH_U32(mode, 52)
  VKPRIM_PUSH_U32(op, 56)
  VKPRIM_PUSH_U32(pad, 60)          // unused: `a` is 8-byte aligned
  VKPRIM_PUSH_U64(a, 64)            // the predicate's operands (bit patterns)
  VKPRIM_PUSH_U64(b, 72)
VKPRIM_PUSH_END(SelectUpsweepPush, 80)
#endif

#if defined(__cplusplus) || defined(PUSH_SELECT_SCATTER)
VKPRIM_PUSH_BEGIN(SelectScatterPush)  // select_scatter.comp
  VKPRIM_PUSH_U64(in_addr, 0)
  VKPRIM_PUSH_U64(flags_addr, 8)
  VKPRIM_PUSH_U64(out_addr, 16)
  VKPRIM_PUSH_U64(offsets_addr, 24)  // tiles + 1 u64: the exclusive scan of select_upsweep's
                                     // counts
  VKPRIM_PUSH_U64(count_out, 32)    // receives the number selected
  VKPRIM_PUSH_U64(count_addr, 40)
  VKPRIM_PUSH_U64(values_in, 48)    // unique-by-key: run sums (segmented inclusive scan), else 0
  VKPRIM_PUSH_U64(values_out, 56)
  VKPRIM_PUSH_U64(n, 64)
  VKPRIM_PUSH_U32(tiles, 72)
  VKPRIM_PUSH_U32(mode, 76)
  VKPRIM_PUSH_U32(op, 80)
  VKPRIM_PUSH_U32(opts, 84)         // bit 1: count_out is a u64; bit 2: 8-byte values
  VKPRIM_PUSH_U64(a, 88)
  VKPRIM_PUSH_U64(b, 96)
VKPRIM_PUSH_END(SelectScatterPush, 104)
#endif

#if defined(__cplusplus) || defined(PUSH_SELECT_TILES)
VKPRIM_PUSH_BEGIN(SelectTilesPush)  // select_tiles.comp
  VKPRIM_PUSH_U64(in_addr, 0)
  VKPRIM_PUSH_U64(flags_addr, 8)    // mode 0: u32 flags
  VKPRIM_PUSH_U64(out_addr, 16)
  VKPRIM_PUSH_U64(state_addr, 24)   // tile state, zeroed
  VKPRIM_PUSH_U64(count_out, 32)    // receives the number selected
  VKPRIM_PUSH_U64(count_addr, 40)   // nonzero: the element count is read there (device_count),
                                    // not n
  VKPRIM_PUSH_U32(n, 48)
  VKPRIM_PUSH_U32(mode, 52)
  VKPRIM_PUSH_U32(op, 56)
  VKPRIM_PUSH_U32(opts, 60)         // bit 1: count_out is a u64; bit 3: input (and flags)
                                    // 16-byte aligned; bit 4: a chunk after the first (unique);
                                    // bit 5: partition, the rejected elements reversed
  VKPRIM_PUSH_U64(a, 64)
  VKPRIM_PUSH_U64(b, 72)
  VKPRIM_PUSH_U64(base_addr, 80)    // nonzero: the u64 there is the number selected before this
                                    // chunk (an earlier dispatch's total): outputs and the total
                                    // start after it
  VKPRIM_PUSH_U64(count_first, 88)  // this dispatch's first element (with count_addr, its
                                    // count: the one read there less count_first, at most n)
  VKPRIM_PUSH_U64(partition_total, 96)  // PARTITION, stable: the u64 there is the number selected
                                    // of all elements, and rejected element i goes to
                                    // total + (i - selected before i); rejected reversed (opts
                                    // bit 5): the call's element count N (with count_addr, its
                                    // maximum), and rejected element i goes to
                                    // N - 1 - (i - selected before i)
VKPRIM_PUSH_END(SelectTilesPush, 104)
#endif

#if defined(__cplusplus) || defined(PUSH_SELECT_TOTAL)
VKPRIM_PUSH_BEGIN(SelectTotalPush)  // select_total.comp
  VKPRIM_PUSH_U64(counts_addr, 0)
  VKPRIM_PUSH_U64(offsets_addr, 8)
  VKPRIM_PUSH_U64(total_addr, 16)
  VKPRIM_PUSH_U64(scratch_addr, 24)  // one u32
  VKPRIM_PUSH_U64(count_addr, 32)
  VKPRIM_PUSH_U64(n, 40)
  VKPRIM_PUSH_U32(stage, 48)
  VKPRIM_PUSH_U32(total_u64, 52)
VKPRIM_PUSH_END(SelectTotalPush, 56)
#endif

#ifdef __cplusplus
}  // namespace vkprim::detail
#endif
