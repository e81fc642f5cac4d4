// LSD radix sort (stable), keys only or key-value pairs. Implementation: engine/sort/sort.cpp.
//
// Keys: u32 i32 f32 u64 i64 f64. Signed and float keys are sorted by bit transformation:
// floats in IEEE total order, -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN (so -0.0 sorts
// before +0.0 and NaNs go to the ends by sign; NaNs of one sign are ordered by payload bits).
// Descending order reverses it and stays stable (equal keys keep their input order).
// A bit range [begin_bit, end_bit) of the *transformed* key limits the passes to the bits that
// can differ (the CSR build sorts only the bits its dimensions need); keys equal in those bits
// keep their input order. begin_bit == end_bit (nonzero) copies.
// Values: 4 or 8 bytes, in their own buffer, permuted with their keys.
//
// Algorithms (SortOptions::algorithm), both LSD over 8-bit digits of the transformed key,
// ceil((end_bit - begin_bit) / 8) digit passes, after one upfront read of the keys that finds
// the bits in which they differ, so that each pass finds out on the GPU that all keys share its
// digit and copies instead (onesweep also takes its histogram of every digit there, as in
// Onesweep). Both are stable and need no forward-progress guarantee between workgroups.
// - reduce_then_scan (Merrill & Grimshaw 2011, "High performance and scalable radix sorting"):
//   per pass, digit counts per group of 8 tiles, each tile's prefixes within its group and the
//   pass's digit counts (keys read; one group per workgroup), the group counts turned into
//   offsets (their exclusive scan, one workgroup per row of digits: each starts from the digit
//   counts, so none waits on another), then a stable rank within the tile and a scatter (keys
//   read again, one tile per workgroup). No inter-workgroup waiting. Traffic per pass: keys
//   read twice and written once (+ values read and written once), + the prefixes (128 u32 per
//   tile) written and read, and the group counts (256 u32 per group) written, scanned and read.
// - onesweep (Adinets & Merrill 2022, "Onesweep: A Faster Least Significant Digit Radix Sort for
//   GPUs"): per pass ONE dispatch: each tile reads its keys once, ranks them, publishes its 256
//   digit counts, obtains each digit's global offset by decoupled look-back over its
//   predecessors' counts (tile 0 starts from the exclusive scan of the upfront histogram), and
//   scatters. Traffic per pass: keys read once and written once (+ values), + 256 state words
//   per tile written and read by the look-back. Hang-proof as the single-pass scan: a tile that
//   waits too long on a predecessor counts that tile's digits itself from its keys (decoupled
//   fallback), so it needs no forward-progress guarantee. At most 2^30 - 1 keys (30-bit counts
//   in the state words); for more, the object sorts by reduce-then-scan.
// - automatic: decided per call from n (or from the maximum of a Count::on_device), by one
//   function, choose_algorithm in engine/sort/sort.cpp. On CPU devices (lavapipe)
//   reduce-then-scan, which never waits on another workgroup. On GPUs onesweep (fewer
//   dispatches, one read of the keys a pass) up to a key count and reduce-then-scan (a lighter
//   downsweep, and for keys alone tiles that let more workgroups run at once) beyond:
//     4-byte keys alone: onesweep up to 2^22 keys, 2^23 where onesweep ranks its large tile for
//       them (below);
//     8-byte keys with values: onesweep at every size it takes;
//     4-byte keys with values, and 8-byte keys alone: onesweep at every size it takes, except
//       on GPUs of the high bandwidth class (Context::device_class(), measured by a device copy:
//       there reduce-then-scan's second read of the keys is cheap; engine/sort/policy.hpp,
//       radix_bandwidth_rich), which take onesweep up to 2^22 keys.
//   RadixSort::algorithm(n, pairs) says which a call runs.
// The rank, where the device has subgroup ballots, arithmetic and shuffles (and
// SortOptions::use_subgroup_ops): a match-based multisplit as in Onesweep: subgroup-striped
// coalesced loads, one ballot per digit bit of the pass to find the lanes with the same digit,
// per-subgroup digit counters in shared memory; keys and values are then staged through shared
// memory in sorted order so that the scatter writes each digit's run of the tile with
// consecutive addresses. Any subgroup size from 4 to 128 where the shared memory holds one tile
// of keys and 256 16-bit counters per subgroup (tiles of 512 x 8 keys, or 256 x 16 with small
// subgroups; keys-only reduce-then-scan sorts rank tiles of 384 x 9 keys of 4 bytes or 384 x 8
// of 8 bytes, whose fewer registers let more workgroups run at once). Otherwise, or without
// subgroup operations, 2-bit split scans in shared memory instead (Satish, Harris & Garland
// 2009). Both algorithms use the same ranking code (shaders/sort/radix_rank.glsl).
// Large sorts on GPUs rank larger tiles with the subgroup ranking, where they fit: their longer
// runs per digit write fewer partial memory sectors and leave fewer tiles to count, which pays
// for the lower occupancy once the sort is large. 4-byte keys alone: 384 x 18, staged and
// written in two rounds so that they need the shared memory of 384 x 9, from 2^26 keys by
// reduce-then-scan and from 2^21 by onesweep. Pairs by onesweep, except on GPUs of the high
// bandwidth class: 768 x 12 from 2^24 keys (2^21 where key and value take more than 8 bytes).
// RadixSort::tile_keys says which tile a call ranks; engine/sort/policy.hpp lists the shapes and
// the reason for each.
//
// Counts: any n the device's buffers hold. From 2^32 keys on the sort runs reduce-then-scan with
// 64-bit key counts, offsets and positions (the *_wide builds of its passes, created only where
// the device's buffers can hold 2^32 keys: elsewhere Errc::limit_exceeded); a digit pass counts
// at most 2^32 - 1 keys per stripe of its groups (n up to about 2^35, limit_exceeded beyond). A
// count on the GPU (Count::on_device, a u32 or a u64) is taken like a host count of its max:
// past 2^32 - 1 keys a u64, which the 64-bit offset passes read whole and each dispatch of the
// upfront pass in its part. Outputs must not overlap inputs.
// Temporary storage: as for scan.hpp (temp_bytes + caller buffer, or reserve()); about
// n * (key + value bytes), plus reduce-then-scan: up to n / 4 bytes (per tile of 3072 keys or
// more, 128 u32 of 16-bit digit prefixes within its group of 8 tiles; per group, 256 u32 digit
// counts and their offsets, u64 from 2^32 keys on) and, for each digit pass, 8 KiB of digit
// counts (all of them zeroed with the varying bits by one fill up front);
// onesweep: 8 KiB (the histogram) and two look-back state regions of as many bytes each
// (passes alternate between them; each pass zeroes the next pass's region as it goes, so only
// the first is filled up front). Both are sized for the object's smaller tile (keys only), so
// one temp_bytes(n) serves every call of up to n keys. The temp buffer is written by every
// call: calls sharing it are ordered by the barrier each call records first.
// Synchronization owed by the caller: as for elementwise.hpp (before: the producers of the keys,
// the values and a Count::on_device count -> COMPUTE_SHADER / SHADER_READ, prior users of the
// outputs -> SHADER_WRITE; after: COMPUTE_SHADER / SHADER_WRITE -> the consumer of the outputs).
// State overwritten: compute pipeline and push constants. Inputs are not modified.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/scan.hpp>
#include <vkprim/types.hpp>

#include <memory>

namespace vkprim {

enum class SortAlgorithm { automatic, onesweep, reduce_then_scan };

struct SortOptions {
  bool descending = false;
  uint32_t value_bytes = 0;     // 0: keys only; 4 or 8: key-value pairs (else invalid_argument)
  bool use_subgroup_ops = true; // as ScanOptions::use_subgroup_ops
  SortAlgorithm algorithm = SortAlgorithm::automatic;
  // Whether each call records its own compute-to-compute barrier before its first pass
  // (elementwise.hpp: "Leading barrier"). false: the caller orders what came before the call,
  // the earlier calls on this object's reserved storage included.
  bool leading_barrier = true;
};

namespace detail {
struct SortPlan;
struct SortInternals;  // the library's own users of the plan (engine/sort/pass.hpp)
struct PlanAccess;     // the library's own construction from a plan
}

class RadixSort {
 public:
  // Builds the pipelines for keys of key_type (any ValueType) and, with
  // options.value_bytes, for pairs. invalid_argument for value_bytes other than 0, 4 or 8;
  // unsupported where the device's shared memory holds no ranking tile.
  static Result<RadixSort> create(const Context& ctx, ValueType key_type,
                                  const SortOptions& options = {});
  // The algorithm a sort of (at most) n keys runs, by sort_pairs (pairs) or sort_keys: never
  // automatic.
  SortAlgorithm algorithm(uint64_t n, bool pairs) const;
  // Keys per tile of the ranking pass that a sort of (at most) n keys runs (tiles grow for
  // large sorts on GPUs: see the top of this file).
  uint64_t tile_keys(uint64_t n, bool pairs) const;
  // Bytes of temporary storage a call of up to max_n keys needs (keys only and pairs alike).
  uint64_t temp_bytes(uint64_t max_n) const;
  // Allocates owned temporary storage for calls of up to max_n keys (outside recording; grows
  // only). out_of_device_memory where the allocation fails.
  Status reserve(uint64_t max_n);

  // keys_out[0, n) = keys_in sorted; stable. end_bit 0 means the key's full width. Requires
  // keys_in and keys_out to hold n keys at the key's alignment, not overlapping, and temp (or
  // reserve()) to hold temp_bytes(n), 16-byte aligned. Writes keys_out[0, n) and temp; nothing
  // past n (a Count::on_device count may be below its max). invalid_argument for a bit range
  // outside the key, too-small or misaligned views, outputs overlapping inputs, a bad count
  // buffer, or no temporary storage; limit_exceeded for 2^32 keys or more where the device's
  // buffers cannot hold them, past the device's dispatch limits, or past 2^32 - 1 keys per
  // stripe of a digit pass's groups. Nothing is recorded on an error.
  Status sort_keys(VkCommandBuffer cmd, BufferView keys_in, BufferView keys_out, Count n,
                   BufferView temp = {}, uint32_t begin_bit = 0, uint32_t end_bit = 0) const;
  // As sort_keys, and values_out[i] = values_in[j] where keys_out[i] came from keys_in[j].
  // Needs an object created with SortOptions::value_bytes 4 or 8 (else invalid_argument), and
  // values_in and values_out holding n values of that size at its alignment, not overlapping.
  Status sort_pairs(VkCommandBuffer cmd, BufferView keys_in, BufferView values_in,
                    BufferView keys_out, BufferView values_out, Count n, BufferView temp = {},
                    uint32_t begin_bit = 0, uint32_t end_bit = 0) const;

  RadixSort(RadixSort&&) noexcept;
  RadixSort& operator=(RadixSort&&) noexcept;
  ~RadixSort();

 private:
  friend struct detail::SortInternals;
  friend struct detail::PlanAccess;
  explicit RadixSort(std::unique_ptr<detail::SortPlan>);
  std::unique_ptr<detail::SortPlan> plan_;
};

}  // namespace vkprim
