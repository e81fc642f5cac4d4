// Radix sort policy: tiles, the algorithm by size, the passes' grids and shared memory.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include <vkprim/context.hpp>

#include "vkprim_shader_ids.hpp"

namespace vkprim::detail::tuning {

// Radix sort (reduce-then-scan per 8-bit digit): tiles of 512 invocations x 8 keys, at 64
// registers a thread: twice the invocations per SM of 256 x 16, which takes 99 to 123.
// Where the subgroup ranking's shared memory does not fit (64 subgroups of 8 lanes need 32 KiB
// of counters: lavapipe), 256 x 16, then 512 x 4 (RadixSort::create).
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
// or 384 x 8 (8-byte keys): 56 registers a thread instead of 512 x 8's 63, so three workgroups
// (1152 invocations) per SM instead of two (1024). The rest keep kRadixTiles: pairs (a smaller
// tile has shorter runs per digit, and values double the partial-sector writes), onesweep (more
// tiles to look back over, and its ranking pass needs more registers) and the 2-bit-split
// ranking. No larger tile staged at once serves better on NVIDIA: its Vulkan driver lets the
// workgroups on an SM share about 48 KiB of shared memory, and 384 x 9's 15 KB is the most that
// keeps three workgroups of 384; large sorts stage a larger tile in rounds (kRadixKeysLargeTile4).
inline constexpr RadixTile kRadixKeysTiles4[] = {{384, 9}, {512, 8}, {256, 16}, {512, 4}};
inline constexpr RadixTile kRadixKeysTiles8[] = {{384, 8}, {512, 8}, {256, 16}, {512, 4}};
// Large sorts rank larger tiles, from radix_large_tile_keys keys on. A larger tile writes longer
// runs of every digit, so fewer 32-byte sectors are written in part by two tiles, and leaves
// fewer tiles to rank, count and look back over; it costs occupancy, which matters less once the
// sort is large.
//   4-byte keys alone, either algorithm: 384 x 18 staged and written in two rounds, which needs
//   the shared memory of 384 x 9 and keeps its three workgroups an SM (56 registers, with the
//   rank records' identity shuffle: common/radix_rank.glsl). Onesweep's build for it
//   (ONESWEEP_ROUNDS, shaders/radix_onesweep.comp) publishes the tile's digit counts before the
//   ranking and looks back once the keys are ranked, which keeps it at the same registers.
//   Pairs by onesweep, on GPUs that are not bandwidth-rich (radix_bandwidth_rich): 768 x 12
//   (80 registers: one workgroup of 768 per SM instead of two of 512). Bandwidth-rich GPUs keep
//   the small tile for pairs, where the large one does not pay for its occupancy.
// 8-byte keys alone keep their tiles (a larger tile gains them little), as does the _wg ranking.
inline constexpr RadixTile kRadixKeysLargeTile4 = {384, 18, 2};
inline constexpr RadixTile kRadixPairsLargeTile = {768, 12};
// A sort takes its large tile from this many keys on (kRadixNoLargeTile: never): 4-byte keys
// alone from 2^26 by reduce-then-scan and from 2^21 by onesweep; where not bandwidth-rich, pairs
// of 8 bytes a key and value from 2^24, wider pairs from 2^21 (their scatter moves twice the
// bytes per key; 4-byte keys with 8-byte values included). Below those counts the small tiles'
// occupancy serves better.
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
// group. 8 tiles: the digit-major group counts are an eighth of per-tile counts to write, scan
// and read; groups of 16 slow the upsweep down, and groups of 4 leave twice the counts.
inline constexpr uint32_t kRadixUpsweepTiles = 8;
// Reduce-then-scan's group counts become offsets in radix_offsets.comp: workgroups of this many
// invocations (or the device's largest power of two below it; at least 256), each scanning the
// rows of a power-of-two number of digits (one where a row fills a chunk) in chunks of
// kRadixOffsetsItems consecutive counts per invocation (compiled in: FIXED_ITEMS in
// shaders/sort/variants.cmake, checked below), through shared memory so that its loads and
// stores are coalesced.
// The upsweep adds the pass's digit counts, which each workgroup starts from (so none waits on
// another), into kRadixCountStripes copies of 256 words (copy g % stripes for group g), so that
// the groups' atomics do not all contend for the same 256 words.
inline constexpr uint32_t kRadixOffsetsWorkgroup = 512;
inline constexpr uint32_t kRadixOffsetsItems = 8;
constexpr bool radix_offsets_items_match_variants() {
  for (variants::Layer layer : variants::kLayerAxis)
    for (variants::Offsets offsets : variants::kOffsetsAxis)
      if (shader_fixed_items(variants::radix_offsets(layer, offsets)) != kRadixOffsetsItems)
        return false;
  return true;
}
static_assert(radix_offsets_items_match_variants(),
              "shaders/sort/variants.cmake compiles radix_offsets for other items than "
              "kRadixOffsetsItems");
inline constexpr uint32_t kRadixCountStripes = 8;
// The upfront pass (radix_histogram.comp: the varying key bits, and onesweep's histogram)
// visits tiles of kRadixHistogramTile keys grid-stride, in workgroups of
// kRadixHistogramWorkgroup invocations (or the device's largest power of two below it), at most
// kRadixHistogramInvocations invocations in all. Each workgroup adds its bins to the global ones
// by atomics, so more workgroups cost more atomics: a capped grid of large workgroups keeps
// them few.
inline constexpr uint32_t kRadixHistogramWorkgroup = 1024;
inline constexpr uint32_t kRadixHistogramTile = 4096;
inline constexpr uint32_t kRadixHistogramInvocations = 512 * 1024;
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
// choose_algorithm), by key width and whether values ride along; reduce-then-scan beyond.
// Onesweep reads the keys once a pass and has no upsweep or offsets pass; reduce-then-scan reads
// them twice, but its downsweep is lighter, needs no look-back, and for keys alone ranks tiles
// that fit three workgroups an SM (kRadixKeysTiles4 / 8). So:
// - 4-byte keys alone: onesweep up to 2^22 keys, 2^23 where onesweep has its large tile for them
//   (keys_large_tile), whose fewer tiles shorten the look-back chain.
// - 8-byte keys with values: onesweep at every size it takes (kRadixOnesweepMaxKeys).
// - 4-byte keys with values and 8-byte keys alone: onesweep at every size it takes, except on
//   bandwidth-rich GPUs (radix_bandwidth_rich), where reduce-then-scan's second read is cheap
//   and it serves better beyond 2^22 keys.
constexpr uint64_t radix_onesweep_auto_keys(uint32_t key_bytes, uint32_t value_bytes,
                                            bool bandwidth_rich, bool keys_large_tile) {
  if (key_bytes <= 4 && value_bytes == 0)  // 4-byte keys alone
    return uint64_t(1) << (keys_large_tile ? 23 : 22);
  if (!bandwidth_rich || (key_bytes > 4 && value_bytes != 0)) return kRadixOnesweepMaxKeys;
  return uint64_t(1) << 22;
}
// Bandwidth-rich GPUs: those of the high bandwidth class (DeviceClass::bandwidth, measured by
// a device copy: core/device_class.hpp), where reduce-then-scan's second read of the keys is
// cheap and it serves large sorts of pairs and 8-byte keys better.
constexpr bool radix_bandwidth_rich(const DeviceClass& device) {
  return device.bandwidth == BandwidthClass::high;
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
// tile's digits itself. Each is one volatile load, so this waits about as long as the scan's
// kSpinLimit look-back steps before falling back.
inline constexpr uint32_t kRadixSpinLimit = 2048;
}  // namespace vkprim::detail::tuning
