// vkprim's testing interface: knobs that force the paths a primitive rarely or never takes on
// the device at hand (the look-back's fallback, onesweep's out-of-order tiles, the 64-bit offset
// passes of sorts of 2^32 keys, the large sorts' tiles) and tuning aids, for vkprim's tests and
// the command line's bench. Not installed with the public headers (include/vkprim/): programs
// built against an installed vkprim see none of it. The pipelines of the public create()
// functions never turn these paths on: the shaders take the testing knobs as specialization
// constants that are 0 there (shaders/common/look_back.h), so the code they guard is compiled
// out. Each function creates the object as its public create() does (same errors), with the
// knobs on top; default knobs give the public object.
#pragma once

#include <vkprim/scan.hpp>
#include <vkprim/select.hpp>
#include <vkprim/sort.hpp>

#include <cstdint>

namespace vkprim::testing {

// The single-pass look-back's knobs: the single-pass scan (ScanStrategy::single_pass), select
// and unique (Select's single pass), onesweep, and the CSR build's compaction.
//   stall_period: tiles whose id % stall_period is stall_period - 1 never publish their state,
//     so their successors must take the fallback path (0: off; 1: no tile publishes).
//   spin_limit: re-reads of a predecessor's state that is not ready before falling back (0: the
//     policy's, engine/scan/policy.hpp kSpinLimit and engine/sort/policy.hpp kRadixSpinLimit).

struct ScanKnobs {
  uint32_t stall_period = 0;
  uint32_t spin_limit = 0;
  // Tuning aid: the subgroup layer wherever the device has it, even where the policy prefers
  // shared memory for the vendor (engine/scan/policy.hpp; ignored when
  // ScanOptions::use_subgroup_ops is false).
  bool force_subgroup_ops = false;
  // Tuning aid: the single pass's workgroup size (0: the policy's, engine/scan/policy.hpp
  // scan_single_pass_workgroup, never below the other passes'; the knob is clamped to the
  // device's limit only).
  uint32_t single_pass_workgroup = 0;
};
Result<Scan> create_scan(const Context& ctx, ValueType type, ScanOp op, const ScanOptions& options,
                         const ScanKnobs& knobs);
Result<Reduce> create_reduce(const Context& ctx, ValueType type, ScanOp op,
                             const ScanOptions& options, const ScanKnobs& knobs);
Result<SegmentedScan> create_segmented_scan(const Context& ctx, ValueType type,
                                            const ScanOptions& options, const ScanKnobs& knobs);

struct SelectKnobs {
  uint32_t stall_period = 0;  // select and unique's single pass
  uint32_t spin_limit = 0;
  // Tuning aid: the workgroup size of every compaction pass (0: the policy's,
  // engine/compaction/policy.hpp kSelectWorkgroup; the tile is this times the policy's items).
  uint32_t workgroup = 0;
};
Result<Select> create_select(const Context& ctx, ValueType type, const SelectOptions& options,
                             const SelectKnobs& knobs);

struct SortKnobs {
  uint32_t stall_period = 0;  // onesweep's look-back
  uint32_t spin_limit = 0;
  // With stall_period: those tiles (but tile 0) do publish their digit counts, never their
  // prefixes, so successors add the counts and walk on past them instead of falling back.
  bool stall_counts = false;
  // Onesweep's workgroups (subgroup ranking) load the keys of the wrong tile (their id + 1)
  // before the pass's counter gives them theirs, as an out-of-order dispatch would make them,
  // so every tile loads its keys again.
  bool onesweep_misguess = false;
  // Every sort runs reduce-then-scan with the 64-bit counts, offsets and positions that sorts
  // of 2^32 keys and more use, so that they can be tested on small data (Errc::unsupported
  // where they do not fit the device's shared memory).
  bool wide_offsets = false;
  // The large sorts' tiles from this many keys on (0: the device's rule), on any device where
  // they fit, for 4-byte keys alone (either algorithm) and pairs by onesweep.
  uint64_t large_tiles_from = 0;
};
Result<RadixSort> create_radix_sort(const Context& ctx, ValueType key_type,
                                    const SortOptions& options, const SortKnobs& knobs);

// Creates and destroys the pipeline of the copy_u32 variant (shaders/elementwise/copy.comp; 64
// invocations, 1 item) for a pass that pushes `push_bytes` bytes: the checks of a pass's push
// constants against the device's limit (limit_exceeded) and against the shader's compiled block
// (invalid_argument unless push_bytes is the block's end rounded up to 8 bytes,
// shaders/common/push_block.h).
Status check_copy_pipeline(const Context& ctx, uint32_t push_bytes);

}  // namespace vkprim::testing
