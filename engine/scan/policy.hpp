// Scan and reduce policy: tile shapes, the subgroup-layer choice and the look-back bound.
#pragma once

#include <cstdint>

#include <vkprim/context.hpp>
#include <vkprim/scan.hpp>

#include "elementwise/policy.hpp"
#include "vkprim_shader_ids.hpp"

namespace vkprim::detail::tuning {

// Scan and reduce: 256 invocations; items per invocation by aggregate size (registers), a
// multiple of 4 (16-byte loads of T and of u32 head flags). Compiled into the shaders as
// FIXED_ITEMS (shaders/scan/variants.cmake): scan_items_match_variants() below checks every
// variant's against this table at build time.
inline constexpr uint32_t kScanWorkgroup = 256;
// The segmented scans' head-flag pass (segment_heads.comp): an element-wise grid.
inline constexpr Elementwise kSegmentHeads{256, 4};
constexpr uint32_t scan_items(uint32_t agg_words) { return agg_words == 1 ? 16 : agg_words == 2 ? 8 : 4; }
// The single pass (scan_tiles) in the subgroup layer takes twice scan_items for aggregates of one
// or two words: 32 items for one word (tiles of 8192 at 256 invocations), 16 for two (segmented
// scans of 4-byte values, 8-byte values off NVIDIA; tiles of 8192 at 512 invocations). That
// halves the look-back chain; the registers a two-word tile of 16 items needs still leave the
// pass memory-bound. The shared-memory layer and the reduce-then-scan passes keep scan_items:
// they run slower with more items.
constexpr uint32_t scan_single_pass_items(uint32_t agg_words, bool subgroup) {
  if (subgroup && agg_words <= 2) return 2 * scan_items(agg_words);
  return scan_items(agg_words);
}
// The single pass's workgroup: 512 invocations for aggregates of two or more words (segmented
// scans, 8-byte values, compensated sums), so that the look-back chain has half as many tiles;
// 256 for one-word aggregates (32 items: tiles of 8192 already). At most the device's limit.
constexpr uint32_t scan_single_pass_workgroup(uint32_t agg_words) {
  return agg_words >= 2 ? 2 * kScanWorkgroup : kScanWorkgroup;
}
// Whether scans use the subgroup layer on a device that has it: everywhere but for 8-byte values
// on NVIDIA devices (DeviceClass::vendor_id), whose shared-memory layer scans them faster than
// subgroup-striped tiles do; for 4-byte values the subgroup-striped tiles (scan_tiles.comp) are
// the faster.
constexpr bool scan_prefers_subgroup_ops(const DeviceClass& device, uint32_t value_bytes) {
  return device.vendor_id != kVendorNvidia || value_bytes < 8;
}
// ScanStrategy::automatic: reduce-then-scan on CPU devices, whose threads run workgroups one
// after another, so that a single pass's look-back would wait on tiles not yet started; the
// single pass on GPUs.
constexpr ScanStrategy scan_automatic_strategy(const DeviceClass& device) {
  return device.cpu() ? ScanStrategy::reduce_then_scan : ScanStrategy::single_pass;
}

// The aggregate's size in 32-bit words: the value's, one more for segmented sums (the head
// flag), twice the value's for compensated sums (sum and compensation).
constexpr uint32_t scan_agg_words(variants::Op op, uint32_t value_bytes) {
  return value_bytes / 4 + (op == variants::Op::segsum ? 1 : 0);
}
constexpr uint32_t scan_kahan_agg_words(uint32_t value_bytes) { return 2 * (value_bytes / 4); }
// Every scan variant compiles in the items this policy gives its pass and aggregate.
constexpr bool scan_items_match_variants() {
  using namespace variants;
  for (Layer layer : kLayerAxis) {
    const bool sg = layer == Layer::sg;
    for (Value value : kValueAxis) {
      const uint32_t bytes =
          value == Value::u32 || value == Value::i32 || value == Value::f32 ? 4 : 8;
      for (Op op : kOpAxis) {
        const uint32_t words = scan_agg_words(op, bytes);
        if (shader_fixed_items(scan_tiles(op, value, layer)) != scan_single_pass_items(words, sg))
          return false;
        for (Shader s : {reduce_tiles(op, value, layer), scan_partials(op, value, layer),
                         scan_ranges(op, value, layer)})
          if (shader_fixed_items(s) != scan_items(words)) return false;
      }
    }
    for (Real real : kRealAxis) {
      const uint32_t words = scan_kahan_agg_words(real == Real::f32 ? 4 : 8);
      if (shader_fixed_items(scan_tiles_kahan(real, layer)) != scan_single_pass_items(words, sg))
        return false;
      for (Shader s : {reduce_tiles_kahan(real, layer), scan_partials_kahan(real, layer),
                       scan_ranges_kahan(real, layer)})
        if (shader_fixed_items(s) != scan_items(words)) return false;
    }
  }
  return true;
}
static_assert(scan_items_match_variants(),
              "shaders/scan/variants.cmake compiles other items per invocation than scan_items() / "
              "scan_single_pass_items() give");

// Reduce-then-scan and reduce split the tiles into at most this many contiguous ranges.
inline constexpr uint32_t kRangeGroups = 1024;
// Look-back re-reads of a predecessor that has not published before doing its work.
inline constexpr uint32_t kSpinLimit = 256;
}  // namespace vkprim::detail::tuning
