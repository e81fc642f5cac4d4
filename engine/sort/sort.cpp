// RadixSort: LSD radix sort per 8-bit digit. One upfront read of the keys finds the key bits
// that vary (OR of the transformed keys and of their complements); a pass none of whose digit
// bits varies (all keys share its digit) becomes a copy, decided on the GPU. Two algorithms
// (include/vkprim/sort.hpp; choose_algorithm picks one per call). Per sort:
//   reduce-then-scan (Merrill & Grimshaw 2011, "High performance and scalable radix sorting"):
//     fill(varying bits, every pass's digit counts; 0)
//       -> radix_varying (the varying bits only: it needs no digit counts)
//     per digit pass p: radix_upsweep (digit counts per group of tuning::kRadixUpsweepTiles
//                       tiles, digit-major, each tile's 16-bit prefixes within its group, and
//                       the pass's digit counts by atomics)
//                       -> radix_offsets (the group counts into offsets: each workgroup scans
//                          the rows of some digits from the digit counts, none waits on another)
//                       -> radix_downsweep (stable rank within the tile + scatter; or a copy)
//   onesweep:
//     fill(hist, varying, pass counters, state region 0; 0)
//       -> radix_histogram (the varying bits and Onesweep's upfront histogram of every digit,
//          Adinets & Merrill 2022, for the global digit offsets)
//     per digit pass p: radix_onesweep (rank, publish the tile's digit counts, look back per
//                       digit with decoupled fallback, scatter; or a copy), using state region
//                       p % 2 and zeroing region (p + 1) % 2 tile by tile for the next pass
// The rank (sort/radix_rank.glsl) is a subgroup match multisplit (_sg) where the device has
// ballots and the layout fits (see create()), else 2-bit split scans (_wg); engine/sort/policy.hpp
// describes both. Keys-only reduce-then-scan sorts with the subgroup ranking rank tiles of their
// own shape (tuning::kRadixKeysTiles4 / 8, upsweep included); the rest take tuning::kRadixTiles.
// Large sorts on some devices take larger tiles (tuning::radix_large_tile_keys): 4-byte keys
// alone by either algorithm (onesweep's in its ONESWEEP_ROUNDS build), pairs by onesweep
// (SortPlan::large).
// Keys ping-pong between the temporary key buffer and keys_out, arranged so that the last pass
// writes keys_out; the input is never written. Sorts of 2^32 keys and more run reduce-then-scan
// with the *_wide builds of its passes (64-bit key counts, offsets and positions; created where
// the device's buffers can hold that many keys, or by testing::SortKnobs::wide_offsets), and the
// upfront pass in dispatches of at most max_items_per_dispatch keys.
#include "core/call_checks.hpp"
#include "core/device_count.hpp"
#include "core/look_back.hpp"
#include "core/plan_access.hpp"
#include "core/temp_storage.hpp"
#include "core/pipeline.hpp"
#include "sort/pass.hpp"
#include "sort/policy.hpp"

#include <vkprim/elementwise.hpp>
#include <vkprim/sort.hpp>
#include <vkprim/testing.hpp>

#include <optional>
#include <string>

namespace vkprim {
namespace detail {

namespace {
std::string str(uint64_t v) { return std::to_string(v); }
}  // namespace

// The algorithm a sort of at most n keys of key_bytes runs, with values of value_bytes (0: keys
// only). automatic, on GPUs: onesweep up to tuning::radix_onesweep_auto_keys(key_bytes,
// value_bytes, bandwidth_rich, keys_large_tile) keys, where its fewer dispatches and reads (no
// per-pass upsweep and offsets pass) win, reduce-then-scan beyond, where its lighter downsweep
// wins; on CPU devices (lavapipe) reduce-then-scan, which never waits on another workgroup (as
// the scan's default). onesweep's state words hold 30-bit counts: beyond kRadixOnesweepMaxKeys it sorts by
// reduce-then-scan.
SortAlgorithm choose_algorithm(SortAlgorithm requested, uint64_t n, uint32_t key_bytes,
                               uint32_t value_bytes, bool cpu, bool bandwidth_rich,
                               bool keys_large_tile) {
  const bool small =
      n <= tuning::radix_onesweep_auto_keys(key_bytes, value_bytes, bandwidth_rich, keys_large_tile);
  const bool onesweep = requested == SortAlgorithm::onesweep ||
                        (requested == SortAlgorithm::automatic && !cpu && small);
  return onesweep && n <= tuning::kRadixOnesweepMaxKeys ? SortAlgorithm::onesweep
                                                         : SortAlgorithm::reduce_then_scan;
}

// A ranking pass's tile: wg x items keys, ranked with subgroup operations (_sg) or without.
struct RadixTileShape {
  uint32_t wg = 0, items = 0;
  uint32_t rank_words = 0;  // the _sg ranking's shared array (tuning::radix_rank_words)
  bool subgroup = false;
  uint64_t tile_items() const { return uint64_t(wg) * items; }
  uint64_t tiles(uint64_t n) const {
    return std::max<uint64_t>((n + tile_items() - 1) / tile_items(), 1);
  }
};

struct SortPlan {
  const ContextImpl* ctx = nullptr;
  bool leading_barrier = true;  // SortOptions
  ValueType key_type = ValueType::u32;
  uint32_t key_bytes = 4, value_bytes = 0, key_flags = 0;
  SortAlgorithm requested = SortAlgorithm::automatic;
  LookBackSpec look_back;  // onesweep's (its spin limit: tuning::kRadixSpinLimit)
  RadixTileShape tile;       // pairs and onesweep (tuning::kRadixTiles)
  RadixTileShape keys_tile;  // keys-only reduce-then-scan (_sg: tuning::kRadixKeysTiles4 / 8)
  // Large sorts' tiles (tuning::radix_large_tile_keys; _sg only, where they fit): keys alone by
  // reduce-then-scan from keys_large_from keys and by onesweep from keys_large_onesweep_from,
  // pairs by onesweep from pairs_large_from.
  RadixTileShape keys_large, pairs_large;
  uint64_t keys_large_from = tuning::kRadixNoLargeTile;
  uint64_t keys_large_onesweep_from = tuning::kRadixNoLargeTile;
  uint64_t pairs_large_from = tuning::kRadixNoLargeTile;
  Pipeline upsweep_keys_large, downsweep_keys_large, onesweep_keys_large, onesweep_pairs_large;
  Pipeline varying, upsweep_keys, downsweep_keys;      // keys_tile
  Pipeline upsweep_pairs, downsweep_pairs;             // tile; where value_bytes != 0
  Pipeline histogram, onesweep_keys, onesweep_pairs;  // tile; only where onesweep may run
  Pipeline offsets;                                    // reduce-then-scan's group counts' scan
  // The same passes with 64-bit counts, offsets and positions (sorts of 2^32 keys and more).
  Pipeline upsweep_keys_wide, downsweep_keys_wide, upsweep_pairs_wide, downsweep_pairs_wide, offsets_wide;
  bool has_wide = false, wide_forced = false;  // wide_forced: testing::SortKnobs::wide_offsets
  std::optional<Fill> fill;
  std::optional<Buffer> owned_temp;

  uint32_t key_bits() const { return key_bytes * 8; }
  // The tile of a sort of n keys (pairs or keys only), and at most how many tiles any sort of n
  // keys this object runs has (what temporary storage is sized for).
  const RadixTileShape& shape(uint64_t n, bool pairs) const {
    if (large(n, pairs)) return pairs ? pairs_large : keys_large;
    return pairs || algorithm(n, false) == SortAlgorithm::onesweep ? tile : keys_tile;
  }
  // Whether a sort of n keys ranks the large tiles. Never for the 64-bit passes (sorts of 2^32
  // keys and more), so that the large shapes never meet the stripes' 32-bit counts.
  bool large(uint64_t n, bool pairs) const {
    if (pairs) return n >= pairs_large_from && algorithm(n, true) == SortAlgorithm::onesweep;
    if (wide(n)) return false;
    const bool onesweep = algorithm(n, false) == SortAlgorithm::onesweep;
    return n >= (onesweep ? keys_large_onesweep_from : keys_large_from);
  }
  // The large tiles are the larger (tuning::radix_large_tiles_larger): the small ones bound the
  // tile count.
  uint64_t max_tiles(uint64_t n) const {
    const uint64_t k = keys_tile.tiles(n);
    return value_bytes || algorithm(n, false) == SortAlgorithm::onesweep ? std::max(k, tile.tiles(n)) : k;
  }
  uint64_t counts_words(uint64_t n) const { return 256 * max_tiles(n); }
  // Reduce-then-scan's group counts: 256 per group of tuning::kRadixUpsweepTiles tiles.
  static uint64_t groups(uint64_t tiles) {
    return (tiles + tuning::kRadixUpsweepTiles - 1) / tuning::kRadixUpsweepTiles;
  }
  uint64_t totals_words(uint64_t n) const { return 256 * groups(max_tiles(n)); }
  // One digit pass's digit counts (radix_upsweep: tuning::kRadixCountStripes copies of 256).
  static constexpr uint64_t kDigitsBytes = tuning::kRadixCountStripes * 256 * 4;
  bool cpu = false;  // a CPU device (lavapipe): automatic never picks onesweep
  bool bandwidth_rich = false;  // tuning::radix_bandwidth_rich: the automatic choice's device class
  // Whether a sort of n keys runs the *_wide passes (reduce-then-scan).
  bool wide(uint64_t n) const { return wide_forced || n > 0xFFFFFFFFull; }
  SortAlgorithm algorithm(uint64_t n, bool pairs) const {
    if (wide(n)) return SortAlgorithm::reduce_then_scan;
    return choose_algorithm(requested, n, key_bytes, pairs ? value_bytes : 0, cpu, bandwidth_rich,
                            keys_large_onesweep_from != tuning::kRadixNoLargeTile);
  }

  // Temp layout, reduce-then-scan: [varying bits: 16 bytes] [digit counts of each digit pass]
  // [tile prefixes: 128 u32 per tile] [group counts] [their offsets] [keys] [values]. Onesweep:
  // [histogram: 8 passes x 256 u32] [varying bits] [state 0] [state 1] [keys] [values], state
  // regions of a 4-word header (the tile counter) and 256 words per tile. What is zeroed up front
  // is contiguous (upfront()): the varying bits and, after them, the passes' digit counts
  // (reduce-then-scan) or, for onesweep, the histogram before them and the first pass's state
  // after them. A sort of pairs may run the other algorithm than one of keys alone: temp_bytes
  // covers both.
  struct Layout {
    uint64_t hist = 0, varying = 0, digits = 0, prefix = 0, totals = 0, offsets = 0, state0 = 0, state1 = 0,
             keys = 0, values = 0, total = 0;
  };
  uint64_t state_bytes(uint64_t n) const { return align16((kRadixOnesweepHeaderWords + counts_words(n)) * 4); }
  Layout layout(uint64_t n, bool pairs) const {
    Layout l;
    if (algorithm(n, pairs) == SortAlgorithm::onesweep) {
      l.varying = 8 * 256 * 4;
      l.state0 = l.varying + kRadixVaryingBytes;
      l.state1 = l.state0 + state_bytes(n);
      l.keys = l.state1 + state_bytes(n);
    } else {
      l.digits = kRadixVaryingBytes;
      l.prefix = l.digits + key_bits() / 8 * kDigitsBytes;
      l.totals = l.prefix + align16(max_tiles(n) * 128 * 4);  // two 16-bit prefixes per word
      l.offsets = l.totals + align16(totals_words(n) * 4);
      l.keys = l.offsets + align16(totals_words(n) * (wide(n) ? 8 : 4));  // the wide offsets: u64
    }
    l.values = l.keys + align16(n * key_bytes);
    l.total = l.values + align16(n * value_bytes);
    return l;
  }

  std::pair<uint32_t, uint32_t> grid(uint64_t tiles) const {
    const uint64_t x = std::min<uint64_t>(tiles, ctx->caps.max_workgroup_count[0]);
    return {uint32_t(x), uint32_t((tiles + x - 1) / x)};
  }

  Status check_view(const char* name, BufferView v, uint64_t bytes, uint32_t align) const {
    return detail::check_view("RadixSort", name, v, bytes, align);
  }

  Result<BufferView> resolve_temp(BufferView temp, uint64_t need) const {
    return detail::resolve_temp("RadixSort", temp, owned_temp, need);
  }

  // Where the upfront count of n keys goes in temp (layout(n, pairs)), and what is zeroed before it:
  // the varying bits, and after them reduce-then-scan's digit counts of the digit passes, or for
  // onesweep the histogram before them and the first pass's state after them (contiguous).
  RadixUpfront upfront(uint64_t n, bool pairs, BufferView temp, uint32_t begin_bit, uint32_t end_bit) const {
    const Layout l = layout(n, pairs);
    const bool onesweep = algorithm(n, pairs) == SortAlgorithm::onesweep;
    RadixUpfront u;
    u.histogram = onesweep;
    u.hist = onesweep ? temp.address + l.hist : 0;
    u.varying = temp.address + l.varying;
    u.flags = key_flags;
    u.passes = (end_bit - begin_bit + 7) / 8;
    const uint64_t zero_from = onesweep ? l.hist : l.varying;
    const uint64_t zero_to = onesweep ? l.state1 : l.digits + u.passes * kDigitsBytes;
    u.zero = temp.sub(zero_from, zero_to - zero_from);
    return u;
  }
  // The upfront pass's grid: grid-stride tiles, at most tuning::kRadixHistogramInvocations
  // invocations (varying and histogram share a shape).
  uint32_t upfront_groups(uint64_t n) const {
    return std::min(grid_groups(*ctx, n, varying.tile_items()),
                    tuning::kRadixHistogramInvocations / varying.workgroup_size());
  }

  // Every check of a sort call, made before it records anything: the temporary storage the call
  // uses. An end_bit of 0 becomes the key's width.
  Result<BufferView> check(BufferView keys_in, BufferView values_in, BufferView keys_out,
                           BufferView values_out, const Count& count, BufferView temp_in,
                           uint32_t begin_bit, uint32_t& end_bit, bool pairs, bool counted) const {
    const uint64_t n = count.n;
    if (pairs && value_bytes == 0)
      return make_error(Errc::invalid_argument,
                        "RadixSort: sort_pairs needs an object created with SortOptions::value_bytes 4 or 8");
    // A u32 count's max may pass 2^32 - 1 (its value cannot); a u64 count's too (the 64-bit
    // offset passes read all of it, each upfront dispatch its part).
    VKPRIM_TRY(check_device_count(count, "RadixSort", ~uint64_t(0), ~uint64_t(0)));
    if (wide(n) && !has_wide)
      return make_error(Errc::limit_exceeded, "RadixSort: " + str(n) + " keys: the device's buffers stop at " +
                                                  str(ctx->caps.max_buffer_size) + " bytes, below 2^32 keys");
    if (grid(max_tiles(n)).second > ctx->caps.max_workgroup_count[1])
      return make_error(Errc::limit_exceeded, "RadixSort: " + str(n) + " keys exceed the device's dispatch limits");
    // The upsweep's digit counts are u32 per stripe (groups g with g % stripes equal).
    const uint64_t stripe_keys = (groups(max_tiles(n)) + tuning::kRadixCountStripes - 1) /
                                 tuning::kRadixCountStripes * tuning::kRadixUpsweepTiles *
                                 std::max(tile.tile_items(), keys_tile.tile_items());
    if (stripe_keys > 0xFFFFFFFFull)
      return make_error(Errc::limit_exceeded, "RadixSort: " + str(n) + " keys: a digit pass counts at most " +
                                                  "2^32 - 1 keys per stripe of its groups");
    if (end_bit == 0) end_bit = key_bits();
    if (begin_bit > end_bit || end_bit > key_bits())
      return make_error(Errc::invalid_argument, "RadixSort: the bit range [" + str(begin_bit) + ", " + str(end_bit) +
                                                    ") must satisfy begin <= end <= " + str(key_bits()));
    VKPRIM_TRY(check_view("keys_in", keys_in, n * key_bytes, key_bytes));
    VKPRIM_TRY(check_view("keys_out", keys_out, n * key_bytes, key_bytes));
    const uint64_t vb = pairs ? value_bytes : 0;
    if (pairs) {
      VKPRIM_TRY(check_view("values_in", values_in, n * vb, uint32_t(vb)));
      VKPRIM_TRY(check_view("values_out", values_out, n * vb, uint32_t(vb)));
    }
    auto overlap = [](BufferView a, BufferView b, uint64_t bytes) {
      return bytes && a.address < b.address + bytes && b.address < a.address + bytes;
    };
    if (overlap(keys_in, keys_out, n * key_bytes) || overlap(values_in, values_out, n * vb))
      return make_error(Errc::invalid_argument, "RadixSort: outputs must not overlap the inputs (the sort is out of place)");
    if (counted && count.is_device())
      return make_error(Errc::invalid_argument, "RadixSort: a counted sort takes a host count");
    return resolve_temp(temp_in, temp_bytes(n));
  }

  Status record(VkCommandBuffer cmd, BufferView keys_in, BufferView values_in, BufferView keys_out,
                BufferView values_out, const Count& count, BufferView temp_in, uint32_t begin_bit,
                uint32_t end_bit, bool pairs, bool counted = false) const {
    auto temp = check(keys_in, values_in, keys_out, values_out, count, temp_in, begin_bit, end_bit,
                      pairs, counted);
    if (!temp) return temp.error();
    const uint64_t n = count.n;
    const bool lg = large(n, pairs);
    const Layout l = layout(n, pairs);

    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of temp (and the inputs) are done
    if (!count.is_device() && n == 0) return {};
    const uint64_t count_addr = count_address(count);
    const bool w = wide(n);
    const Pipeline& down = pairs ? (w ? downsweep_pairs_wide : downsweep_pairs)
                                 : (w ? downsweep_keys_wide : lg ? downsweep_keys_large : downsweep_keys);
    const uint32_t n_lo = uint32_t(n), n_hi = uint32_t(n >> 32);
    const uint64_t vin = pairs ? values_in.address : 0, vout = pairs ? values_out.address : 0;
    const uint32_t passes = (end_bit - begin_bit + 7) / 8;
    if (passes == 0) {  // nothing to sort by: a stable sort is a copy (by the downsweep's tiles)
      const uint32_t dt = uint32_t((pairs ? tile : lg ? keys_large : keys_tile).tiles(n));
      RadixDownsweepPush p{keys_in.address, keys_out.address, vin, vout, 0, 0, 0, count_addr,
                           n_lo, dt, 0, 0, 1, tuning::kRadixUpsweepTiles, n_hi};
      const auto [dx, dy] = grid(dt);
      down.dispatch(cmd, &p, dx, dy);
      return {};
    }
    const uint32_t nt = uint32_t(shape(n, pairs).tiles(n));  // counts_words(n) >= 256 * nt
    const auto [gx, gy] = grid(nt);
    const bool onesweep = algorithm(n, pairs) == SortAlgorithm::onesweep;
    const RadixUpfront up = upfront(n, pairs, *temp, begin_bit, end_bit);
    const uint64_t hist_addr = up.hist, varying_addr = up.varying;
    if (!counted) {
      VKPRIM_TRY(fill->record(cmd, up.zero, uint32_t(0)));
      compute_to_compute_barrier(*ctx, cmd);
      // reduce-then-scan reads the keys once for the varying bits alone; onesweep also counts
      // every pass's digits (shared-memory atomics per key and pass) for its global offsets.
      // Dispatches of at most max_items_per_dispatch keys (32-bit indices), each adding to the
      // same words (and histogram) after the one before; with a count on the GPU each takes its
      // part of it (the count less its first key, at most its length).
      const Pipeline& pass = onesweep ? histogram : varying;
      VKPRIM_TRY(for_each_chunk(n, ctx->max_items_per_dispatch, [&](uint64_t first, uint64_t m, uint64_t) {
        RadixHistogramPush hp{keys_in.address + first * key_bytes, hist_addr, varying_addr, count_addr,
                              first, uint32_t(m), begin_bit, end_bit, passes};
        pass.dispatch(cmd, &hp, upfront_groups(m));
        compute_to_compute_barrier(*ctx, cmd);
        return Status{};
      }));
    }

    // Pass p's destinations and digit: the last pass writes keys_out (and values_out); the ones
    // before alternate with the temporary buffers.
    const auto pass_target = [&](uint32_t p, uint64_t& dst_k, uint64_t& dst_v, uint32_t& shift, uint32_t& bits) {
      const bool to_out = (passes - 1 - p) % 2 == 0;
      dst_k = to_out ? keys_out.address : temp->address + l.keys;
      dst_v = !pairs ? 0 : to_out ? vout : temp->address + l.values;
      shift = begin_bit + 8 * p;
      bits = std::min(8u, end_bit - shift);
    };

    if (onesweep) {
      const Pipeline& one = lg ? (pairs ? onesweep_pairs_large : onesweep_keys_large)
                               : (pairs ? onesweep_pairs : onesweep_keys);
      uint64_t src_k = keys_in.address, src_v = vin;
      for (uint32_t p = 0; p < passes; ++p) {
        uint64_t dst_k, dst_v;
        uint32_t shift, bits;
        pass_target(p, dst_k, dst_v, shift, bits);
        const uint64_t state = temp->address + (p % 2 ? l.state1 : l.state0);
        const uint64_t clear = p + 1 < passes ? temp->address + (p % 2 ? l.state0 : l.state1) : 0;
        RadixOnesweepPush op{src_k, dst_k, src_v, dst_v, hist_addr, varying_addr, state, clear, count_addr,
                             uint32_t(n), nt, shift, bits, p};
        one.dispatch(cmd, &op, gx, gy);
        if (p + 1 < passes) compute_to_compute_barrier(*ctx, cmd);
        src_k = dst_k;
        src_v = dst_v;
      }
      return {};
    }

    const auto [ux, uy] = grid(groups(nt));
    const uint64_t totals = temp->address + l.totals, offsets_addr = temp->address + l.offsets;
    const uint64_t prefix = temp->address + l.prefix;
    const Pipeline& upsweep = pairs ? (w ? upsweep_pairs_wide : upsweep_pairs)
                                    : (w ? upsweep_keys_wide : lg ? upsweep_keys_large : upsweep_keys);
    uint64_t src_k = keys_in.address, src_v = vin;
    for (uint32_t p = 0; p < passes; ++p) {
      uint64_t dst_k, dst_v;
      uint32_t shift, bits;
      pass_target(p, dst_k, dst_v, shift, bits);
      const uint64_t digits = temp->address + l.digits + p * kDigitsBytes;
      RadixUpsweepPush up{src_k, varying_addr, prefix, totals, digits, count_addr, n_lo, nt, shift, bits,
                          tuning::kRadixCountStripes, n_hi};
      upsweep.dispatch(cmd, &up, ux, uy);
      compute_to_compute_barrier(*ctx, cmd);
      record_offsets(cmd, totals, digits, offsets_addr, uint32_t(groups(nt)), w);
      compute_to_compute_barrier(*ctx, cmd);
      RadixDownsweepPush dp{src_k, dst_k, src_v, dst_v, varying_addr, prefix, offsets_addr,
                            count_addr, n_lo, nt, shift, bits, 0, tuning::kRadixUpsweepTiles, n_hi};
      down.dispatch(cmd, &dp, gx, gy);
      if (p + 1 < passes) compute_to_compute_barrier(*ctx, cmd);
      src_k = dst_k;
      src_v = dst_v;
    }
    return {};
  }

  // radix_offsets over 256 rows of `groups` counts: workgroups of as many rows (a power of two) as
  // fill one chunk of the pass's tile, so that short rows do not cost a workgroup each.
  // wide: u64 offsets (radix_offsets_*_wide).
  void record_offsets(VkCommandBuffer cmd, uint64_t totals, uint64_t digits, uint64_t out, uint32_t groups,
                      bool wide = false) const {
    uint32_t rows = 1;
    while (rows < 256 && 2 * uint64_t(rows) * groups <= offsets.tile_items()) rows *= 2;
    RadixOffsetsPush p{totals, digits, out, groups, tuning::kRadixCountStripes, rows};
    (wide ? offsets_wide : offsets).dispatch(cmd, &p, 256 / rows);
  }

  uint64_t temp_bytes(uint64_t n) const {
    return std::max(layout(n, false).total, value_bytes ? layout(n, true).total : 0);
  }
};

RadixUpfront SortInternals::upfront(const RadixSort& s, uint64_t n, BufferView temp,
                                    uint32_t begin_bit, uint32_t end_bit) {
  return s.plan_->upfront(n, true, temp, begin_bit, end_bit);
}

RadixTempLayout SortInternals::layout(const RadixSort& s, uint64_t n, bool pairs) {
  const auto l = s.plan_->layout(n, pairs);
  return {l.varying, l.prefix, l.state0};
}

Status SortInternals::record_offsets(const RadixSort& s, VkCommandBuffer cmd, BufferView totals, BufferView digits,
                                     BufferView offsets, uint32_t groups, bool wide) {
  const uint64_t words = 256 * uint64_t(groups);
  if (groups == 0 || totals.size < words * 4 || offsets.size < words * (wide ? 8 : 4) ||
      digits.size < tuning::kRadixCountStripes * 256 * 4)
    return make_error(Errc::invalid_argument, "RadixSort: record_offsets: buffers too small for " + str(groups) + " groups");
  if (wide && !s.plan_->has_wide)
    return make_error(Errc::invalid_argument,
                      "RadixSort: record_offsets: the object has no 64-bit offset passes");
  s.plan_->record_offsets(cmd, totals.address, digits.address, offsets.address, groups, wide);
  return {};
}

Status SortInternals::check_pairs_counted(const RadixSort& s, BufferView keys_in,
                                          BufferView values_in, BufferView keys_out,
                                          BufferView values_out, uint64_t n, BufferView temp,
                                          uint32_t begin_bit, uint32_t end_bit) {
  auto t = s.plan_->check(keys_in, values_in, keys_out, values_out, n, temp, begin_bit, end_bit,
                          true, true);
  if (!t) return t.error();
  return {};
}

Status SortInternals::sort_pairs_counted(const RadixSort& s, VkCommandBuffer cmd,
                                         BufferView keys_in, BufferView values_in,
                                         BufferView keys_out, BufferView values_out, uint64_t n,
                                         BufferView temp, uint32_t begin_bit, uint32_t end_bit) {
  return s.plan_->record(cmd, keys_in, values_in, keys_out, values_out, n, temp, begin_bit,
                         end_bit, true, true);
}

}  // namespace detail

using detail::SortPlan;

RadixSort::RadixSort(std::unique_ptr<SortPlan> p) : plan_(std::move(p)) {}
RadixSort::RadixSort(RadixSort&&) noexcept = default;
RadixSort& RadixSort::operator=(RadixSort&&) noexcept = default;
RadixSort::~RadixSort() = default;

Result<RadixSort> RadixSort::create(const Context& context, ValueType key_type, const SortOptions& o) {
  return testing::create_radix_sort(context, key_type, o, {});
}

Result<RadixSort> testing::create_radix_sort(const Context& context, ValueType key_type,
                                             const SortOptions& o, const SortKnobs& knobs) {
  const auto& ctx = context.impl();
  const auto& caps = ctx.caps;
  if (o.value_bytes != 0 && o.value_bytes != 4 && o.value_bytes != 8)
    return make_error(Errc::invalid_argument,
                      "RadixSort: value_bytes must be 0 (keys only), 4 or 8, not " + std::to_string(o.value_bytes));
  auto plan = std::make_unique<SortPlan>();
  plan->ctx = &ctx;
  plan->key_type = key_type;
  plan->key_bytes = uint32_t(size_of(key_type));
  plan->value_bytes = o.value_bytes;
  switch (key_type) {
    case ValueType::u32: case ValueType::u64: plan->key_flags = detail::kRadixUnsigned; break;
    case ValueType::i32: case ValueType::i64: plan->key_flags = detail::kRadixSigned; break;
    case ValueType::f32: case ValueType::f64: plan->key_flags = detail::kRadixFloat; break;
  }
  if (o.descending) plan->key_flags |= detail::kRadixDescending;
  plan->leading_barrier = o.leading_barrier;
  plan->requested = o.algorithm;
  plan->look_back.spin_limit = knobs.spin_limit ? knobs.spin_limit : detail::tuning::kRadixSpinLimit;
  plan->look_back.stall_period = knobs.stall_period;
  plan->look_back.stall_counts = knobs.stall_counts ? 1 : 0;
  plan->look_back.guess_offset = knobs.onesweep_misguess ? 1 : 0;
  // Whether any call may run onesweep (then its shared memory must fit too).
  plan->cpu = plan->ctx->device_class.cpu();
  plan->bandwidth_rich = detail::tuning::radix_bandwidth_rich(plan->ctx->device_class);
  const bool may_onesweep = plan->algorithm(1, false) == SortAlgorithm::onesweep;
  // The _sg downsweep needs ballots (the match), arithmetic (the digit scan), shuffles (the
  // rank records' identity shuffle, sort/radix_rank.glsl) and subgroups that tile the
  // workgroup; its per-subgroup digit counters share the tile's staging array, sized for the
  // smallest subgroup size (tuning::radix_rank_words).
  const bool sg_ops = o.use_subgroup_ops && (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_BASIC_BIT) &&
                      (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                      (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_BALLOT_BIT) &&
                      (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) && caps.min_subgroup_size > 0;
  const uint32_t min_sg = std::max(caps.min_subgroup_size, 1u);
  // The first tile shape of a table whose shared memory fits, with the subgroup ranking if the
  // device has it, else without; onesweep's fit too where the shape serves it.
  using detail::tuning::RadixTile;
  const auto shared_bytes = [&](RadixTile t, bool sg, bool onesweep) {
    using namespace detail::tuning;
    return onesweep ? radix_onesweep_shared_bytes(t, sg, min_sg) : radix_downsweep_shared_bytes(t, sg, min_sg);
  };
  // Whether tile t can run with (sg) or without subgroup operations.
  const auto fits = [&](RadixTile t, bool sg, bool onesweep) {
    const bool subgroups_tile = caps.max_subgroup_size <= t.workgroup && t.workgroup % caps.max_subgroup_size == 0;
    return (!sg || subgroups_tile) && shared_bytes(t, sg, onesweep) <= caps.max_shared_memory;
  };
  const auto shape_of = [&](RadixTile t, bool sg) {
    return detail::RadixTileShape{t.workgroup, t.items, detail::tuning::radix_rank_words(t, min_sg), sg};
  };
  const auto pick = [&](const auto& table, bool onesweep, detail::RadixTileShape& out) -> Status {
    for (bool sg : {sg_ops, false}) {
      for (RadixTile t : table) {
        if (fits(t, sg, onesweep)) {
          out = shape_of(t, sg);
          return {};
        }
      }
    }
    uint64_t least = UINT64_MAX;
    for (RadixTile t : table) least = std::min(least, shared_bytes(t, false, onesweep));
    return make_error(Errc::unsupported, "RadixSort: needs " + std::to_string(least) +
                                             " bytes of shared memory, the device has " +
                                             std::to_string(caps.max_shared_memory));
  };
  VKPRIM_TRY(pick(detail::tuning::kRadixTiles, may_onesweep, plan->tile));
  // Keys-only reduce-then-scan: tuning::kRadixKeysTiles4 / 8 (by key width) with the subgroup
  // ranking; the 2-bit splits keep the pairs' tile (policy.hpp: kRadixKeysTiles4).
  plan->keys_tile = plan->tile;
  const auto& keys_tiles = plan->key_bytes == 4 ? detail::tuning::kRadixKeysTiles4
                                                : detail::tuning::kRadixKeysTiles8;
  if (plan->tile.subgroup) VKPRIM_TRY(pick(keys_tiles, false, plan->keys_tile));
  namespace variants = detail::variants;
  const auto key = plan->key_bytes == 4 ? variants::Key::k1 : variants::Key::k2;
  // The upfront pass: the varying bits only for reduce-then-scan (which any object may run:
  // onesweep's beyond its key limit), with the histogram for onesweep.
  // Every radix pass takes the key flags as specialization constant 3 (common/radix.glsl:
  // RADIX_FLAGS), after constant 2 where the pass has one (the ranking's RANK_WORDS, the
  // upsweep's GROUP_TILES; unused otherwise); the ranking passes then onesweep's look-back
  // constants (common/look_back.h, which the downsweep does not declare).
  uint32_t upfront_wg = detail::tuning::kRadixHistogramWorkgroup;
  while (upfront_wg > caps.max_workgroup_invocations) upfront_wg /= 2;
  const auto upfront = [&](detail::Shader shader, detail::Pipeline& out) -> Status {
    detail::PipelineDesc d;
    d.shader = shader;
    d.push_bytes = detail::kRadixHistogramPushBytes;
    d.workgroup_size = upfront_wg;
    d.items = detail::tuning::kRadixHistogramTile / upfront_wg;
    d.extra_spec = {0, plan->key_flags};
    auto p = detail::Pipeline::create(*plan->ctx, d);
    if (!p) return p.error();
    out = std::move(*p);
    return {};
  };
  VKPRIM_TRY(upfront(variants::radix_varying(key), plan->varying));
  if (may_onesweep) VKPRIM_TRY(upfront(variants::radix_histogram(key), plan->histogram));
  // A pass over the tiles of shape t: the upsweep (its counts are the downsweep's tiles) and the
  // ranking passes, keys only (_v0) and with values of value_bytes (_v1, _v2).
  const auto on_tiles = [&](detail::PipelineDesc d, const detail::RadixTileShape& t,
                            detail::Pipeline& out) -> Status {
    d.workgroup_size = t.wg;
    d.items = t.items;
    auto p = detail::Pipeline::create(*plan->ctx, d);
    if (!p) return p.error();
    out = std::move(*p);
    return {};
  };
  const auto upsweep = [&](const detail::RadixTileShape& t, detail::Pipeline& out,
                           variants::Offsets offsets = variants::Offsets::narrow) {
    detail::PipelineDesc d;
    d.shader = variants::radix_upsweep(key, offsets);
    d.push_bytes = detail::kRadixUpsweepPushBytes;
    d.extra_spec = {detail::tuning::kRadixUpsweepTiles, plan->key_flags};
    return on_tiles(d, t, out);
  };
  // The ranking passes: the downsweep by offset width, onesweep, and onesweep's build for the
  // large tile of 4-byte keys alone (radix_onesweep_k1_v0_sg_rounds).
  enum class Ranking { downsweep, downsweep_wide, onesweep, onesweep_rounds };
  const auto ranking = [&](Ranking pass, uint32_t push_bytes, uint32_t value_bytes,
                           const detail::RadixTileShape& t, detail::Pipeline& out) {
    const auto vw = value_bytes == 0 ? variants::ValueWords::v0
                    : value_bytes == 4 ? variants::ValueWords::v1
                                       : variants::ValueWords::v2;
    const auto layer = variants::layer_axis(t.subgroup);
    const auto downsweep = [&](variants::Offsets offsets) {
      return variants::radix_downsweep(key, vw, layer, offsets);
    };
    detail::PipelineDesc d;
    switch (pass) {
      case Ranking::downsweep: d.shader = downsweep(variants::Offsets::narrow); break;
      case Ranking::downsweep_wide: d.shader = downsweep(variants::Offsets::wide); break;
      case Ranking::onesweep: d.shader = variants::radix_onesweep(key, vw, layer); break;
      case Ranking::onesweep_rounds: d.shader = detail::Shader::radix_onesweep_k1_v0_sg_rounds; break;
    }
    d.push_bytes = push_bytes;
    d.extra_spec = {t.subgroup ? t.rank_words : 0u, plan->key_flags};
    detail::set_look_back_spec(d, plan->look_back);
    return on_tiles(d, t, out);
  };
  VKPRIM_TRY(upsweep(plan->keys_tile, plan->upsweep_keys));
  const uint32_t down_push = detail::kRadixDownsweepPushBytes;
  const uint32_t one_push = detail::kRadixOnesweepPushBytes;
  VKPRIM_TRY(ranking(Ranking::downsweep, down_push, 0, plan->keys_tile, plan->downsweep_keys));
  if (o.value_bytes) {
    VKPRIM_TRY(upsweep(plan->tile, plan->upsweep_pairs));
    VKPRIM_TRY(
        ranking(Ranking::downsweep, down_push, o.value_bytes, plan->tile, plan->downsweep_pairs));
  }
  if (may_onesweep) {
    VKPRIM_TRY(ranking(Ranking::onesweep, one_push, 0, plan->tile, plan->onesweep_keys));
    if (o.value_bytes)
      VKPRIM_TRY(
          ranking(Ranking::onesweep, one_push, o.value_bytes, plan->tile, plan->onesweep_pairs));
  }
  // The large sorts' tiles: by tuning::radix_large_tile_keys on GPUs (CPU devices: never), or
  // from testing::SortKnobs::large_tiles_from keys on any device; with the subgroup ranking, where
  // they fit (else the sort keeps its tiles at every size). 4-byte keys alone (by either
  // algorithm; onesweep's in its ONESWEEP_ROUNDS build, radix_onesweep_k1_v0_sg_rounds) and pairs
  // by onesweep only.
  {
    using namespace detail::tuning;
    const uint64_t dbg = knobs.large_tiles_from;
    const auto from = [&](uint32_t value_bytes, bool onesweep) {
      return dbg ? dbg
             : plan->cpu ? kRadixNoLargeTile
                         : radix_large_tile_keys(plan->key_bytes, value_bytes, plan->bandwidth_rich, onesweep);
    };
    if (plan->key_bytes == 4 && plan->tile.subgroup && fits(kRadixKeysLargeTile4, true, false)) {
      plan->keys_large_from = from(0, false);
      plan->keys_large = shape_of(kRadixKeysLargeTile4, true);
      const uint64_t rounds_bytes = radix_onesweep_rounds_shared_bytes(kRadixKeysLargeTile4, min_sg);
      if (may_onesweep && rounds_bytes <= caps.max_shared_memory) plan->keys_large_onesweep_from = from(0, true);
    }
    if (o.value_bytes && may_onesweep && plan->tile.subgroup && fits(kRadixPairsLargeTile, true, true)) {
      plan->pairs_large_from = from(o.value_bytes, true);
      plan->pairs_large = shape_of(kRadixPairsLargeTile, true);
    }
    // A sort with no bits to sort copies by the downsweep's tiles (either algorithm).
    if (plan->keys_large_from != kRadixNoLargeTile ||
        plan->keys_large_onesweep_from != kRadixNoLargeTile) {
      VKPRIM_TRY(upsweep(plan->keys_large, plan->upsweep_keys_large));
      VKPRIM_TRY(ranking(Ranking::downsweep, down_push, 0, plan->keys_large,
                         plan->downsweep_keys_large));
    }
    if (plan->keys_large_onesweep_from != kRadixNoLargeTile)
      VKPRIM_TRY(ranking(Ranking::onesweep_rounds, one_push, 0, plan->keys_large,
                         plan->onesweep_keys_large));
    if (plan->pairs_large_from != kRadixNoLargeTile)
      VKPRIM_TRY(ranking(Ranking::onesweep, one_push, o.value_bytes, plan->pairs_large,
                         plan->onesweep_pairs_large));
  }
  // The group counts' offsets (tuning::kRadixOffsetsWorkgroup; at least 256 invocations, as the
  // ranking tiles need).
  uint32_t offsets_wg = detail::tuning::kRadixOffsetsWorkgroup;
  while (offsets_wg > caps.max_workgroup_invocations) offsets_wg /= 2;
  const bool sg_scan = o.use_subgroup_ops && (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                       caps.max_subgroup_size <= offsets_wg;
  const auto offsets_layer = variants::layer_axis(sg_scan);
  auto offsets = detail::Pipeline::create(
      *plan->ctx, variants::radix_offsets(offsets_layer, variants::Offsets::narrow),
      detail::kRadixOffsetsPushBytes, offsets_wg, detail::tuning::kRadixOffsetsItems);
  if (!offsets) return offsets.error();
  plan->offsets = std::move(*offsets);
  // The *_wide passes (64-bit offsets; 1 KiB more shared memory in the ranking), where a sort of
  // 2^32 keys can happen (buffers that hold them), or for tests at any size.
  plan->wide_forced = knobs.wide_offsets;
  const auto wide_fits = [&](const detail::RadixTileShape& t) {
    return detail::tuning::radix_downsweep_shared_bytes({t.wg, t.items}, t.subgroup, min_sg) + 256 * 4 <=
           caps.max_shared_memory;
  };
  const bool holds_2_32_keys =  // a max_buffer_size of 0: no limit reported
      caps.max_buffer_size == 0 || caps.max_buffer_size / plan->key_bytes > 0xFFFFFFFFull;
  plan->has_wide = (knobs.wide_offsets || holds_2_32_keys) &&
                   wide_fits(plan->keys_tile) && (!o.value_bytes || wide_fits(plan->tile));
  if (knobs.wide_offsets && !plan->has_wide)
    return make_error(Errc::unsupported,
                      "RadixSort: the 64-bit offset passes do not fit the device's shared memory");
  if (plan->has_wide) {
    VKPRIM_TRY(upsweep(plan->keys_tile, plan->upsweep_keys_wide, variants::Offsets::wide));
    VKPRIM_TRY(ranking(Ranking::downsweep_wide, down_push, 0, plan->keys_tile,
                       plan->downsweep_keys_wide));
    if (o.value_bytes) {
      VKPRIM_TRY(upsweep(plan->tile, plan->upsweep_pairs_wide, variants::Offsets::wide));
      VKPRIM_TRY(ranking(Ranking::downsweep_wide, down_push, o.value_bytes, plan->tile,
                         plan->downsweep_pairs_wide));
    }
    auto ow = detail::Pipeline::create(
        *plan->ctx, variants::radix_offsets(offsets_layer, variants::Offsets::wide),
        detail::kRadixOffsetsPushBytes, offsets_wg, detail::tuning::kRadixOffsetsItems);
    if (!ow) return ow.error();
    plan->offsets_wide = std::move(*ow);
  }
  auto fill = Fill::create(context);
  if (!fill) return fill.error();
  plan->fill.emplace(std::move(*fill));
  return detail::PlanAccess::wrap<RadixSort>(std::move(plan));
}

SortAlgorithm RadixSort::algorithm(uint64_t n, bool pairs) const { return plan_->algorithm(n, pairs); }

uint64_t RadixSort::tile_keys(uint64_t n, bool pairs) const {
  return plan_->shape(n, pairs && plan_->value_bytes != 0).tile_items();
}

uint64_t RadixSort::temp_bytes(uint64_t max_n) const { return plan_->temp_bytes(max_n); }

Status RadixSort::reserve(uint64_t max_n) {
  return detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(max_n));
}

Status RadixSort::sort_keys(VkCommandBuffer cmd, BufferView keys_in, BufferView keys_out, Count n,
                            BufferView temp, uint32_t begin_bit, uint32_t end_bit) const {
  return plan_->record(cmd, keys_in, {}, keys_out, {}, n, temp, begin_bit, end_bit, false);
}

Status RadixSort::sort_pairs(VkCommandBuffer cmd, BufferView keys_in, BufferView values_in,
                             BufferView keys_out, BufferView values_out, Count n, BufferView temp,
                             uint32_t begin_bit, uint32_t end_bit) const {
  return plan_->record(cmd, keys_in, values_in, keys_out, values_out, n, temp, begin_bit, end_bit, true);
}

}  // namespace vkprim
