// Tuning parameters, kept apart from the algorithms (CUB's policy tables). One entry per pass;
// values chosen for bandwidth on desktop GPUs and harmless on lavapipe.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace vkprim::detail::tuning {

struct Elementwise {
  uint32_t workgroup_size;
  uint32_t items;  // per invocation
};

inline constexpr Elementwise kCopyVec4{256, 4};   // 16 KiB per workgroup tile
inline constexpr Elementwise kCopyScalar{256, 4};
inline constexpr Elementwise kFill{256, 4};
inline constexpr Elementwise kMap{256, 4};
inline constexpr Elementwise kGatherScatter{256, 4};

// Scan and reduce: 256 invocations; items per invocation by aggregate size (registers), a
// multiple of 4 (16-byte loads of T and of u32 head flags). Compiled into the shaders as
// FIXED_ITEMS: shaders/CMakeLists.txt computes the same table.
inline constexpr uint32_t kScanWorkgroup = 256;
constexpr uint32_t scan_items(uint32_t agg_words) { return agg_words == 1 ? 16 : agg_words == 2 ? 8 : 4; }
// The single pass (scan_tiles) in the subgroup layer: 32 items for one-word aggregates, tiles of
// 8192 (H200, 2^28 u32: 0.617 ms against 0.751 with 16 items, CUB 0.691; f32 0.636 against 0.714).
// With the shared-memory layer 32 items were slower (1.14 against 0.88 ms), as they were for
// the reduce-then-scan passes.
constexpr uint32_t scan_single_pass_items(uint32_t agg_words, bool subgroup) {
  return subgroup && agg_words == 1 ? 32 : scan_items(agg_words);
}
// The single pass's workgroup: 512 invocations for aggregates of two or more words (segmented
// scans, 8-byte values, compensated sums: 8 or 4 items per invocation), so that the look-back
// chain has half as many tiles; 256 for one-word aggregates (32 items: tiles of 8192). H200,
// 2^28 (docs/benchmarks.md, session 14): segmented f32 scan 1.738 ms at 256, 1.424 and 1.614
// at 512 (two rounds); u32 scan 0.619 at 256, 0.639 at 512. At most the device's limit.
constexpr uint32_t scan_single_pass_workgroup(uint32_t agg_words) {
  return agg_words >= 2 ? 2 * kScanWorkgroup : kScanWorkgroup;
}
// Whether scans use the subgroup layer on a device that has it: everywhere but for 8-byte values
// on NVIDIA. Measured on an H200 (2^28 elements, 2^27 for u64, single pass; docs/benchmarks.md,
// session 4): with the subgroup-striped tiles of scan_tiles.comp, u32 0.754 ms and f32 0.718 ms
// against 0.877 and 0.882 with the shared-memory layer; u64 1.118 against 1.047; segmented f32
// sums equal (1.75 ms).
constexpr bool scan_prefers_subgroup_ops(uint32_t vendor_id, uint32_t value_bytes) {
  return vendor_id != 0x10DE || value_bytes < 8;
}

// Reduce-then-scan and reduce split the tiles into at most this many contiguous ranges.
inline constexpr uint32_t kRangeGroups = 1024;
// Look-back re-reads of a predecessor that has not published before doing its work.
inline constexpr uint32_t kSpinLimit = 256;


// Radix sort (reduce-then-scan per 8-bit digit): tiles of 512 invocations x 8 keys (H200, 2^28
// keys, docs/benchmarks.md session 5: against 256 x 16, u32 keys 10.72 -> 9.95 ms, pairs 13.05
// -> 11.99, u64 keys (2^27) 11.18 -> 10.49; 64 registers instead of 99-123, so 4 workgroups per
// SM instead of 2). Where the subgroup ranking's shared memory does not fit (64 subgroups of 8
// lanes need 32 KiB of counters: lavapipe), 256 x 16, then 512 x 4 (RadixSort::create).
// Downsweep ranking (shaders/radix_downsweep.comp):
//   _sg: match-based multisplit (Onesweep): subgroup-striped loads, eight ballots per key,
//        per-subgroup 16-bit digit counters, keys and values staged through shared memory in
//        sorted order and written out coalesced. Shared memory: the counters (gl_NumSubgroups
//        * 128 words) alias the staging area (one u32 per key), so that array takes the larger
//        of the two for the smallest subgroup size (RANK_WORDS, radix_rank_words); then 256
//        digit bases and the subgroup sums.
//   _wg: 2-bit split scans in shared memory (no subgroup operations), one padded u32 per key.
struct RadixTile {
  uint32_t workgroup;
  uint32_t items;
  // The _sg ranking of 4-byte keys alone (the reduce-then-scan downsweep, and onesweep's
  // ONESWEEP_ROUNDS build on the same large tile) may stage and write its sorted tile in this
  // many rounds, so that its staging area is this fraction of the tile (common/radix_rank.glsl:
  // RANK_ROUNDS). Every other tile stages at once (1).
  uint32_t stage_rounds = 1;
};
inline constexpr RadixTile kRadixTiles[] = {{512, 8}, {256, 16}, {512, 4}};  // in order of preference
// Keys-only reduce-then-scan sorts (downsweep and upsweep) take tiles of 384 x 9 (4-byte keys)
// or 384 x 8 (8-byte keys): 56 registers per invocation instead of 63, so three workgroups
// (1152 invocations) per SM instead of two (1024). H200, docs/benchmarks.md session 17 (two
// rounds, median ms): 512 x 8 / 384 x 8: u32 keys 2^28 8.32 / 7.79, 2^25 1.166 / 1.107, u64
// keys 2^27 10.33 / 9.81; 384 x 8 / 384 x 9: u32 keys 2^28 7.79 / 7.63, 2^24 0.635 / 0.616,
// u64 keys 9.86-9.98 / 10.46 (71 registers at 384 x 9: two workgroups); 384 x 10: 71 and 80
// registers, slower for both. Pairs lose with them (u32 pairs 2^28 10.12 / 12.00 at 384 x 8: a
// tile's runs per digit are shorter, and values double the partial-sector writes), as does
// onesweep (u32 keys 2^23 0.373 / 0.428: more tiles to look back over), so both keep
// kRadixTiles; 256 x 8 (48 registers) ranks faster still but doubles the digit counts (u32 keys
// 2^28 7.84). Larger workgroups lose: 576 x 9 (56 registers, two per SM: the same 1152
// invocations) 7.78 ms against 7.40, 512 x 9 (64 registers) 7.85 (session 19). Onesweep keeps
// 512 x 8 for keys too (session 20): on 384 x 9 / 384 x 8 its ranking pass takes 64 registers
// (two workgroups of 384 per SM), u32 keys 2^24 0.658 -> 0.731 ms, u64 keys 2^23 0.756 ->
// 0.884; pairs and onesweep on 384 x 8 (60 registers in onesweep) lost 10-18 % everywhere.
// The ranking without subgroup operations (2-bit splits) keeps kRadixTiles for keys too: at
// 384 x 8 its u32 keys took 21.60 ms at 2^28 against 19.27 at 512 x 8 (session 16's record).
// Why no larger tile wins on NVIDIA: its Vulkan driver (580) lets the workgroups on an SM share
// about 48 KiB of shared memory, whatever the registers allow, and sizes registers to match
// (H200, docs/benchmarks.md session 36: 384 x 9 padded to 17 KB a workgroup took 72 registers,
// two workgroups an SM, the downsweep 13 % slower). 384 x 9's 15 KB is the most that keeps
// three of 384 with the tile staged at once; large sorts stage a larger one in rounds
// (kRadixKeysLargeTile4).
inline constexpr RadixTile kRadixKeysTiles4[] = {{384, 9}, {512, 8}, {256, 16}, {512, 4}};
inline constexpr RadixTile kRadixKeysTiles8[] = {{384, 8}, {512, 8}, {256, 16}, {512, 4}};
// Large sorts rank larger tiles, from radix_large_tile_keys keys on: 4-byte keys alone
// (reduce-then-scan) on every GPU tiles of 384 x 18 staged in two rounds, pairs (onesweep) on
// GPUs with less memory bandwidth per SM than the H200 (!radix_bandwidth_rich) tiles of 768 x
// 12. Each tile writes longer runs of every digit, so fewer 32-byte sectors are written in
// parts by two tiles (what the H100 pays for
// far beyond their bytes: session 32's digit bytes), and there are fewer tiles to rank, count
// and look back over; it costs occupancy (80 registers: two workgroups of 384 per SM instead
// of three, one of 768 instead of two of 512), which wins once the sort is large. H100,
// docs/benchmarks.md session 33 (calls 1-2, median ms). 4-byte keys, reduce-then-scan, 384 x 9
// / 384 x 15: 2^24 0.524 / 0.531, 2^25 0.958 / 0.973, 2^26 1.825 / 1.807, 2^27 3.930 / 3.478,
// 2^28 7.60 / 6.83 (384 x 12 and 13: 7.08 and 6.98; 384 x 16 takes 118 registers, 9.45).
// Onesweep pairs, 512 x 8 / 768 x 12: u32 pairs 2^22 0.240 / 0.246, 2^23 0.418 / 0.420, 2^24
// 0.781 / 0.765, 2^25 1.52 / 1.45, 2^26 2.955 / 2.811, 2^28 12.02 / 11.00; u64 pairs 2^19
// 0.137 / 0.168, 2^20 0.202 / 0.198, 2^21 0.364 / 0.358, 2^22 0.632 / 0.620, 2^23 1.161 /
// 1.070, 2^25 4.366 / 3.786, 2^27 17.69 / 14.80. 1024 x 8 and 896 x 10 (64 and 72 registers)
// come within 1 % of 768 x 12 from 2^24 on; 512 x 12 and 640 x 12 (96-128 registers) lose.
// Keys alone by onesweep lose on larger tiles (u32 keys 2^28: 512 x 8 9.24, 384 x 12 10.16,
// 768 x 12 10.51), and u64 keys gain little (2^27 10.50 / 10.35 at 384 x 12), so both keep
// their tiles. The H200 keeps its tiles (session 33, call 5, median ms, small / large tile):
// u32 keys 2^26 1.661 / 1.688, 2^27 3.263 / 3.241, 2^28 6.357 / 6.338; u32 pairs (reduce-then-
// scan there) 2^24 0.670 / 0.736, 2^28 9.19 / 10.08; u64 pairs (onesweep) 2^23 0.956 / 0.981,
// 2^27 13.54 / 13.36. The _wg ranking keeps its tiles.
// Session 37: staged in two rounds, 384 x 18 keys need the shared memory of 384 x 9 and keep its
// three workgroups an SM at 56 registers (with the rank records' identity shuffle; 80 without),
// and beat both 384 x 9 and 384 x 15 from 2^26 keys. docs/benchmarks.md, median ms, two rounds,
// before / after: H200 (call 6; before: 384 x 9) 2^25 0.886 / 0.881-0.883 (the small tile: the
// shuffle), 2^26 1.654-1.658 / 1.619-1.625, 2^28 6.28-6.31 / 6.06 (call 3: 2^24 0.487 / 0.500
// and 2^25 0.890 / 0.890 at 384 x 19 in two rounds); H100 (call 7; before: 384 x 15 at once from
// 2^26) 2^25 0.969 / 0.964-0.969, 2^26 1.828-1.829 / 1.770-1.772, 2^27 3.519-3.524 / 3.413-3.419,
// 2^28 6.909-6.914 / 6.706-6.717.
// Session 38: onesweep's 4-byte keys alone on the same tile (shaders/radix_onesweep.comp,
// ONESWEEP_ROUNDS: the tile's digit counts published before the ranking, the look-back once the
// positions are known, the tile then staged in two rounds; 56 registers, three workgroups an
// SM). H200, docs/benchmarks.md session 38, median ms, onesweep's 512 x 8 / 384 x 18 (calls 2
// and 4): 2^20 0.0751-0.0760 / 0.0799-0.0805, 2^21 0.1138-0.1148 / 0.1110-0.1116, 2^22
// 0.1817-0.1831 / 0.1663-0.1704, 2^23 0.329 / 0.276 (reduce-then-scan 0.293-0.295), 2^24 0.615
// / 0.487 (reduce-then-scan 0.483-0.486), 2^28 9.00 / 6.91 (reduce-then-scan 6.06-6.10). The
// digit counts published before the ranking made the difference (call 2): with them published
// after it, 384 x 18 took 63 registers (two workgroups an SM) and 8.96 ms at 2^28, and 384 x 9
// at 51 registers 9.28 against 8.55 with early counts.
inline constexpr RadixTile kRadixKeysLargeTile4 = {384, 18, 2};
inline constexpr RadixTile kRadixPairsLargeTile = {768, 12};
// A sort takes its large tile from this many keys on (kRadixNoLargeTile: never): 4-byte keys
// alone from 2^26 by reduce-then-scan and from 2^21 by onesweep; where not bandwidth-rich, pairs
// of 8 bytes a key and value from 2^24, wider pairs from 2^21 (their scatter moves twice the
// bytes per key; 4-byte keys with 8-byte values, unmeasured, included).
inline constexpr uint64_t kRadixNoLargeTile = ~uint64_t(0);
constexpr uint64_t radix_large_tile_keys(uint32_t key_bytes, uint32_t value_bytes,
                                         bool bandwidth_rich, bool onesweep) {
  if (value_bytes == 0)
    return key_bytes > 4 ? kRadixNoLargeTile : uint64_t(1) << (onesweep ? 21 : 26);
  if (bandwidth_rich) return kRadixNoLargeTile;
  return key_bytes + value_bytes <= 8 ? uint64_t(1) << 24 : uint64_t(1) << 21;
}
// The upsweep counts this many consecutive tiles per workgroup (a group), and writes one count
// per digit and group (which radix_offsets scans) and each tile's 16-bit prefixes within its
// group. H200, docs/benchmarks.md: session 5 took 8 tiles per workgroup so that the digit-major
// counts, then one per tile, filled whole 32-byte sectors; session 22 counts per group (2^28,
// median ms, one count per tile / per group: u32 keys 6.50 / 6.22, u32 pairs 10.10 / 9.85, u64
// keys 2^27 9.96 / 9.53). Groups of 16 tiles were slower everywhere (u32 keys 2^28 6.62: the
// upsweep 1.11 -> 1.54 ms), groups of 4 at 2^28 (u32 keys 6.30-6.37 / 6.40-6.41) though 1-2 %
// faster at 2^22-2^23.
inline constexpr uint32_t kRadixUpsweepTiles = 8;
// Reduce-then-scan's group counts become offsets in radix_offsets.comp: workgroups of this many
// invocations (or the device's largest power of two below it; at least 256), each scanning the
// rows of a power-of-two number of digits (one where a row fills a chunk) in chunks of
// kRadixOffsetsItems consecutive counts per invocation (the shader fixes ITEMS at 8:
// shaders/CMakeLists.txt). The upsweep adds the pass's digit counts, which each workgroup starts
// from, into kRadixCountStripes copies of 256 words (copy g % stripes for group g). H200,
// docs/benchmarks.md session 24 (call 5, ms per sort of 4 passes, the device-wide single-pass
// scan it replaced / radix_offsets): u32 keys 2^24 0.049 / 0.029, 2^28 0.069 / 0.056; one
// workgroup per digit, chunks read and written straight from global memory (call 4): 2^28
// 0.124. One copy of the digit counts (call 1): the upsweep of 2^28 u32 keys 1.14 -> 1.34 ms.
inline constexpr uint32_t kRadixOffsetsWorkgroup = 512;
inline constexpr uint32_t kRadixOffsetsItems = 8;
inline constexpr uint32_t kRadixCountStripes = 8;
// The upfront pass (radix_histogram.comp: the varying key bits, and onesweep's histogram)
// visits tiles of kRadixHistogramTile keys grid-stride, in workgroups of
// kRadixHistogramWorkgroup invocations (or the device's largest power of two below it), at most
// kRadixHistogramInvocations invocations in all. Each workgroup adds its bins to the global ones
// by atomics, so more workgroups cost more: H100 (docs/benchmarks.md, session 8), onesweep
// histogram of 2^23 u64 keys 0.058-0.063 ms with 2048 workgroups of 256 x 4..16 against 0.109
// with 8192. H200, session 23 (calls 1 and 3, median ms, 2048 workgroups of 256 x 16 / 512 of
// 1024 x 4): the histogram of 2^22 u32 keys 0.0247 / 0.0192, of 2^23 0.041 / 0.031, of 2^24
// 0.058 / 0.052; the onesweep sorts of 2^20-2^23 keys 0.5-2.6 % faster.
inline constexpr uint32_t kRadixHistogramWorkgroup = 1024;
inline constexpr uint32_t kRadixHistogramTile = 4096;
inline constexpr uint32_t kRadixHistogramInvocations = 512 * 1024;
// The CSR build's keys pass, which counts for the sort as it makes the keys, visits tiles of
// 256 x 4 with at most this many workgroups: the CSR keys pass of arrow (12.6 M u64 keys, H100,
// session 8) 0.095 ms at 256 x 4 x 2048 against 0.104 at 256 x 2, 0.119 at 256 x 1, 0.109 at
// 256 x 8, and 0.24-0.82 uncapped.
inline constexpr uint32_t kCsrKeysGroups = 2048;
// The _sg scans give invocation w < 128 the digits 2w and 2w + 1; tile positions and counts are
// 16-bit fields, as are the upsweep's prefixes within a group (at most kRadixUpsweepTiles - 1
// tiles); onesweep's look-back takes one invocation per digit.
constexpr bool radix_tiles_valid(const auto& table) {
  for (RadixTile t : table)
    if (t.workgroup < 256 || uint64_t(t.workgroup) * t.items * (kRadixUpsweepTiles - 1) >= 65536)
      return false;
  return true;
}
static_assert(radix_tiles_valid(kRadixTiles) && radix_tiles_valid(kRadixKeysTiles4) &&
              radix_tiles_valid(kRadixKeysTiles8) && radix_tiles_valid(std::array{kRadixKeysLargeTile4}) &&
              radix_tiles_valid(std::array{kRadixPairsLargeTile}));
// The plan sizes temporary storage by the small tiles' count (SortPlan::max_tiles): every large
// tile must hold more keys than any small one.
constexpr bool radix_large_tiles_larger() {
  for (const auto& table : {std::span<const RadixTile>(kRadixTiles), std::span<const RadixTile>(kRadixKeysTiles4),
                            std::span<const RadixTile>(kRadixKeysTiles8)})
    for (RadixTile t : table)
      if (t.workgroup * t.items >= kRadixKeysLargeTile4.workgroup * kRadixKeysLargeTile4.items ||
          t.workgroup * t.items >= kRadixPairsLargeTile.workgroup * kRadixPairsLargeTile.items)
        return false;
  return true;
}
static_assert(radix_large_tiles_larger());
// Every tile but the 4-byte keys' large one stages at once (the other rankings have no rounds).
constexpr bool radix_stages_at_once(const auto& table) {
  for (RadixTile t : table)
    if (t.stage_rounds != 1) return false;
  return true;
}
static_assert(radix_stages_at_once(kRadixTiles) && radix_stages_at_once(kRadixKeysTiles4) &&
              radix_stages_at_once(kRadixKeysTiles8) && radix_stages_at_once(std::array{kRadixPairsLargeTile}) &&
              kRadixKeysLargeTile4.stage_rounds >= 1);
// The _sg ranking's shared array: the subgroups' digit counters (the most subgroups of the
// smallest size) or the staging area of a round, whichever is larger.
constexpr uint32_t radix_rank_words(RadixTile t, uint32_t min_subgroup) {
  const uint32_t counters = t.workgroup / min_subgroup * 128;
  const uint32_t staging = (t.workgroup * t.items + t.stage_rounds - 1) / t.stage_rounds;
  return counters > staging ? counters : staging;
}
constexpr uint64_t radix_downsweep_shared_bytes(RadixTile t, bool subgroup, uint32_t min_subgroup) {
  const uint64_t wg = t.workgroup, tile = wg * t.items;
  const uint64_t scan = wg * 8;  // counts_scan.glsl: one uvec2 per invocation
  const uint64_t words = subgroup ? radix_rank_words(t, min_subgroup) : 0;
  return subgroup ? (words + 256 + words / 128) * 4 + 4 : (tile + tile / 32) * 4 + 2 * 256 * 4 + scan + 4;
}

// Onesweep (shaders/radix_onesweep.comp): the same tiles and ranking as the downsweep, plus the
// tile's digit counts, the global digit offsets and the fallback's digit counts (3 x 256 u32)
// and a few words of look-back control. Needs a workgroup of at least 256 invocations (one
// per digit in the look-back). A pass's state words hold 30-bit counts: onesweep sorts at most
// kRadixOnesweepMaxKeys keys; the plan takes reduce-then-scan beyond.
inline constexpr uint64_t kRadixOnesweepMaxKeys = (uint64_t(1) << 30) - 1;
// The automatic choice on GPUs: onesweep up to this many keys (engine/plan/sort.cpp,
// choose_algorithm), by key width and whether values ride along. Measured on an H200
// (docs/benchmarks.md; median ms, reduce-then-scan / onesweep). Session 11: u32 keys 2^22
// 0.253 / 0.213, 2^23 0.395 / 0.376, 2^24 0.654 / 0.687; u32 pairs 2^23 0.464 / 0.444, 2^24
// 0.781 / 0.814. Session 20, with onesweep's per-digit prefixes published at once and its values
// loaded during the keys' scatter: u32 keys 2^23 0.378 / 0.363, 2^24 0.605 / 0.663; u32 pairs
// 2^23 0.437 / 0.425, 2^24 0.740 / 0.781; u64 keys 2^24 1.52 / 1.43, 2^25 2.679 / 2.726, 2^27
// 9.71 / 10.38; u64 keys with u64 values 2^24 2.18 / 1.89, 2^25 4.21 / 3.66, 2^26 8.05 / 7.14,
// 2^27 15.84 / 14.03, and the CSR builds' sorts of 64-bit keys with 4- or 8-byte values on
// 12-114 M triplets 5-13 % faster by onesweep at every size. Session 21, after the key flags
// became a specialization constant (which sped reduce-then-scan's keys up more than onesweep's)
// (calls 2 and 4; onesweep's 2^23 and 2^24 keys-only figures with its tile staged before the
// look-back): u32 keys 2^22 0.233 / 0.192, 2^23 0.336 / 0.342, 2^24 0.538 / 0.624; u32 pairs
// 2^23 0.421 / 0.402, 2^24 0.732-0.742 / 0.740 (an H100 in the same session: 0.956 / 0.788);
// u64 keys 2^24 1.400 / 1.405 (before the staging, which saves 2-3 % at 2^23). Session 22 (call
// 2), with reduce-then-scan's counts per group of tiles: u32 keys 2^22 0.229 / 0.191, 2^23
// 0.330 / 0.344; u32 pairs 2^23 0.416 / 0.401, 2^24 0.716 / 0.737; u64 keys 2^24 1.368 / 1.360,
// 2^25 2.487 / 2.605; u64 pairs 2^25 4.18 / 3.54. Call 6, with the count scans' fills folded
// into the sort's upfront one (reduce-then-scan 2-10 % faster from 2^21 to 2^24): u32 keys 2^22
// 0.213 / 0.188, 2^23 0.315 / 0.342; u32 pairs 2^22 0.249 / 0.228, 2^23 0.394 / 0.396, 2^24
// 0.688 / 0.731; u64 keys 2^23 0.752 / 0.726, 2^24 1.327 / 1.351. Session 24 (call 5), with the
// count scan replaced by radix_offsets (reduce-then-scan 1-9 % faster from 2^21 to 2^24): u32
// keys 2^22 0.197 / 0.186, 2^23 0.292 / 0.334; u32 pairs 2^22 0.241 / 0.226, 2^23 0.379 / 0.393;
// u64 keys 2^22 0.438 / 0.407, 2^23 0.708 / 0.722; u64 pairs 2^23 1.086 / 0.963. So:
// 4-byte keys, alone or with values, up to 2^22; 8-byte keys alone up to 2^22; 8-byte keys with
// values always (to kRadixOnesweepMaxKeys). That rule holds on the H200 alone
// (radix_bandwidth_rich). On an H100 (session 32, call 3, both forced, median ms of two
// rounds, reduce-then-scan / onesweep) onesweep wins for pairs and 8-byte keys at every size:
// u32 pairs 2^24 0.892 / 0.779, 2^28 13.85 / 12.05; u64 keys 2^23 0.893 / 0.744, 2^27 13.29 /
// 10.49; u64 pairs 2^23 1.459 / 1.173, 2^27 22.03 / 18.03 (session 21: u32 pairs 2^22-2^24 and
// u64 keys 2^23-2^25 alike, by 17-21 %); keys alone as on the H200: u32 keys 2^24 0.527 / 0.627,
// 2^28 7.81 / 9.20. Reduce-then-scan reads the keys twice a pass, onesweep once; with less
// bandwidth per multiprocessor the extra read costs more than onesweep's look-back, whose
// latency longer tiles hide better. So on every GPU but the H200 pairs and 8-byte keys take
// onesweep at every size, keys of 4 bytes alone the H200's rule: earlier and consumer GPUs have
// less bandwidth per multiprocessor than the H100; newer data-center parts (a B200: 8 TB/s for
// 148 SMs) more, and are unmeasured. (4-byte keys with 8-byte values, unmeasured, take the
// 4-byte pairs' rule.) Pairs take the same 512 x 8 tiles in both algorithms, so onesweep's
// one pass per digit is the downsweep without the upsweep and offsets pass: with 8-byte keys it
// wins at every size, with 4-byte keys (half the upsweep's reads) up to 2^22 since session 24;
// keys alone rank tiles of 384 x 9 or 384 x 8 in reduce-then-scan (three workgroups per SM),
// which wins from 2^23 keys.
// Session 38: 4-byte keys alone up to 2^23 where onesweep has its large tile for them
// (keys_large_tile; 2^23 0.276 against reduce-then-scan's 0.293-0.295, 2^24 0.487 against
// 0.483-0.486: kRadixKeysLargeTile4's figures), else up to 2^22.
constexpr uint64_t radix_onesweep_auto_keys(uint32_t key_bytes, uint32_t value_bytes,
                                            bool bandwidth_rich, bool keys_large_tile) {
  if (key_bytes <= 4 && value_bytes == 0)  // 4-byte keys alone
    return uint64_t(1) << (keys_large_tile ? 23 : 22);
  if (!bandwidth_rich || (key_bytes > 4 && value_bytes != 0)) return kRadixOnesweepMaxKeys;
  return uint64_t(1) << 22;
}
// Devices with the most memory bandwidth per multiprocessor measured (the H200: 4.8 TB/s for 132
// SMs, against the H100's 3.35), where reduce-then-scan wins large sorts of pairs and 8-byte
// keys. Vulkan reports no bandwidth, so they are named (VkPhysicalDeviceProperties::deviceName).
constexpr bool radix_bandwidth_rich(std::string_view device_name) {
  return device_name.starts_with("NVIDIA H200");
}
constexpr uint64_t radix_onesweep_shared_bytes(RadixTile t, bool subgroup, uint32_t min_subgroup) {
  return radix_downsweep_shared_bytes(t, subgroup, min_subgroup) + 3 * 256 * 4 + 16;
}
// Its ONESWEEP_ROUNDS build (4-byte keys alone, the large tile): the downsweep's array, whose
// words 512-1023 hold the look-back's scratch, and four words of control.
constexpr uint64_t radix_onesweep_rounds_shared_bytes(RadixTile t, uint32_t min_subgroup) {
  return radix_downsweep_shared_bytes(t, true, min_subgroup) + 16;
}
static_assert(radix_rank_words(kRadixKeysLargeTile4, 128) >= 1024);
// Look-back: reads of one predecessor's word that is not ready before the workgroup counts that
// tile's digits itself. Each is one volatile load (~0.5 us on an H100), so this waits about as
// long as the scan's kSpinLimit look-back steps before falling back.
inline constexpr uint32_t kRadixSpinLimit = 2048;

// Compaction: one tile of 256 invocations x 32 four-byte or 16 eight-byte elements per workgroup
// in every pass (128 bytes per invocation). On an H200 the single pass took 0.98 ms at 16 items
// and 0.68 at 32 (2^28 u32, 50% selected) once its selection bits were packed into one word
// (select_tiles.comp; at most 32 items).
inline constexpr uint32_t kSelectWorkgroup = 256;
constexpr uint32_t select_items(uint32_t element_bytes) { return element_bytes <= 4 ? 32 : 16; }
// Histogram: grid-stride over tiles of 256 x 16 samples, at most this many workgroups (each
// flushes its private bins once); bins privatized in shared memory up to this many bytes.
inline constexpr uint32_t kHistogramWorkgroup = 256;
inline constexpr uint32_t kHistogramItems = 16;
inline constexpr uint32_t kHistogramGroups = 1024;
inline constexpr uint32_t kHistogramSharedBytes = 24 * 1024;

}  // namespace vkprim::detail::tuning
