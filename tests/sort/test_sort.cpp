// Radix sort against std::stable_sort on a CPU twin of the key transformation: every key type,
// ascending and descending, bit windows, keys only and pairs (stability checked through the
// values), awkward sizes, every tail length across one tile, counts read from the GPU, passes
// turned into copies (from the key bits that vary), and the argument checks; for both
// algorithms (reduce-then-scan and onesweep), and onesweep with tiles that never publish (the
// look-back's decoupled fallback). Outputs are poisoned first; nothing past n may be written.
#include "gpu.hpp"
#include "sort/pass.hpp"  // detail::SortInternals::layout, record_offsets
#include "sort/policy.hpp"  // detail::tuning: the tiles, kRadixCountStripes, the rules by size

#include <catch2/catch.hpp>
#include <vkprim/testing.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

using namespace vkprim;

namespace {

uint64_t pairs_tile();
uint64_t keys_tile(size_t key_bytes);
// The large tiles (tuning::kRadixKeysLargeTile4, kRadixPairsLargeTile) in keys.
constexpr uint64_t tile_keys_of(detail::tuning::RadixTile t) { return uint64_t(t.workgroup) * t.items; }

// CPU twin of common/radix.glsl: the unsigned key whose order is the documented key order.
template <class K>
auto ordered_bits(K k, bool descending) {
  using U = std::conditional_t<sizeof(K) == 4, uint32_t, uint64_t>;
  constexpr U sign = U(1) << (sizeof(K) * 8 - 1);
  U u = std::bit_cast<U>(k);
  if constexpr (std::is_signed_v<K> && std::is_integral_v<K>) u ^= sign;
  if constexpr (std::is_floating_point_v<K>) u = (u & sign) ? ~u : (u | sign);
  return descending ? U(~u) : u;
}

// The permutation std::stable_sort gives when ordering by bits [begin, end) of the ordered key.
template <class K>
std::vector<uint32_t> reference_order(const std::vector<K>& keys, bool descending, uint32_t begin, uint32_t end) {
  using U = decltype(ordered_bits(K{}, false));
  const uint32_t width = end - begin;
  const U mask = width >= sizeof(U) * 8 ? ~U(0) : ((U(1) << width) - 1);
  std::vector<U> window(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) window[i] = (ordered_bits(keys[i], descending) >> (begin % (sizeof(U) * 8))) & mask;
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  if (width) std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return window[a] < window[b]; });
  return order;
}

template <class K>
bool same_bits(K a, K b) { return std::memcmp(&a, &b, sizeof(K)) == 0; }

constexpr SortAlgorithm kAlgorithms[] = {SortAlgorithm::reduce_then_scan, SortAlgorithm::onesweep};
const char* name(SortAlgorithm a) { return a == SortAlgorithm::onesweep ? "onesweep" : "reduce-then-scan"; }

struct Case {
  bool descending = false;
  bool subgroup = true;
  uint32_t value_bytes = 0;  // 0: keys only
  uint32_t begin = 0, end = 0;
  SortAlgorithm algorithm = SortAlgorithm::reduce_then_scan;
  uint32_t stall_period = 0, spin_limit = 0;  // onesweep's look-back knobs (testing::SortKnobs)
  bool wide = false;  // testing::SortKnobs::wide_offsets: the passes of sorts of 2^32 keys
  uint64_t large_from = 0;  // testing::SortKnobs::large_tiles_from
  bool misguess = false;    // testing::SortKnobs::onesweep_misguess
  bool stall_counts = false;  // testing::SortKnobs::stall_counts
};

// Sorts `keys` (with values = the index, as u32 or u64, when pairs) and checks against the
// reference permutation: keys bit for bit, values exactly (so stability is checked), nothing
// written past n.
template <class K>
void check_sort(Runtime& rt, const RadixSort& sort, const std::vector<K>& keys, const Case& c) {
  const uint64_t n = keys.size();
  const uint32_t vb = c.value_bytes;
  auto kin = rt.upload(keys).value();
  Buffer kout = test::poisoned(rt, n * sizeof(K) + 64);
  Buffer vin, vout;
  if (vb == 4) {
    std::vector<uint32_t> v(n);
    std::iota(v.begin(), v.end(), 0u);
    vin = rt.upload(v).value();
  } else if (vb == 8) {
    std::vector<uint64_t> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = i | (uint64_t(~i) << 32);
    vin = rt.upload(v).value();
  }
  if (vb) vout = test::poisoned(rt, n * vb + 64);
  if (vb && n == 0) vin = rt.alloc(16).value();
  auto temp = rt.alloc(std::max<uint64_t>(sort.temp_bytes(n), 16)).value();
  rt.submit([&](VkCommandBuffer cmd) {
      return vb ? sort.sort_pairs(cmd, kin, vin, kout, vout, n, temp, c.begin, c.end)
                : sort.sort_keys(cmd, kin, kout, n, temp, c.begin, c.end);
    }).value();
  const uint32_t end = c.end ? c.end : uint32_t(sizeof(K) * 8);
  const auto order = reference_order(keys, c.descending, c.begin, end);
  auto got = rt.download<K>(kout, n).value();
  for (uint64_t i = 0; i < n; ++i)
    if (!same_bits(got[i], keys[order[i]])) FAIL("key " << i << ": got " << got[i] << ", want " << keys[order[i]]);
  if (vb == 4) {
    auto v = rt.download<uint32_t>(vout, n).value();
    for (uint64_t i = 0; i < n; ++i)
      if (v[i] != order[i]) FAIL("value " << i << ": got " << v[i] << ", want " << order[i] << " (unstable?)");
  } else if (vb == 8) {
    auto v = rt.download<uint64_t>(vout, n).value();
    for (uint64_t i = 0; i < n; ++i)
      if (v[i] != (order[i] | (uint64_t(~uint64_t(order[i])) << 32))) FAIL("value " << i << " (unstable?)");
  }
  auto tail = rt.download<uint32_t>(kout.view().sub(n * sizeof(K), 64), 16).value();
  for (auto w : tail) REQUIRE(w == 0xDEADBEEFu);
  if (vb) {
    auto vtail = rt.download<uint32_t>(vout.view().sub(n * vb, 64), 16).value();
    for (auto w : vtail) REQUIRE(w == 0xDEADBEEFu);
  }
}

template <class K>
RadixSort make_sort(Runtime& rt, const Case& c) {
  SortOptions o;
  o.descending = c.descending;
  o.value_bytes = c.value_bytes;
  o.use_subgroup_ops = c.subgroup;
  o.algorithm = c.algorithm;
  testing::SortKnobs k;
  k.stall_period = c.stall_period;
  k.spin_limit = c.spin_limit;
  k.wide_offsets = c.wide;
  k.large_tiles_from = c.large_from;
  k.onesweep_misguess = c.misguess;
  k.stall_counts = c.stall_counts;
  return testing::create_radix_sort(rt.context(), value_type_of<K>(), o, k).value();
}

// The tiles this device's sorts rank, read from the objects (RadixSort::tile_keys): pairs'
// (tuning::kRadixTiles, the first whose shared memory fits), and keys alone by
// reduce-then-scan with the subgroup ranking (tuning::kRadixKeysTiles4 / 8).
uint64_t pairs_tile() {
  static const uint64_t t = make_sort<uint32_t>(test::gpu(), Case{.value_bytes = 4}).tile_keys(1, true);
  return t;
}
uint64_t keys_tile(size_t key_bytes) {
  static const uint64_t t4 = make_sort<uint32_t>(test::gpu(), Case{}).tile_keys(1, false);
  static const uint64_t t8 = make_sort<uint64_t>(test::gpu(), Case{}).tile_keys(1, false);
  return key_bytes == 4 ? t4 : t8;
}

// Keys with the cases that break sorts: for floats -0.0 and +0.0, NaNs of both signs, +-inf,
// denormals; for integers the extremes; a fifth of the keys repeated.
template <class K>
std::vector<K> special_keys(uint64_t n, uint32_t seed) {
  auto keys = test::random_values<K>(n, seed);
  std::vector<K> specials;
  using L = std::numeric_limits<K>;
  if constexpr (std::is_floating_point_v<K>) {
    specials = {K(0.0), K(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(),
                L::denorm_min(), -L::denorm_min(), L::max(), L::lowest(), K(1), K(-1)};
    for (uint64_t i = 0; i < n; i += 7) {  // full-range bit patterns too, not only small values
      using U = std::conditional_t<sizeof(K) == 4, uint32_t, uint64_t>;
      U bits = U((uint64_t(test::hash32(i, seed + 9)) << 32) | test::hash32(i, seed + 10));
      keys[i] = std::bit_cast<K>(bits);
    }
  } else {
    specials = {L::min(), L::max(), K(0), K(1), K(L::max() - 1), K(L::min() + 1)};
  }
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t h = test::hash32(i, seed + 3);
    if (h % 5 == 0) keys[i] = specials[h / 5 % specials.size()];
  }
  return keys;
}

template <class K>
void sort_matrix() {
  auto& rt = test::gpu();
  if (value_type_of<K>() == ValueType::f64 && !rt.caps().shader_float64) {
    // f64 keys are sorted as bits: no float arithmetic is needed, so this runs anyway.
  }
  for (SortAlgorithm alg : kAlgorithms) {
    for (bool descending : {false, true}) {
      for (bool sg : {true, false}) {
        Case c;
        c.descending = descending;
        c.subgroup = sg;
        c.value_bytes = 4;
        c.algorithm = alg;
        auto sort = make_sort<K>(rt, c);
        for (uint32_t vb : {4u, 0u}) {  // pairs, then keys only (their own tiles)
          c.value_bytes = vb;
          const uint64_t kt = keys_tile(sizeof(K));
          for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(2), kt - 1, kt + 1, pairs_tile() - 1,
                             pairs_tile(), pairs_tile() + 1, 3 * pairs_tile() + 17, uint64_t(70001)}) {
            INFO(name(alg) << " " << to_string(value_type_of<K>()) << " descending=" << descending
                           << " subgroup=" << sg << " value_bytes=" << vb << " n=" << n);
            check_sort(rt, sort, special_keys<K>(n, uint32_t(n) + descending), c);
          }
        }
      }
    }
  }
}

}  // namespace

// The 64-bit counts, offsets and positions of sorts of 2^32 keys and more, on small data: keys
// only and with 4- and 8-byte values, both rankings, both orders, a bit window.
template <class K>
void wide_matrix() {
  auto& rt = test::gpu();
  for (bool descending : {false, true}) {
    for (bool sg : {true, false}) {
      Case c;
      c.descending = descending;
      c.subgroup = sg;
      c.wide = true;
      c.algorithm = SortAlgorithm::onesweep;  // asked for, but the wide passes are reduce-then-scan
      for (uint32_t vb : {0u, 4u, 8u}) {
        c.value_bytes = vb;
        auto sort = make_sort<K>(rt, c);
        REQUIRE(sort.algorithm(1000, vb != 0) == SortAlgorithm::reduce_then_scan);
        const uint64_t kt = keys_tile(sizeof(K));
        for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(2), kt + 1, pairs_tile() - 1, pairs_tile() + 1,
                           3 * pairs_tile() + 17, uint64_t(70001)}) {
          INFO(to_string(value_type_of<K>()) << " wide descending=" << descending << " subgroup=" << sg
                                             << " value_bytes=" << vb << " n=" << n);
          check_sort(rt, sort, special_keys<K>(n, uint32_t(n) + 7 * descending), c);
        }
        Case window = c;
        window.begin = 4;
        window.end = 21;
        INFO("bits [4, 21)");
        check_sort(rt, sort, special_keys<K>(30011, 3), window);
      }
    }
  }
}

TEST_CASE("radix sort u32 keys and pairs match std::stable_sort", "[sort]") { sort_matrix<uint32_t>(); }
TEST_CASE("radix sort with 64-bit offsets (how 2^32 keys and more sort): u32", "[sort][wide]") {
  wide_matrix<uint32_t>();
}
TEST_CASE("radix sort with 64-bit offsets: f32", "[sort][wide]") { wide_matrix<float>(); }
TEST_CASE("radix sort with 64-bit offsets: u64, i64", "[sort][wide]") {
  wide_matrix<uint64_t>();
  wide_matrix<int64_t>();
}
TEST_CASE("radix sort i32", "[sort]") { sort_matrix<int32_t>(); }
TEST_CASE("radix sort f32: -0.0 before +0.0, NaNs at the ends by sign", "[sort]") { sort_matrix<float>(); }
TEST_CASE("radix sort u64", "[sort]") { sort_matrix<uint64_t>(); }
TEST_CASE("radix sort i64", "[sort]") { sort_matrix<int64_t>(); }
TEST_CASE("radix sort f64", "[sort]") { sort_matrix<double>(); }

TEST_CASE("radix sort f32 key order is the documented total order", "[sort]") {
  auto& rt = test::gpu();
  using L = std::numeric_limits<float>;
  const float nan = L::quiet_NaN();
  // The expected ascending order, written out.
  const std::vector<float> want = {-nan, -L::infinity(), -1.0f, -L::denorm_min(), -0.0f, 0.0f,
                                   L::denorm_min(), 1.0f, L::infinity(), nan};
  std::vector<float> shuffled = {1.0f, nan, -0.0f, -L::infinity(), 0.0f, -nan, L::denorm_min(),
                                 L::infinity(), -1.0f, -L::denorm_min()};
  for (auto [descending, alg] : {std::pair{false, SortAlgorithm::reduce_then_scan}, {true, SortAlgorithm::reduce_then_scan},
                                 {false, SortAlgorithm::onesweep}, {true, SortAlgorithm::onesweep}}) {
    Case c;
    c.descending = descending;
    c.algorithm = alg;
    auto sort = make_sort<float>(rt, c);
    auto in = rt.upload(shuffled).value();
    Buffer out = test::poisoned(rt, 40);
    auto temp = rt.alloc(sort.temp_bytes(10)).value();
    rt.submit([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out, 10, temp); }).value();
    auto got = rt.download<float>(out, 10).value();
    for (size_t i = 0; i < 10; ++i) {
      const float w = descending ? want[9 - i] : want[i];
      INFO(name(alg) << " descending=" << descending << " i=" << i << " got " << got[i] << " want " << w);
      CHECK(same_bits(got[i], w));
    }
  }
}

TEST_CASE("radix sort pairs are stable on low-entropy and all-equal keys", "[sort][stable]") {
  auto& rt = test::gpu();
  for (SortAlgorithm alg : kAlgorithms) {
    for (uint32_t vb : {4u, 8u}) {
      for (bool sg : {true, false}) {
        Case c;
        c.value_bytes = vb;
        c.subgroup = sg;
        c.algorithm = alg;
        auto sort = make_sort<uint32_t>(rt, c);
        const uint64_t n = 5 * pairs_tile() + 123;
        std::vector<uint32_t> low(n), equal(n, 0x5A5A5A5Au), small(n);
        for (uint64_t i = 0; i < n; ++i) {
          low[i] = test::hash32(i, 1) & test::hash32(i, 2) & test::hash32(i, 3);  // AND of three words
          small[i] = test::hash32(i, 4) % 1000;  // high digits all zero: those passes are skipped
        }
        INFO(name(alg) << " value_bytes=" << vb << " subgroup=" << sg);
        check_sort(rt, sort, low, c);
        check_sort(rt, sort, equal, c);
        check_sort(rt, sort, small, c);
        Case d = c;
        d.descending = true;
        auto desc = make_sort<uint32_t>(rt, d);
        check_sort(rt, desc, low, d);
        check_sort(rt, desc, equal, d);
      }
    }
    // 64-bit keys with 64-bit values, a few distinct keys, both rankings.
    for (bool sg : {true, false}) {
      Case c;
      c.value_bytes = 8;
      c.subgroup = sg;
      c.algorithm = alg;
      auto sort = make_sort<uint64_t>(rt, c);
      std::vector<uint64_t> keys(3 * pairs_tile() + 5);
      for (uint64_t i = 0; i < keys.size(); ++i) keys[i] = uint64_t(test::hash32(i, 8) % 5) << 40;
      INFO(name(alg) << " u64 keys, u64 values, subgroup=" << sg);
      check_sort(rt, sort, keys, c);
    }
  }
}

TEST_CASE("radix sort bit windows sort only the bits asked for", "[sort][bits]") {
  auto& rt = test::gpu();
  for (SortAlgorithm alg : kAlgorithms) {
    for (auto [begin, end] : {std::pair{0u, 12u}, {4u, 20u}, {3u, 29u}, {8u, 8u}, {0u, 1u}, {31u, 32u}, {24u, 32u}}) {
      for (bool descending : {false, true}) {
        Case c;
        c.begin = begin;
        c.end = end;
        c.descending = descending;
        c.value_bytes = 4;
        c.algorithm = alg;
        auto sort = make_sort<uint32_t>(rt, c);
        INFO(name(alg) << " window [" << begin << ", " << end << ") descending=" << descending);
        check_sort(rt, sort, test::random_values<uint32_t>(2 * pairs_tile() + 99, begin * 33 + end), c);
        auto isort = make_sort<int32_t>(rt, c);
        check_sort(rt, isort, test::random_values<int32_t>(pairs_tile() + 7, begin + end), c);
      }
    }
    for (auto [begin, end] : {std::pair{10u, 45u}, {0u, 33u}, {32u, 64u}, {28u, 36u}, {60u, 64u}}) {
      Case c;
      c.begin = begin;
      c.end = end;
      c.value_bytes = 8;
      c.algorithm = alg;
      INFO(name(alg) << " 64-bit window [" << begin << ", " << end << ")");
      auto sort = make_sort<uint64_t>(rt, c);
      check_sort(rt, sort, test::random_values<uint64_t>(pairs_tile() + 300, begin + end), c);
      auto fsort = make_sort<double>(rt, c);
      check_sort(rt, fsort, special_keys<double>(pairs_tile() + 300, begin + end), c);
    }
  }
}

TEST_CASE("radix sort sizes either side of powers of two, up to 2^22", "[sort][large]") {
  auto& rt = test::gpu();
  for (SortAlgorithm alg : kAlgorithms) {
    INFO(name(alg));
    Case c;
    c.algorithm = alg;
    auto sort = make_sort<uint32_t>(rt, c);
    for (int k : {12, 16, 20}) {
      for (int64_t d : {-1, 1}) {
        const uint64_t n = (uint64_t(1) << k) + d;
        INFO("n=" << n);
        check_sort(rt, sort, test::random_values<uint32_t>(n, k), c);
      }
    }
    Case p = c;
    p.value_bytes = 4;
    auto pairs = make_sort<uint32_t>(rt, p);
    const uint64_t big = uint64_t(1) << 22;
    INFO("n=2^22 pairs");
    check_sort(rt, pairs, test::random_values<uint32_t>(big, 22), p);
    Case w = p;  // the ranking without subgroup operations, on many tiles
    w.subgroup = false;
    auto wpairs = make_sort<uint32_t>(rt, w);
    INFO("n=2^20+1 pairs, no subgroup operations");
    check_sort(rt, wpairs, test::random_values<uint32_t>((uint64_t(1) << 20) + 1, 21), w);
  }
}

namespace {

// Every n in [tile, 2 * tile] (the tile the sort ranks: RadixSort::tile_keys) sorted as pairs
// (values = the index, as u32 or u64) or, with value_bytes 0, as keys only, recorded back to
// back into one command buffer per batch, sharing one temp buffer (vkprim orders the calls).
void check_tails(Runtime& rt, const Case& c) {
  auto sort = make_sort<uint32_t>(rt, c);
  const uint32_t vb = c.value_bytes;
  const uint64_t tile = sort.tile_keys(1, vb != 0);
  const uint64_t lo = tile, hi = 2 * tile;
  auto keys = test::random_values<uint32_t>(hi, 5);
  std::vector<uint32_t> idx(hi);
  std::iota(idx.begin(), idx.end(), 0u);
  std::vector<uint64_t> idx64(hi);
  for (uint64_t i = 0; i < hi; ++i) idx64[i] = i | (uint64_t(~i) << 32);
  auto kin = rt.upload(keys).value();
  auto vin = vb == 8 ? rt.upload(idx64).value() : rt.upload(idx).value();
  auto temp = rt.alloc(sort.temp_bytes(hi)).value();
  const uint32_t end = c.end ? c.end : 32;
  constexpr uint64_t kBatch = 512;
  for (uint64_t b0 = lo; b0 <= hi; b0 += kBatch) {
    const uint64_t b1 = std::min(hi, b0 + kBatch - 1);
    uint64_t total = 0;
    for (uint64_t n = b0; n <= b1; ++n) total += n;
    Buffer kout = test::poisoned(rt, total * 4), vout;
    if (vb) vout = test::poisoned(rt, total * vb);
    rt.submit([&](VkCommandBuffer cmd) -> Status {
        uint64_t at = 0;
        for (uint64_t n = b0; n <= b1; at += n, ++n) {
          const BufferView ko = kout.view().sub(at * 4, n * 4);
          const BufferView vo = vb ? vout.view().sub(at * vb, n * vb) : BufferView{};
          VKPRIM_TRY(vb ? sort.sort_pairs(cmd, kin, vin, ko, vo, n, temp, c.begin, c.end)
                        : sort.sort_keys(cmd, kin, ko, n, temp, c.begin, c.end));
        }
        return {};
      }).value();
    auto gk = rt.download<uint32_t>(kout, total).value();
    std::vector<uint32_t> gv;
    std::vector<uint64_t> gv64;
    if (vb == 8) gv64 = rt.download<uint64_t>(vout, total).value();
    else if (vb == 4) gv = rt.download<uint32_t>(vout, total).value();
    uint64_t at = 0;
    for (uint64_t n = b0; n <= b1; at += n, ++n) {
      const auto order = reference_order(std::vector<uint32_t>(keys.begin(), keys.begin() + n), c.descending, c.begin, end);
      for (uint64_t i = 0; i < n; ++i) {
        const bool value_ok =
            vb == 0 || (vb == 8 ? gv64[at + i] == idx64[order[i]] : gv[at + i] == order[i]);
        if (!value_ok || gk[at + i] != keys[order[i]])
          FAIL(name(c.algorithm) << " subgroup=" << c.subgroup << " value_bytes=" << vb << " bits [" << c.begin << ", " << end << ") n=" << n
                           << " element " << i);
      }
    }
  }
}

}  // namespace

TEST_CASE("radix sort every tail length across one tile", "[sort][tails]") {
  // u32 pairs, an 8-bit window (one digit pass, many equal digits), for both rankings (subgroup
  // match and 2-bit splits) and 4- and 8-byte values.
  auto& rt = test::gpu();
  for (bool sg : {true, false}) {
    for (uint32_t vb : {4u, 8u}) {
      Case c;
      c.value_bytes = vb;
      c.end = 8;
      c.subgroup = sg;
      check_tails(rt, c);
    }
  }
}

TEST_CASE("radix sort keys only: every tail length across one of their tiles", "[sort][tails]") {
  // Keys-only reduce-then-scan with the subgroup ranking ranks tiles of its own shape
  // (tuning::kRadixKeysTiles4 for u32 keys); without subgroups, the pairs' tiles. Full u32 keys
  // (four passes), ascending, for both rankings.
  auto& rt = test::gpu();
  for (bool sg : {true, false}) {
    Case c;
    c.subgroup = sg;
    check_tails(rt, c);
  }
}

TEST_CASE("radix sort every tail length across one tile, full keys", "[sort][tails]") {
  // Four digit passes (the last three start from the previous pass's output), descending.
  auto& rt = test::gpu();
  for (bool sg : {true, false}) {
    Case c;
    c.value_bytes = 4;
    c.subgroup = sg;
    c.descending = true;
    check_tails(rt, c);
  }
}

TEST_CASE("radix sort onesweep every tail length across one tile", "[sort][tails][onesweep]") {
  // One configuration per ranking: full keys (four passes over both state regions), descending,
  // 4-byte values with the subgroup match; an 8-bit window, 8-byte values with 2-bit splits.
  auto& rt = test::gpu();
  Case c;
  c.value_bytes = 4;
  c.descending = true;
  c.algorithm = SortAlgorithm::onesweep;
  check_tails(rt, c);
  Case w;
  w.value_bytes = 8;
  w.end = 8;
  w.subgroup = false;
  w.algorithm = SortAlgorithm::onesweep;
  check_tails(rt, w);
}

TEST_CASE("radix sort onesweep is right when tiles stall: the decoupled fallback", "[sort][onesweep][fallback]") {
  // Tiles with id % period == period - 1 never publish their digit counts (period 1: none
  // does, tile 0 included), so successors must count those tiles' digits themselves.
  auto& rt = test::gpu();
  for (uint32_t period : {1u, 2u, 3u, 7u}) {
    for (bool sg : {true, false}) {
      Case c;
      c.algorithm = SortAlgorithm::onesweep;
      c.stall_period = period;
      c.spin_limit = 2;
      c.subgroup = sg;
      c.value_bytes = 4;
      INFO("period=" << period << " subgroup=" << sg);
      auto sort = make_sort<uint32_t>(rt, c);
      check_sort(rt, sort, special_keys<uint32_t>(9 * pairs_tile() + 77, period), c);
      Case d = c;  // low entropy: many digits with zero counts, descending floats
      d.descending = true;
      auto fsort = make_sort<float>(rt, d);
      std::vector<float> f(6 * pairs_tile() + 5);
      for (uint64_t i = 0; i < f.size(); ++i) f[i] = float(test::hash32(i, period) % 37) - 18.0f;
      check_sort(rt, fsort, f, d);
      Case k = c;  // 64-bit keys, 8-byte values
      k.value_bytes = 8;
      auto ksort = make_sort<uint64_t>(rt, k);
      check_sort(rt, ksort, test::random_values<uint64_t>(5 * pairs_tile() + 3, period + 40), k);
      // The stalled tiles publish their digit counts but never their prefixes: successors add
      // the counts and walk on (period 1: down to tile 0, which publishes nothing, so they
      // count tile 0's digits themselves).
      for (uint32_t vb : {0u, 4u}) {
        Case a = c;
        a.stall_counts = true;
        a.value_bytes = vb;
        INFO("counts only, value_bytes=" << vb);
        auto asort = make_sort<uint32_t>(rt, a);
        check_sort(rt, asort, special_keys<uint32_t>(9 * pairs_tile() + 77, period + 50), a);
      }
    }
  }
}

TEST_CASE("radix sort onesweep is right when workgroups guess the wrong tile", "[sort][onesweep][misguess]") {
  // Onesweep's subgroup builds load the keys of the tile their workgroup id guesses before the
  // pass's counter gives them their tile; guessing id + 1 makes every tile load its keys again
  // (the path of an out-of-order dispatch; the last workgroup guesses a tile past the end).
  // Keys alone and pairs on their tiles and on the large ones, 64-bit keys, with stalled tiles
  // too, and with a trivial pass (a copy of the tile).
  auto& rt = test::gpu();
  for (uint64_t large_from : {uint64_t(0), uint64_t(3000)}) {
    for (uint32_t stall : {0u, 3u, 4u}) {  // 4: every 4th tile publishes its counts only
      Case c;
      c.algorithm = SortAlgorithm::onesweep;
      c.misguess = true;
      c.large_from = large_from;
      c.stall_period = stall;
      c.stall_counts = stall == 4;
      c.spin_limit = stall ? 2 : 0;
      for (uint32_t vb : {0u, 4u}) {
        c.value_bytes = vb;
        auto sort = make_sort<uint32_t>(rt, c);
        const uint64_t kt = sort.tile_keys(std::max<uint64_t>(large_from, 70001), vb != 0);
        for (uint64_t n : {uint64_t(1), kt - 1, kt + 1, 3 * kt + 17, uint64_t(70001)}) {
          INFO("large_from=" << large_from << " stall=" << stall << " value_bytes=" << vb << " n=" << n);
          check_sort(rt, sort, special_keys<uint32_t>(n, uint32_t(n) + vb + stall), c);
          auto low = test::random_values<uint32_t>(n, uint32_t(n) + 1);  // the top byte's pass: a copy
          for (auto& k : low) k &= 0x00FFFFFFu;
          check_sort(rt, sort, low, c);
        }
      }
      Case k = c;
      k.value_bytes = 8;
      auto ksort = make_sort<uint64_t>(rt, k);
      INFO("u64 keys with 8-byte values, large_from=" << large_from << " stall=" << stall);
      check_sort(rt, ksort, test::random_values<uint64_t>(5 * pairs_tile() + 3, stall + 41), k);
    }
  }
}

TEST_CASE("radix sort algorithm choice", "[sort][onesweep]") {
  // automatic: onesweep on GPUs up to 2^22 keys of 4 bytes alone and pairs and 8-byte keys at
  // every size onesweep takes; on bandwidth-rich GPUs (tuning::radix_bandwidth_rich) up to 2^22
  // keys of 4 bytes (alone or with values) and of 8 bytes alone, and 8-byte keys with values at
  // every size onesweep takes; reduce-then-scan beyond and on CPU devices. onesweep's 30-bit
  // counts take at most 2^30 - 1 keys, beyond which the object sorts (and sizes its temporary
  // storage) by reduce-then-scan. temp_bytes covers whichever algorithm each of sort_keys and
  // sort_pairs runs.
  auto& rt = test::gpu();
  const bool cpu = rt.caps().device_type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  SortOptions o;
  o.value_bytes = 4;
  auto autos = RadixSort::create(rt.context(), ValueType::u32, o).value();
  o.value_bytes = 8;
  auto autos64 = RadixSort::create(rt.context(), ValueType::f64, o).value();
  o.algorithm = SortAlgorithm::reduce_then_scan;
  auto rts64 = RadixSort::create(rt.context(), ValueType::f64, o).value();
  o.algorithm = SortAlgorithm::onesweep;
  auto one64 = RadixSort::create(rt.context(), ValueType::f64, o).value();
  o.value_bytes = 4;
  o.algorithm = SortAlgorithm::reduce_then_scan;
  auto rts = RadixSort::create(rt.context(), ValueType::u32, o).value();
  o.algorithm = SortAlgorithm::onesweep;
  auto one = RadixSort::create(rt.context(), ValueType::u32, o).value();
  const uint64_t limit = (uint64_t(1) << 30) - 1;
  // The rule itself for both device classes (CPU devices never reach it).
  using detail::tuning::radix_onesweep_auto_keys;
  DeviceClass high, standard, host;
  high.bandwidth = BandwidthClass::high;
  standard.bandwidth = BandwidthClass::standard;
  host.bandwidth = BandwidthClass::host;
  CHECK(detail::tuning::radix_bandwidth_rich(high));
  CHECK(!detail::tuning::radix_bandwidth_rich(standard));
  CHECK(!detail::tuning::radix_bandwidth_rich(host));
  for (bool rich_rule : {false, true}) {
    for (bool large : {false, true}) {  // whether onesweep has its large tile for 4-byte keys alone
      CHECK(radix_onesweep_auto_keys(4, 0, rich_rule, large) == uint64_t(1) << (large ? 23 : 22));
      CHECK(radix_onesweep_auto_keys(4, 4, rich_rule, large) == (rich_rule ? uint64_t(1) << 22 : limit));
      CHECK(radix_onesweep_auto_keys(4, 8, rich_rule, large) == (rich_rule ? uint64_t(1) << 22 : limit));
      CHECK(radix_onesweep_auto_keys(8, 0, rich_rule, large) == (rich_rule ? uint64_t(1) << 22 : limit));
      CHECK(radix_onesweep_auto_keys(8, 8, rich_rule, large) == limit);
    }
  }
  const bool rich = detail::tuning::radix_bandwidth_rich(rt.context().device_class());
  // Onesweep's large tile for 4-byte keys alone (from 2^21 keys on GPUs where it fits).
  const bool keys_large = !cpu && one.tile_keys(uint64_t(1) << 21, false) ==
                                      tile_keys_of(detail::tuning::kRadixKeysLargeTile4);
  const uint64_t auto32 = uint64_t(1) << (keys_large ? 23 : 22), auto32_pairs = rich ? uint64_t(1) << 22 : limit;
  const uint64_t auto64 = rich ? uint64_t(1) << 22 : limit;
  for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(1) << 20, auto32, auto32 + 1, uint64_t(1) << 23,
                     uint64_t(1) << 27, limit, limit + 1, uint64_t(1) << 31}) {
    INFO("n=" << n);
    const auto want = [&](uint64_t most) {
      return !cpu && n <= most ? SortAlgorithm::onesweep : SortAlgorithm::reduce_then_scan;
    };
    for (bool pairs : {false, true}) {
      INFO("pairs=" << pairs);
      CHECK(autos.algorithm(n, pairs) == want(pairs ? auto32_pairs : auto32));
      CHECK(autos64.algorithm(n, pairs) == want(pairs ? limit : auto64));
      CHECK(rts.algorithm(n, pairs) == SortAlgorithm::reduce_then_scan);
      CHECK(one.algorithm(n, pairs) == (n <= limit ? SortAlgorithm::onesweep : SortAlgorithm::reduce_then_scan));
    }
    if (n > limit) CHECK(one.temp_bytes(n) == rts.temp_bytes(n));
    // Keys alone and pairs may take different algorithms; temp_bytes covers both.
    const auto temp = [&](const RadixSort& os, const RadixSort& r, uint64_t most) {
      return (want(most) == SortAlgorithm::onesweep ? os : r).temp_bytes(n);
    };
    CHECK(autos.temp_bytes(n) == std::max(temp(one, rts, auto32), temp(one, rts, auto32_pairs)));
    CHECK(autos64.temp_bytes(n) == std::max(temp(one64, rts64, auto64), temp(one64, rts64, limit)));
  }
}

TEST_CASE("radix sort's large tiles", "[sort][large-tiles]") {
  // tuning::radix_large_tile_keys (not on CPU devices): 4-byte keys alone rank tiles of 384 x
  // 18 (staged in two rounds) on every GPU, by reduce-then-scan from 2^26 keys and by onesweep
  // from 2^21; on GPUs that are not bandwidth-rich, pairs by onesweep tiles of 768 x 12 from
  // 2^24 (2^21 for more than 8 bytes of key and value), where they fit the device with the
  // subgroup ranking.
  // Then the sorts themselves on those tiles, from a few keys on
  // (testing::SortKnobs::large_tiles_from), on every device where they fit (lavapipe's 32 KiB of
  // shared memory hold the keys' tile, not the pairs').
  using detail::tuning::radix_large_tile_keys;
  constexpr uint64_t never = ~uint64_t(0);
  for (bool rich : {false, true}) {
    CHECK(radix_large_tile_keys(4, 0, rich, false) == uint64_t(1) << 26);
    CHECK(radix_large_tile_keys(4, 0, rich, true) == uint64_t(1) << 21);
    CHECK(radix_large_tile_keys(8, 0, rich, false) == never);
    CHECK(radix_large_tile_keys(8, 0, rich, true) == never);
  }
  CHECK(radix_large_tile_keys(4, 4, false, true) == uint64_t(1) << 24);
  CHECK(radix_large_tile_keys(4, 8, false, true) == uint64_t(1) << 21);
  CHECK(radix_large_tile_keys(8, 4, false, true) == uint64_t(1) << 21);
  CHECK(radix_large_tile_keys(8, 8, false, true) == uint64_t(1) << 21);
  for (uint32_t kb : {4u, 8u})
    for (uint32_t vb : {4u, 8u}) CHECK(radix_large_tile_keys(kb, vb, true, true) == never);
  constexpr uint64_t keys_large = tile_keys_of(detail::tuning::kRadixKeysLargeTile4),
                     pairs_large = tile_keys_of(detail::tuning::kRadixPairsLargeTile);

  auto& rt = test::gpu();
  const DeviceClass& dc = rt.context().device_class();
  const bool cpu = dc.cpu();
  const bool pairs_rule = !cpu && !detail::tuning::radix_bandwidth_rich(dc);
  // NVIDIA devices whose shared memory holds the large tiles with the subgroup ranking: there
  // they must be taken (elsewhere a device may lack what the ranking needs).
  const uint32_t min_sg = std::max(dc.min_subgroup_size, 1u);
  const bool nvidia = dc.vendor_id == kVendorNvidia && dc.subgroup_ops &&
                      detail::tuning::radix_downsweep_shared_bytes(detail::tuning::kRadixKeysLargeTile4, true,
                                                                   min_sg) <= dc.shared_memory;
  const bool nvidia_pairs = nvidia && detail::tuning::radix_onesweep_shared_bytes(
                                          detail::tuning::kRadixPairsLargeTile, true, min_sg) <= dc.shared_memory;
  SortOptions o;
  o.value_bytes = 4;
  auto autos = RadixSort::create(rt.context(), ValueType::u32, o).value();
  o.value_bytes = 8;
  auto autos64 = RadixSort::create(rt.context(), ValueType::u64, o).value();
  // Below the thresholds (keys alone past 2^23: reduce-then-scan on every device; pairs take
  // the same tiles in both algorithms).
  const uint64_t small_keys = autos.tile_keys(uint64_t(1) << 24, false), small_pairs = autos.tile_keys(1, true);
  CHECK(autos.tile_keys((uint64_t(1) << 26) - 1, false) == small_keys);
  // Keys alone by onesweep (the automatic choice on GPUs up to 2^22 or 2^23): pairs' tile below
  // 2^21, the large one from there where it fits.
  CHECK(autos.tile_keys((uint64_t(1) << 21) - 1, false) == (cpu ? small_keys : small_pairs));
  const uint64_t ko = autos.tile_keys(uint64_t(1) << 21, false);
  if (cpu) CHECK(ko == small_keys);
  else CHECK((ko == keys_large || (!nvidia && ko == small_pairs)));
  CHECK(autos.tile_keys((uint64_t(1) << 24) - 1, true) == small_pairs);
  CHECK(autos64.tile_keys((uint64_t(1) << 21) - 1, true) == small_pairs);
  // 8-byte keys alone have no large tile (same algorithm at both sizes on every device).
  CHECK(autos64.tile_keys(uint64_t(1) << 29, false) == autos64.tile_keys(uint64_t(1) << 23, false));
  for (uint64_t n : {uint64_t(1) << 26, uint64_t(1) << 28}) {
    INFO("n=" << n);
    const uint64_t k = autos.tile_keys(n, false), p = autos.tile_keys(n, true);
    if (cpu) CHECK(k == small_keys);
    else CHECK((k == keys_large || (!nvidia && k == small_keys)));
    if (!pairs_rule) {
      CHECK(p == small_pairs);
    } else {
      CHECK((p == pairs_large || (!nvidia_pairs && p == small_pairs)));
      CHECK(autos64.tile_keys(n, true) == p);
    }
  }
  // Sorts of 2^32 keys and more (the 64-bit passes) and pairs by reduce-then-scan keep the tiles.
  CHECK(autos.tile_keys(uint64_t(1) << 33, false) == small_keys);
  o.algorithm = SortAlgorithm::reduce_then_scan;
  auto rts = RadixSort::create(rt.context(), ValueType::u32, o).value();
  CHECK(rts.tile_keys(uint64_t(1) << 28, true) == small_pairs);

  // The sorts on large tiles: 4-byte keys alone (both algorithms; onesweep's also with stalled
  // tiles: the decoupled fallback) and pairs (onesweep, with 4- and 8-byte values, and with
  // stalled tiles) at sizes around one to three of their tiles, special keys, both orders.
  constexpr uint64_t from = 3000;
  for (bool descending : {false, true}) {
    Case kc;
    kc.large_from = from;
    kc.descending = descending;
    auto keys = make_sort<uint32_t>(rt, kc);
    auto fkeys = make_sort<float>(rt, kc);
    const uint64_t small = keys.tile_keys(from - 1, false), kt = keys.tile_keys(from, false);
    CHECK(small < keys_large);
    // The large tile wherever it fits: on those NVIDIA devices, and on lavapipe at 8 lanes or more
    // where its subgroups are usable (at 4, its 96 subgroups' counters pass the 32 KiB of shared
    // memory, as 384 x 9's do).
    const bool lavapipe_fits = cpu && rt.caps().usable_subgroup_ops() && rt.caps().min_subgroup_size >= 8;
    CHECK((kt == keys_large || (kt == small && !nvidia && !lavapipe_fits)));
    // The large tile is staged in rounds of `round` positions (sort/radix_rank.glsl:
    // RANK_ROUNDS) wherever its counters take fewer words than its keys: two rounds at 8 lanes
    // or more (at 8, the second of 768 keys); tails end on both sides of the first round's end.
    const uint64_t round = detail::tuning::radix_rank_words(detail::tuning::kRadixKeysLargeTile4,
                                                            std::max(rt.caps().min_subgroup_size, 1u));
    if (kt == keys_large && rt.caps().min_subgroup_size >= 8) CHECK(round < kt);
    Case oc = kc;
    oc.algorithm = SortAlgorithm::onesweep;
    auto okeys = make_sort<uint32_t>(rt, oc);
    auto ofkeys = make_sort<float>(rt, oc);
    CHECK(okeys.tile_keys(from, false) == kt);
    for (uint64_t n : {from - 1, from, kt - 1, kt, kt + 1, kt + round - 1, kt + round, kt + round + 1, 2 * kt - 1,
                       2 * kt + 1, 3 * kt + 17, uint64_t(70001)}) {
      INFO("keys alone on tiles of " << kt << " descending=" << descending << " n=" << n);
      check_sort(rt, keys, special_keys<uint32_t>(n, uint32_t(n) + descending), kc);
      check_sort(rt, fkeys, special_keys<float>(n, uint32_t(n) + 2), kc);
      check_sort(rt, okeys, special_keys<uint32_t>(n, uint32_t(n) + 5 + descending), oc);
      check_sort(rt, ofkeys, special_keys<float>(n, uint32_t(n) + 7), oc);
    }
    Case ostall = oc;
    ostall.stall_period = 3;
    ostall.spin_limit = 2;
    auto ostalled = make_sort<uint32_t>(rt, ostall);
    for (uint64_t n : {kt + round + 1, 5 * kt + 3}) {
      INFO("keys alone by onesweep on tiles of " << kt << ", tiles stalled, n=" << n);
      check_sort(rt, ostalled, special_keys<uint32_t>(n, 13), ostall);
    }
    for (uint32_t vb : {4u, 8u}) {
      Case pc = kc;
      pc.value_bytes = vb;
      pc.algorithm = SortAlgorithm::onesweep;
      auto pairs = make_sort<uint32_t>(rt, pc);
      const uint64_t pt = pairs.tile_keys(from, true);
      CHECK((pt == pairs_large || (!nvidia_pairs && pt == pairs.tile_keys(from - 1, true))));  // lavapipe: does not fit
      for (uint64_t n : {from - 1, pt - 1, pt, pt + 1, 2 * pt + 1, 3 * pt + 17, uint64_t(70001)}) {
        INFO("pairs on tiles of " << pt << " value_bytes=" << vb << " descending=" << descending << " n=" << n);
        check_sort(rt, pairs, special_keys<uint32_t>(n, uint32_t(n) + vb), pc);
      }
      Case stall = pc;
      stall.stall_period = 3;
      stall.spin_limit = 2;
      auto stalled = make_sort<uint32_t>(rt, stall);
      INFO("pairs on tiles of " << pt << ", tiles stalled");
      check_sort(rt, stalled, special_keys<uint32_t>(5 * pt + 3, 11), stall);
    }
  }
}

TEST_CASE("radix sort with the count in a GPU buffer", "[sort][device-count]") {
  // Both algorithms, and reduce-then-scan's passes with 64-bit offsets (sorts of 2^32 keys).
  auto& rt = test::gpu();
  for (int variant = 0; variant < 3; ++variant) {
    Case c;
    c.value_bytes = 4;
    c.algorithm = variant == 1 ? SortAlgorithm::onesweep : SortAlgorithm::reduce_then_scan;
    c.wide = variant == 2;
    INFO(name(c.algorithm) << (c.wide ? ", 64-bit offsets" : ""));
    auto sort = make_sort<int32_t>(rt, c);
    const uint64_t max = 3 * pairs_tile() + 11;
    auto keys = test::random_values<int32_t>(max, 12);
    std::vector<uint32_t> idx(max);
    std::iota(idx.begin(), idx.end(), 0u);
    auto kin = rt.upload(keys).value();
    auto vin = rt.upload(idx).value();
    auto temp = rt.alloc(sort.temp_bytes(max)).value();
    for (uint32_t n : {0u, 1u, uint32_t(pairs_tile()) + 1, uint32_t(max)}) for (ValueType ct : {ValueType::u32, ValueType::u64}) {
      INFO("n=" << n << " of max " << max << ", count as " << to_string(ct));
      Buffer count = test::device_count(rt, n, ct);
      Buffer kout = test::poisoned(rt, max * 4), vout = test::poisoned(rt, max * 4);
      rt.submit([&](VkCommandBuffer cmd) {
          return sort.sort_pairs(cmd, kin, vin, kout, vout, Count::on_device(count, max, ct), temp);
        }).value();
      auto gk = rt.download<int32_t>(kout, max).value();
      auto gv = rt.download<uint32_t>(vout, max).value();
      const auto order = reference_order(std::vector<int32_t>(keys.begin(), keys.begin() + n), false, 0, 32);
      for (uint32_t i = 0; i < n; ++i) {
        REQUIRE(gv[i] == order[i]);
        REQUIRE(gk[i] == keys[order[i]]);
      }
      for (uint64_t i = n; i < max; ++i) REQUIRE(gv[i] == 0xDEADBEEFu);
    }
  }
}

TEST_CASE("radix sort's upfront pass in several dispatches", "[sort][chunked]") {
  // A runtime whose dispatches cover at most 1000 keys: the upfront count of the varying bits
  // (and onesweep's digit counts) runs in chunks that must all count. The high bits vary only
  // among the first chunk's keys, so a chunk left out would skip the passes over them.
  auto& rt = test::gpu_chunked();
  for (int variant = 0; variant < 3; ++variant) {  // reduce-then-scan, its 64-bit offsets, onesweep
    const bool wide = variant == 1;
    for (uint32_t vb : {0u, 4u}) {
      Case c;
      c.wide = wide;
      c.value_bytes = vb;
      if (variant == 2) c.algorithm = SortAlgorithm::onesweep;
      auto sort = make_sort<uint32_t>(rt, c);
      auto keys = special_keys<uint32_t>(50001, 21);
      for (size_t i = 1000; i < keys.size(); ++i) keys[i] &= 0xFFFFu;
      INFO("wide=" << wide << " value_bytes=" << vb << " " << name(c.algorithm));
      check_sort(rt, sort, keys, c);
      // The count on the GPU, its max 2500 past it (keys the sort must not see: zeros, which
      // onesweep's digit counts would place before every other key): each upfront chunk takes
      // its part of it.
      const uint64_t n = keys.size(), max = n + 2500;
      auto padded = keys;
      padded.resize(max, 0u);
      std::vector<uint32_t> idx(max);
      std::iota(idx.begin(), idx.end(), 0u);
      auto kin = rt.upload(padded).value(), vin = rt.upload(idx).value();
      auto temp = rt.alloc(sort.temp_bytes(max)).value();
      const auto order = reference_order(keys, false, 0, 32);
      for (ValueType ct : {ValueType::u32, ValueType::u64}) {
        INFO("count on the GPU as " << to_string(ct));
        Buffer cnt = test::device_count(rt, n, ct);
        Buffer kout = test::poisoned(rt, max * 4), vout = test::poisoned(rt, max * 4);
        rt.submit([&](VkCommandBuffer cmd) {
            const Count count = Count::on_device(cnt, max, ct);
            return vb ? sort.sort_pairs(cmd, kin, vin, kout, vout, count, temp) : sort.sort_keys(cmd, kin, kout, count, temp);
          }).value();
        auto gk = rt.download<uint32_t>(kout, max).value();
        auto gv = rt.download<uint32_t>(vout, max).value();
        for (uint64_t i = 0; i < n; ++i) {
          REQUIRE(gk[i] == keys[order[i]]);
          if (vb) REQUIRE(gv[i] == order[i]);
        }
        for (uint64_t i = n; i < max; ++i) REQUIRE(gk[i] == 0xDEADBEEFu);
      }
    }
  }
}

TEST_CASE("radix sort uses reserved storage and refuses broken contracts", "[sort][errors]") {
  auto& rt = test::gpu();
  auto sort = RadixSort::create(rt.context(), ValueType::u32).value();
  const uint64_t n = 1000;
  auto keys = test::random_values<uint32_t>(n, 1);
  auto in = rt.upload(keys).value();
  Buffer out = test::poisoned(rt, n * 4);
  auto run = [&](auto&& f) { return rt.submit([&](VkCommandBuffer cmd) { return f(cmd); }); };
  auto err = run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out, n); });
  REQUIRE(!err);
  CHECK(err.error().code == Errc::invalid_argument);  // no temp, nothing reserved
  REQUIRE(sort.reserve(n));
  run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out, n); }).value();
  auto got = rt.download<uint32_t>(out, n).value();
  std::sort(keys.begin(), keys.end());
  CHECK(got == keys);

  CHECK(run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out, n, {}, 4, 40); }).error().code == Errc::invalid_argument);
  CHECK(run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out, n, {}, 9, 8); }).error().code == Errc::invalid_argument);
  CHECK(run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, in, n); }).error().code == Errc::invalid_argument);
  CHECK(run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out.view().sub(0, 400), n); }).error().code == Errc::invalid_argument);
  CHECK(run([&](VkCommandBuffer cmd) { return sort.sort_pairs(cmd, in, in, out, out, n); }).error().code == Errc::invalid_argument);
  // 2^33 keys: past the device's buffers (lavapipe: limit_exceeded), or, where 2^32 keys fit a
  // buffer, taken by the 64-bit offset passes and refused for the views that are too small.
  const bool big = rt.caps().max_buffer_size == 0 || rt.caps().max_buffer_size / 4 > 0xFFFFFFFFull;
  auto past = run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out, uint64_t(1) << 33); });
  REQUIRE(!past);
  CHECK(past.error().code == (big ? Errc::invalid_argument : Errc::limit_exceeded));
  CHECK_THAT(past.error().message, Catch::Contains(big ? "keys_in holds" : "buffers stop at"));
  // 2^36 keys: more than a digit pass's u32 counts per stripe hold, on any device.
  CHECK(run([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, in, out, uint64_t(1) << 36); }).error().code == Errc::limit_exceeded);
  // A u64 count on the GPU whose max passes 2^32 - 1: taken like a host count of its max (here
  // refused for the buffers or the views that are too small).
  Buffer cnt = test::device_count(rt, 5, ValueType::u64);
  auto wide = run([&](VkCommandBuffer cmd) {
    return sort.sort_keys(cmd, in, out, Count::on_device(cnt, uint64_t(1) << 33, ValueType::u64));
  });
  REQUIRE(!wide);
  CHECK(wide.error().code == (big ? Errc::invalid_argument : Errc::limit_exceeded));
  CHECK_THAT(wide.error().message, Catch::Contains(big ? "keys_in holds" : "buffers stop at"));
  SortOptions bad;
  bad.value_bytes = 2;
  CHECK(RadixSort::create(rt.context(), ValueType::u32, bad).error().code == Errc::invalid_argument);
}

namespace {

// The bits of [begin, end) in which keys[0, m) differ after the key transformation: CPU twin of
// radix_histogram.comp's varying words (OR(t) & OR(~t)).
template <class K>
auto varying_bits(const std::vector<K>& keys, uint32_t m, bool descending, uint32_t begin, uint32_t end) {
  using U = decltype(ordered_bits(K{}, false));
  U ones = 0, zeros = 0;
  for (uint32_t i = 0; i < m; ++i) {
    ones |= ordered_bits(keys[i], descending);
    zeros |= U(~ordered_bits(keys[i], descending));
  }
  const uint32_t width = end - begin;
  const U window = (width >= sizeof(U) * 8 ? ~U(0) : (U(1) << width) - 1) << begin;
  return U(ones & zeros & window);
}

// Sorts keys[0, m) as pairs (values: the index) with the count in a GPU buffer of keys.size()
// keys, against std::stable_sort, and reads the sort's decisions back from its temporary storage
// (poisoned first; where they are: detail::SortInternals::layout):
// - the varying words must give `want`, the window's bits in which keys[0, m) differ (the CPU
//   twin must agree: the keys are what the caller meant);
// - with one digit pass, whether it ran as a copy, which it must exactly when want is 0: a
//   trivial reduce-then-scan upsweep writes no tile prefixes, so tile 0's second prefix word
//   keeps the poison (else two 16-bit counts of at most a tile each); a trivial onesweep pass
//   publishes nothing, so tile 0's first look-back word (zeroed up front) stays zero.
template <class K, class U>
void check_trivial(Runtime& rt, const RadixSort& sort, const std::vector<K>& keys, uint32_t m, const Case& c, U want) {
  const uint64_t max = keys.size();
  const uint32_t end = c.end ? c.end : uint32_t(sizeof(K) * 8);
  INFO(name(c.algorithm) << " " << to_string(value_type_of<K>()) << " m=" << m << " of " << max << " bits [" << c.begin
                         << ", " << end << ") descending=" << c.descending);
  REQUIRE(varying_bits(keys, m, c.descending, c.begin, end) == want);
  std::vector<uint32_t> idx(max);
  std::iota(idx.begin(), idx.end(), 0u);
  auto kin = rt.upload(keys).value();
  auto vin = rt.upload(idx).value();
  auto count = rt.upload(std::vector<uint32_t>{m}).value();
  Buffer kout = test::poisoned(rt, max * sizeof(K)), vout = test::poisoned(rt, max * 4);
  Buffer temp = test::poisoned(rt, sort.temp_bytes(max));
  rt.submit([&](VkCommandBuffer cmd) {
      return sort.sort_pairs(cmd, kin, vin, kout, vout, Count::on_device(count, max), temp, c.begin, c.end);
    }).value();
  const auto order = reference_order(std::vector<K>(keys.begin(), keys.begin() + m), c.descending, c.begin, end);
  auto gk = rt.download<K>(kout, max).value();
  auto gv = rt.download<uint32_t>(vout, max).value();
  for (uint32_t i = 0; i < m; ++i)
    if (gv[i] != order[i] || !same_bits(gk[i], keys[order[i]]))
      FAIL("element " << i << ": value " << gv[i] << ", want " << order[i]);
  for (uint64_t i = m; i < max; ++i) REQUIRE(gv[i] == 0xDEADBEEFu);

  const bool onesweep = sort.algorithm(max, true) == SortAlgorithm::onesweep;
  const detail::RadixTempLayout at = detail::SortInternals::layout(sort, max, true);
  auto w = rt.download<uint32_t>(temp.view().sub(at.varying, 16), 4).value();
  U got;
  if constexpr (sizeof(U) == 4) got = w[0] & w[1];
  else got = (w[0] | uint64_t(w[1]) << 32) & (w[2] | uint64_t(w[3]) << 32);
  const uint32_t width = end - c.begin;
  const U window = (width >= sizeof(U) * 8 ? ~U(0) : (U(1) << width) - 1) << c.begin;
  CHECK((got & window) == want);
  if (width <= 8) {
    const uint64_t word_at = onesweep ? at.state0 + detail::kRadixOnesweepHeaderWords * 4 : at.prefix + 4;
    const uint32_t word = rt.download<uint32_t>(temp.view().sub(word_at, 4), 1).value()[0];
    const bool copied = onesweep ? word == 0 : word == 0xDEADBEEFu;
    INFO("decision word " << word);
    CHECK(copied == (want == 0));
  }
}

}  // namespace

TEST_CASE("reduce-then-scan's offsets pass scans the group counts by rows and chunks", "[sort][offsets]") {
  // radix_offsets.comp alone: 256 rows of `groups` counts (digit-major) into their exclusive
  // scan, starting each workgroup from the striped digit counts. Row counts that put many rows
  // in one workgroup (1, 3, 100), one row filling a chunk exactly (the workgroup's tile) or one
  // count past it, and rows of several chunks; outputs poisoned first, nothing past them written.
  // Also its RADIX_WIDE build (u64 offsets, sorts of 2^32 keys), with counts of up to 2^20 (a
  // chunk's still sum below 2^32, a stripe's digit counts too) so that the offsets pass 2^32.
  auto& rt = test::gpu();
  for (bool wide : {false, true}) {
    for (bool subgroup : {true, false}) {
      Case c;
      c.algorithm = SortAlgorithm::reduce_then_scan;
      c.subgroup = subgroup;
      c.wide = wide;
      auto sort = make_sort<uint32_t>(rt, c);
      for (uint32_t groups : {1u, 3u, 100u, 4095u, 4096u, 4097u, 9000u}) {
        INFO("wide " << wide << ", subgroup " << subgroup << ", groups " << groups);
        const uint64_t words = 256 * uint64_t(groups);
        std::vector<uint32_t> totals = test::random_values<uint32_t>(words, groups + wide);
        for (auto& t : totals) t &= wide ? 0xFFFFFu : 0xFFu;
        const uint32_t stripes = detail::tuning::kRadixCountStripes;
        std::vector<uint32_t> digits(stripes * 256, 0);
        for (uint32_t d = 0; d < 256; ++d)
          for (uint32_t g = 0; g < groups; ++g) digits[(g % stripes) * 256 + d] += totals[d * uint64_t(groups) + g];
        auto tb = rt.upload(totals).value();
        auto db = rt.upload(digits).value();
        const uint32_t ob = wide ? 8 : 4;
        Buffer out = test::poisoned(rt, (words + 7) * ob);
        rt.submit([&](VkCommandBuffer cmd) {
            return detail::SortInternals::record_offsets(sort, cmd, tb, db, out, groups, wide);
          }).value();
        std::vector<uint64_t> got;
        if (wide) {
          got = rt.download<uint64_t>(out, words + 7).value();
        } else {
          auto g32 = rt.download<uint32_t>(out, words + 7).value();
          got.assign(g32.begin(), g32.end());
        }
        uint64_t sum = 0;
        for (uint64_t i = 0; i < words; ++i) {
          if (got[i] != sum) FAIL("offset " << i << " (digit " << i / groups << "): " << got[i] << ", want " << sum);
          sum += totals[i];
        }
        if (wide && groups >= 4096) CHECK(sum > 0xFFFFFFFFull);
        const uint64_t poison = wide ? 0xDEADBEEFDEADBEEFull : 0xDEADBEEFull;
        for (uint64_t i = words; i < words + 7; ++i) REQUIRE(got[i] == poison);
      }
    }
  }
}

TEST_CASE("radix sort copies the passes whose digit bits do not vary", "[sort][trivial]") {
  // Trivial passes are found from the bits in which the transformed keys differ: checked on the
  // decisions themselves (check_trivial) and on the sorted output, for keys whose differing bits
  // lie outside a pass, in one key only (first or last), beyond a count read from the GPU, or
  // only after the float transformation; for one and for zero keys; 32- and 64-bit keys.
  auto& rt = test::gpu();
  const uint32_t max = 2 * pairs_tile() + 9;
  for (SortAlgorithm alg : kAlgorithms) {
    Case c;
    c.value_bytes = 4;
    c.algorithm = alg;
    auto sort = make_sort<uint32_t>(rt, c);
    // One pass over the top byte: constant in the first tile and 3 keys, not in the rest.
    auto keys = test::random_values<uint32_t>(max, 31);
    for (uint32_t i = 0; i < pairs_tile() + 3; ++i) keys[i] = (keys[i] & 0x00FFFFFFu) | 0x7F000000u;
    Case top = c;
    top.begin = 24;
    check_trivial(rt, sort, keys, pairs_tile() + 3, top, 0u);
    check_trivial(rt, sort, keys, 1, top, 0u);
    check_trivial(rt, sort, keys, 0, top, 0u);
    check_trivial(rt, sort, keys, max, top, 0xFF000000u);
    // Full keys: the first tile and 3 keys have three passes that vary and one trivial last pass; a
    // window of two passes whose bits never vary in them (a copy: input order).
    check_trivial(rt, sort, keys, pairs_tile() + 3, c, 0x00FFFFFFu);
    std::vector<uint32_t> low(max);
    for (uint32_t i = 0; i < max; ++i) low[i] = 0xC3A50000u | (test::hash32(i, 32) & 0xFFFFu);
    Case high = c;
    high.begin = 16;
    check_trivial(rt, sort, low, max, high, 0u);
    // Every key equal but one, which differs in one bit of the top digit: the last key (in the
    // last, partial tile) or, descending, the first.
    std::vector<uint32_t> one(max, 0x12345678u);
    one[max - 1] ^= 0x80000000u;
    check_trivial(rt, sort, one, max, c, 0x80000000u);
    Case desc = c;
    desc.descending = true;
    auto dsort = make_sort<uint32_t>(rt, desc);
    one[max - 1] = 0x12345678u;
    one[0] ^= 0x01000000u;
    check_trivial(rt, dsort, one, max, desc, 0x01000000u);
    // Floats whose low bytes are zero: the transformation inverts the negatives', so the pass
    // over [0, 8) is not trivial (and sorts the positives first).
    auto fsort = make_sort<float>(rt, c);
    std::vector<float> f(max);
    for (uint32_t i = 0; i < max; ++i) f[i] = float(int(test::hash32(i, 33) % 9) - 4);
    Case lowbyte = c;
    lowbyte.end = 8;
    check_trivial(rt, fsort, f, max, lowbyte, 0xFFu);
    // 64-bit keys: one pass over the top byte, constant, then not (in the last key); all bits
    // equal but bit 32 of one key; a window over the constant high word.
    auto ksort = make_sort<uint64_t>(rt, c);
    auto wide = test::random_values<uint64_t>(max, 34);
    for (auto& k : wide) k = (k & 0x00FFFFFFFFFFFFFFull) | 0x5A00000000000000ull;
    Case top64 = c;
    top64.begin = 56;
    check_trivial(rt, ksort, wide, max, top64, uint64_t(0));
    wide[max - 1] ^= uint64_t(1) << 56;
    check_trivial(rt, ksort, wide, max, top64, uint64_t(1) << 56);
    std::vector<uint64_t> bit32(max, 0x0123456789ABCDEFull);
    bit32[pairs_tile()] ^= uint64_t(1) << 32;
    check_trivial(rt, ksort, bit32, max, c, uint64_t(1) << 32);
    for (uint32_t i = 0; i < max; ++i) wide[i] = 0xFEDCBA9800000000ull | test::hash32(i, 35);
    Case hi64 = c;
    hi64.begin = 32;
    check_trivial(rt, ksort, wide, max, hi64, uint64_t(0));
  }
}

TEST_CASE("radix sort finds the varying bits when workgroups take several tiles", "[sort][trivial]") {
  // The upfront pass visits tiles of tuning::kRadixHistogramTile keys grid-stride with
  // tuning::kRadixHistogramInvocations invocations in all: a grid of 512 to 2048 workgroups (of
  // 1024 down to 256 invocations), each a divisor of 2048, so workgroup 0 takes tile 2048 too.
  // Keys with random low bits and top byte 0x7F, but for key 0 (0x7E: bit 24 differs) and the
  // first key of tile 2048 (0x00: bits 24-30), both read by invocation 0 of workgroup 0, in its
  // first tile and in a later one:
  // over the window [24, 32) bits 24-30 vary, so the bits-only pass may not stop reading before
  // every bit of the window varies among an invocation's keys. One pass: the expected order is
  // written out (the last key, key 0, the 0x7F keys in input order), as std::stable_sort of
  // 2^23 keys is slow in a debug build.
  auto& rt = test::gpu();
  const uint64_t tiles = detail::tuning::kRadixHistogramInvocations / 256;
  const uint32_t n = uint32_t(tiles * detail::tuning::kRadixHistogramTile + 1);
  std::vector<uint32_t> keys(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = 0x7F000000u | (test::hash32(i, 36) & 0x00FFFFFFu);
  keys[0] ^= 0x01000000u;
  keys[n - 1] &= 0x00FFFFFFu;
  std::vector<uint32_t> want(keys);
  std::rotate(want.begin(), want.end() - 1, want.end());  // by top byte, stable: 00, 7E, 7F...
  auto kin = rt.upload(keys).value();
  Case c;  // reduce-then-scan: the bits-only pass, the one that stops early
  c.begin = 24;
  auto sort = make_sort<uint32_t>(rt, c);
  Buffer kout = test::poisoned(rt, n * 4);
  Buffer temp = test::poisoned(rt, sort.temp_bytes(n));
  rt.submit([&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, kin, kout, n, temp, 24, 32); }).value();
  auto got = rt.download<uint32_t>(kout, n).value();
  for (uint32_t i = 0; i < n; ++i)
    if (got[i] != want[i]) FAIL("key " << i << ": got " << got[i] << ", want " << want[i]);
  auto w = rt.download<uint32_t>(temp.view().sub(0, 8), 2).value();  // the varying words (check_trivial)
  CHECK((w[0] & w[1] & 0xFF000000u) == 0x7F000000u);
}

// Past 4 GiB: 2^30 + 1003 u32 keys with u32 values (their input positions), sorted by the
// automatic algorithm; scattered outputs whose byte offsets need more than 32 bits. Checked in
// O(n) instead of against a CPU sort: keys ascending, values a permutation, every key the one at
// its value's position, equal keys in input order.
// More than 2^32 keys (2^32 + 1003 u32, 16 GiB): the wide passes. Keys i * 2654435761 mod 2^32
// for i < 2^32 (every u32 once: the multiplier is odd), then 0, 1, ..., 1002 again, so the
// sorted output is known: 0, 0, 1, 1, ..., 1002, 1002, 1003, 1004, ..., 2^32 - 1.
TEST_CASE("radix sort of more than 2^32 keys", "[sort][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 32) + 1003;
  auto sort = RadixSort::create(rt.context(), ValueType::u32).value();
  if (!test::can_hold(rt, n * 4 + 64, 2) || !test::can_hold(rt, sort.temp_bytes(n))) return;
  std::vector<uint32_t> x(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = i < (uint64_t(1) << 32) ? uint32_t(i * 2654435761ull) : uint32_t(i);
  auto kin = rt.upload(x).value();
  x = {};  // 16 GiB of host memory back before the downloads
  Buffer kout = test::poisoned(rt, n * 4 + 64);
  auto temp = rt.alloc(sort.temp_bytes(n)).value();
  // With the count on the host, then as a u64 on the GPU (the same n).
  Buffer cnt = test::device_count(rt, n, ValueType::u64);
  for (const bool gpu_count : {false, true}) {
    INFO((gpu_count ? "count on the GPU" : "count on the host"));
    if (gpu_count) test::poison(rt, kout, n * 4 + 64);
    rt.submit([&](VkCommandBuffer cmd) {
        return sort.sort_keys(cmd, kin, kout, gpu_count ? Count::on_device(cnt, n, ValueType::u64) : Count(n), temp);
      }).value();
    auto got = rt.download<uint32_t>(kout, n + 16).value();
    uint64_t wrong = 0;
    for (uint64_t k = 0; k < n; ++k) {
      const uint64_t want = k < 2 * 1003 ? k / 2 : k - 1003;
      wrong += got[k] != want;
    }
    CHECK(wrong == 0);
    for (uint64_t k = n; k < n + 16; ++k) CHECK(got[k] == 0xDEADBEEFu);
  }
}

TEST_CASE("radix sort pairs past 4 GiB", "[sort][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 30) + 1003;
  SortOptions o;
  o.value_bytes = 4;
  auto sort = RadixSort::create(rt.context(), ValueType::u32, o).value();
  if (!test::can_hold(rt, n * 4 + 64, 4) || !test::can_hold(rt, sort.temp_bytes(n))) return;
  auto keys = test::random_values<uint32_t>(n, 51);
  for (uint64_t i = 0; i < n; i += 3) keys[i] &= 0xFFFFu;  // many equal keys
  std::vector<uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  auto kin = rt.upload(keys).value(), vin = rt.upload(values).value();
  values = {};
  Buffer kout = test::poisoned(rt, n * 4 + 64), vout = test::poisoned(rt, n * 4 + 64);
  auto temp = rt.alloc(sort.temp_bytes(n)).value();
  rt.submit([&](VkCommandBuffer cmd) { return sort.sort_pairs(cmd, kin, vin, kout, vout, n, temp); }).value();
  auto k = rt.download<uint32_t>(kout, n + 16).value(), v = rt.download<uint32_t>(vout, n + 16).value();
  std::vector<bool> seen(n);
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const bool ok = v[i] < n && !seen[v[i]] && k[i] == keys[v[i]] &&
                    (i == 0 || k[i - 1] < k[i] || (k[i - 1] == k[i] && v[i - 1] < v[i]));
    if (v[i] < n) seen[v[i]] = true;
    wrong += !ok;
  }
  CHECK(wrong == 0);
  for (uint64_t i = n; i < n + 16; ++i) CHECK((k[i] == 0xDEADBEEFu && v[i] == 0xDEADBEEFu));
}

// A refused call records nothing: sorts refused by the last of their checks (short temporary
// storage; for keys alone, with both algorithms, outputs overlapping the inputs), each alone
// in its command buffer, which is then submitted, leave the outputs' and the temporary
// storage's poison.
TEST_CASE("radix sorts refused by their last check record nothing", "[sort][refused]") {
  auto& rt = test::gpu();
  const uint64_t n = 2 * pairs_tile() + 3;
  SortOptions o;
  o.value_bytes = 4;
  auto keys = rt.upload(test::random_values<uint32_t>(n, 21)).value();
  auto values = rt.upload(test::random_values<uint32_t>(n, 22)).value();
  for (SortAlgorithm algo : {SortAlgorithm::reduce_then_scan, SortAlgorithm::onesweep}) {
    o.algorithm = algo;
    auto sort = RadixSort::create(rt.context(), ValueType::u32, o).value();
    const uint64_t temp_bytes = sort.temp_bytes(n);
    Buffer keys_out = test::poisoned(rt, (n + 1) * 4);
    Buffer values_out = test::poisoned(rt, n * 4);
    Buffer temp = test::poisoned(rt, temp_bytes);
    DYNAMIC_SECTION("algorithm " << int(algo) << ": pairs, temporary storage 16 bytes short") {
      auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
        return sort.sort_pairs(cmd, keys, values, keys_out, values_out, n, temp.view().sub(0, temp_bytes - 16));
      });
      CHECK(st.error().code == Errc::invalid_argument);
      CHECK_THAT(st.error().message, Catch::Contains("temporary storage"));
    }
    DYNAMIC_SECTION("algorithm " << int(algo) << ": keys, the output overlapping the input") {
      auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
        return sort.sort_keys(cmd, keys_out.view().sub(0, n * 4), keys_out.view().sub(4, n * 4), n, temp);
      });
      CHECK(st.error().code == Errc::invalid_argument);
      CHECK_THAT(st.error().message, Catch::Contains("overlap"));
    }
    CHECK(test::still_poisoned(rt, keys_out, (n + 1) * 4));
    CHECK(test::still_poisoned(rt, values_out, n * 4));
    CHECK(test::still_poisoned(rt, temp, temp_bytes));
  }
}
