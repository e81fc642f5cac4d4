// Compaction against CPU references (std::copy_if, std::stable_partition, std::unique, a serial
// reduce-by-key, std::exclusive_scan): none, all and half selected, awkward sizes, predicates on
// every type, counts read from and written to GPU buffers; outputs poisoned first.
#include "gpu.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

using namespace vkprim;

namespace {

// tuning: the compaction tile (select_upsweep, select_scatter, select_tiles without subgroups),
// and select_tiles' tile for 4-byte elements in the subgroup layer (select_single_pass_items).
constexpr uint64_t kTile = 256 * 16;
constexpr uint64_t kTileSg32 = 256 * 32;

// The single pass's tile for 4-byte elements in the layer a test asks for: the subgroup layer is
// taken where the device has arithmetic and ballot subgroup operations (as the plan decides).
uint64_t single_tile32(Runtime& rt, bool sg) {
  const VkSubgroupFeatureFlags need = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;
  return sg && (rt.caps().subgroup_ops & need) == need ? kTileSg32 : kTile;
}

template <class T>
bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <class T>
void require_equal_bits(const std::vector<T>& got, const std::vector<T>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i)
    if (!same_bits(got[i], want[i])) FAIL("element " << i << ": got " << got[i] << ", want " << want[i]);
}

uint64_t read_count(Runtime& rt, const Buffer& b, bool u64) {
  if (u64) return rt.download<uint64_t>(b, 1).value()[0];
  return rt.download<uint32_t>(b, 1).value()[0];
}

// Runs a Select call; checks count_out, out[0, k) (and out[k, n) for partitions) and that the
// poison past what may be written survived.
template <class T, class F>
void check_select(Runtime& rt, const std::vector<T>& x, const std::vector<T>& want, bool count_u64,
                  F&& call) {
  const uint64_t n = x.size();
  auto in = rt.upload(x.empty() ? std::vector<T>(1) : x).value();
  Buffer out = test::poisoned(rt, (n + 8) * sizeof(T));
  Buffer count = test::poisoned(rt, 16);
  rt.submit([&](VkCommandBuffer cmd) { return call(cmd, in.view(), out.view(), count.view(), n); }).value();
  REQUIRE(read_count(rt, count, count_u64) == want.size());
  auto got = rt.download<T>(out, want.size()).value();
  require_equal_bits(got, want);
  auto tail = rt.download<uint32_t>(out.view().sub(want.size() * sizeof(T), 8 * sizeof(T)), 2 * sizeof(T)).value();
  for (auto w : tail) REQUIRE(w == 0xDEADBEEFu);
  if (count_u64 == false) REQUIRE(rt.download<uint32_t>(count.view().sub(4, 4), 1).value()[0] == 0xDEADBEEFu);
}

}  // namespace

TEST_CASE("select by flags: none, all, half, awkward sizes", "[select]") {
  auto& rt = test::gpu();
  for (bool sg : {true, false}) {
    for (bool u64 : {false, true}) {
      SelectOptions o;
      o.use_subgroup_ops = sg;
      o.count_u64 = u64;
      auto sel = Select::create(rt.context(), ValueType::u32, o).value();
      const uint64_t tile = single_tile32(rt, sg);
      for (uint64_t n : {uint64_t(0), uint64_t(1), tile - 1, tile, tile + 1, 3 * tile + 17, uint64_t(100003)}) {
        auto x = test::random_values<uint32_t>(n, uint32_t(n));
        for (int pattern : {0, 1, 2}) {  // none, all, about half
          INFO("subgroup=" << sg << " count_u64=" << u64 << " n=" << n << " pattern=" << pattern);
          std::vector<uint32_t> flags(n);
          for (uint64_t i = 0; i < n; ++i) flags[i] = pattern == 0 ? 0u : pattern == 1 ? 7u : test::hash32(i, 9) & 1u;
          std::vector<uint32_t> want;
          for (uint64_t i = 0; i < n; ++i)
            if (flags[i]) want.push_back(x[i]);
          auto fb = rt.upload(flags.empty() ? std::vector<uint32_t>(1) : flags).value();
          auto temp = rt.alloc(sel.temp_bytes(n)).value();
          check_select(rt, x, want, u64, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
            return sel.flagged(cmd, in, fb, out, count, m, temp);
          });
        }
      }
    }
  }
}

TEST_CASE("select from inputs and flags that are not 16-byte aligned", "[select]") {
  // Full tiles move 16 bytes per access only from aligned addresses; views one element in take
  // the element-by-element loads on every tile.
  auto& rt = test::gpu();
  for (bool sg : {true, false}) {
    SelectOptions o;
    o.use_subgroup_ops = sg;
    const uint64_t n = 3 * single_tile32(rt, sg) + 5;
    INFO("subgroup=" << sg << " n=" << n);
    auto sel32 = Select::create(rt.context(), ValueType::u32, o).value();
    auto x = test::random_values<uint32_t>(n + 1, 7);
    std::vector<uint32_t> flags(n + 1);
    for (uint64_t i = 0; i <= n; ++i) flags[i] = test::hash32(i, 3) & 1u;
    std::vector<uint32_t> want;
    for (uint64_t i = 1; i <= n; ++i)
      if (flags[i]) want.push_back(x[i]);
    auto in = rt.upload(x).value();
    auto fb = rt.upload(flags).value();
    Buffer out = test::poisoned(rt, (n + 8) * 4);
    Buffer count = test::poisoned(rt, 16);
    auto temp = rt.alloc(sel32.temp_bytes(n)).value();
    rt.submit([&](VkCommandBuffer cmd) {
        return sel32.flagged(cmd, in.view().sub(4, n * 4), fb.view().sub(4, n * 4), out, count, n, temp);
      }).value();
    REQUIRE(read_count(rt, count, false) == want.size());
    require_equal_bits(rt.download<uint32_t>(out, want.size()).value(), want);

    auto sel64 = Select::create(rt.context(), ValueType::u64, o).value();
    auto y = test::random_values<uint64_t>(n + 1, 8);
    std::vector<uint64_t> want64;
    std::copy_if(y.begin() + 1, y.end(), std::back_inserter(want64), [](uint64_t v) { return (v & 1u) == 0; });
    auto in64 = rt.upload(y).value();
    Buffer out64 = test::poisoned(rt, (n + 8) * 8);
    auto temp64 = rt.alloc(sel64.temp_bytes(n)).value();
    rt.submit([&](VkCommandBuffer cmd) {
        return sel64.predicated(cmd, in64.view().sub(8, n * 8), Predicate::mask_equal(uint64_t(1), uint64_t(0)),
                                out64, count, n, temp64);
      }).value();
    REQUIRE(read_count(rt, count, false) == want64.size());
    require_equal_bits(rt.download<uint64_t>(out64, want64.size()).value(), want64);
  }
}

TEST_CASE("select by predicate on every type", "[select]") {
  auto& rt = test::gpu();
  const uint64_t n = 2 * kTileSg32 + 333;  // two whole tiles and a partial one in any layer
  {  // CUB's anchor: (x & 1) == 0 over u32
    auto sel = Select::create(rt.context(), ValueType::u32).value();
    auto x = test::random_values<uint32_t>(n, 1);
    std::vector<uint32_t> want;
    std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](uint32_t v) { return (v & 1u) == 0; });
    auto temp = rt.alloc(sel.temp_bytes(n)).value();
    check_select(rt, x, want, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.predicated(cmd, in, Predicate::mask_equal(1u, 0u), out, count, m, temp);
    });
  }
  {  // f32 with NaNs and signed zeros: x < 0.5 (NaN never selected; -0.0 kept bit for bit)
    auto sel = Select::create(rt.context(), ValueType::f32).value();
    auto x = test::random_values<float>(n, 2);
    for (uint64_t i = 0; i < n; i += 17) x[i] = std::numeric_limits<float>::quiet_NaN();
    for (uint64_t i = 5; i < n; i += 23) x[i] = -0.0f;
    std::vector<float> want;
    std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](float v) { return v < 0.5f; });
    auto temp = rt.alloc(sel.temp_bytes(n)).value();
    check_select(rt, x, want, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.predicated(cmd, in, Predicate::less(0.5f), out, count, m, temp);
    });
    std::vector<float> ne;
    std::copy_if(x.begin(), x.end(), std::back_inserter(ne), [](float v) { return v != 1.0f; });
    check_select(rt, x, ne, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.predicated(cmd, in, Predicate::not_equal(1.0f), out, count, m, temp);
    });
  }
  {  // i64 in [-1000, 1000), f64 >= 0, i32 <= -5, u64 == some value
    auto x = test::random_values<int64_t>(n, 3);
    for (uint64_t i = 0; i < n; ++i) x[i] %= 3000;
    auto sel = Select::create(rt.context(), ValueType::i64).value();
    std::vector<int64_t> want;
    std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](int64_t v) { return -1000 <= v && v < 1000; });
    auto temp = rt.alloc(sel.temp_bytes(n)).value();
    check_select(rt, x, want, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.predicated(cmd, in, Predicate::in_range(int64_t(-1000), int64_t(1000)), out, count, m, temp);
    });
  }
  if (rt.caps().shader_float64) {
    auto x = test::random_values<double>(n, 4);
    auto sel = Select::create(rt.context(), ValueType::f64).value();
    std::vector<double> want;
    std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](double v) { return v >= 0.0; });
    auto temp = rt.alloc(sel.temp_bytes(n)).value();
    check_select(rt, x, want, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.predicated(cmd, in, Predicate::greater_equal(0.0), out, count, m, temp);
    });
  }
  {
    auto x = test::random_values<int32_t>(n, 5);
    auto sel = Select::create(rt.context(), ValueType::i32).value();
    std::vector<int32_t> want;
    std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](int32_t v) { return v <= -5; });
    auto temp = rt.alloc(sel.temp_bytes(n)).value();
    check_select(rt, x, want, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.predicated(cmd, in, Predicate::less_equal(int32_t(-5)), out, count, m, temp);
    });
    // A predicate of another type is refused before anything is recorded.
    auto bad = rt.submit([&](VkCommandBuffer cmd) { return sel.predicated(cmd, temp, Predicate::less(1.0f), temp, temp, 4, temp); });
    REQUIRE(!bad);
    CHECK(bad.error().code == Errc::invalid_argument);
  }
  {
    auto x = test::random_values<uint64_t>(n, 6);
    for (uint64_t i = 0; i < n; ++i) x[i] %= 4;
    auto sel = Select::create(rt.context(), ValueType::u64).value();
    std::vector<uint64_t> want;
    std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](uint64_t v) { return v == 2; });
    auto temp = rt.alloc(sel.temp_bytes(n)).value();
    check_select(rt, x, want, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.predicated(cmd, in, Predicate::equal(uint64_t(2)), out, count, m, temp);
    });
  }
}

TEST_CASE("partition: selected first, rejected after, both in input order", "[select][partition]") {
  auto& rt = test::gpu();
  for (bool sg : {true, false}) {
    SelectOptions o;
    o.use_subgroup_ops = sg;
    auto sel = Select::create(rt.context(), ValueType::u32, o).value();
    for (uint64_t n : {uint64_t(1), kTile + 1, 3 * kTile + 17}) {
      for (int pattern : {0, 1, 2}) {
        INFO("subgroup=" << sg << " n=" << n << " pattern=" << pattern);
        auto x = test::random_values<uint32_t>(n, uint32_t(n) + 1);
        if (pattern == 0) for (auto& v : x) v |= 1u;   // none selected by (x & 1) == 0
        if (pattern == 1) for (auto& v : x) v &= ~1u;  // all selected
        std::vector<uint32_t> want = x;
        std::stable_partition(want.begin(), want.end(), [](uint32_t v) { return (v & 1u) == 0; });
        const uint64_t k = std::count_if(x.begin(), x.end(), [](uint32_t v) { return (v & 1u) == 0; });
        auto temp = rt.alloc(sel.temp_bytes(n)).value();
        auto in = rt.upload(x).value();
        Buffer out = test::poisoned(rt, n * 4 + 32), count = test::poisoned(rt, 8);
        rt.submit([&](VkCommandBuffer cmd) {
            return sel.partition_predicated(cmd, in, Predicate::mask_equal(1u, 0u), out, count, n, temp);
          }).value();
        REQUIRE(read_count(rt, count, false) == k);
        REQUIRE(rt.download<uint32_t>(out, n).value() == want);
        // The same through flags.
        std::vector<uint32_t> flags(n);
        for (uint64_t i = 0; i < n; ++i) flags[i] = (x[i] & 1u) == 0;
        auto fb = rt.upload(flags).value();
        Buffer out2 = test::poisoned(rt, n * 4);
        rt.submit([&](VkCommandBuffer cmd) { return sel.partition_flagged(cmd, in, fb, out2, count, n, temp); }).value();
        REQUIRE(rt.download<uint32_t>(out2, n).value() == want);
      }
    }
  }
}

TEST_CASE("unique keeps the first of each run of bit-identical elements", "[select][unique]") {
  auto& rt = test::gpu();
  auto sel = Select::create(rt.context(), ValueType::u32).value();
  const uint64_t n = 3 * single_tile32(rt, true) + 5;
  std::vector<std::vector<uint32_t>> inputs;
  inputs.push_back(std::vector<uint32_t>(n, 42u));  // all equal: one element out
  std::vector<uint32_t> runs(n);
  for (uint64_t i = 0; i < n; ++i) runs[i] = uint32_t(i / (1 + test::hash32(i / 64) % 700));  // runs across tiles
  inputs.push_back(runs);
  inputs.push_back(test::random_values<uint32_t>(n, 3));  // all distinct (almost surely)
  std::vector<uint32_t> few(n);
  for (uint64_t i = 0; i < n; ++i) few[i] = test::hash32(i, 7) % 3;
  inputs.push_back(few);
  auto temp = rt.alloc(sel.temp_bytes(n)).value();
  for (const auto& x : inputs) {
    std::vector<uint32_t> want = x;
    want.erase(std::unique(want.begin(), want.end()), want.end());
    check_select(rt, x, want, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
      return sel.unique(cmd, in, out, count, m, temp);
    });
  }
  // Floats compare by bits: -0.0 and +0.0 are different runs, a repeated NaN is one run.
  auto fsel = Select::create(rt.context(), ValueType::f32).value();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> f = {0.0f, -0.0f, -0.0f, nan, nan, 1.0f, 1.0f, 0.0f};
  std::vector<float> fwant = {0.0f, -0.0f, nan, 1.0f, 0.0f};
  auto ftemp = rt.alloc(fsel.temp_bytes(f.size())).value();
  check_select(rt, f, fwant, false, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
    return fsel.unique(cmd, in, out, count, m, ftemp);
  });
}

namespace {
template <class K, class V>
void check_unique_by_key(Runtime& rt, const std::vector<K>& keys, const std::vector<V>& vals, bool sg) {
  SelectOptions o;
  o.use_subgroup_ops = sg;
  auto ubk = UniqueByKey::create(rt.context(), value_type_of<K>(), value_type_of<V>(), o).value();
  const uint64_t n = keys.size();
  std::vector<K> wk;
  std::vector<V> wv;
  for (uint64_t i = 0; i < n; ++i) {
    if (i == 0 || !same_bits(keys[i], keys[i - 1])) {
      wk.push_back(keys[i]);
      wv.push_back(V(0));
    }
    wv.back() = V(wv.back() + vals[i]);
  }
  auto kin = rt.upload(keys).value();
  auto vin = rt.upload(vals).value();
  Buffer kout = test::poisoned(rt, n * sizeof(K) + 16), vout = test::poisoned(rt, n * sizeof(V) + 16);
  Buffer count = test::poisoned(rt, 8);
  auto temp = rt.alloc(ubk.temp_bytes(n)).value();
  rt.submit([&](VkCommandBuffer cmd) { return ubk.record(cmd, kin, vin, kout, vout, count, n, temp); }).value();
  REQUIRE(read_count(rt, count, false) == wk.size());
  require_equal_bits(rt.download<K>(kout, wk.size()).value(), wk);
  auto gv = rt.download<V>(vout, wv.size()).value();
  for (size_t r = 0; r < wv.size(); ++r) {
    if constexpr (std::is_floating_point_v<V>) {
      REQUIRE(std::abs(double(gv[r]) - double(wv[r])) <= 1e-4 * (1 + std::abs(double(wv[r]))));
    } else {
      REQUIRE(gv[r] == wv[r]);
    }
  }
  REQUIRE(rt.download<uint32_t>(vout.view().sub(wv.size() * sizeof(V), 4), 1).value()[0] == 0xDEADBEEFu);
}
}  // namespace

TEST_CASE("unique by key sums each run", "[select][unique]") {
  auto& rt = test::gpu();
  for (bool sg : {true, false}) {
    const uint64_t n = 4 * kTile + 77;
    std::vector<uint32_t> keys(n);
    for (uint64_t i = 0; i < n; ++i) keys[i] = uint32_t(i / (1 + test::hash32(i / 100) % 900));
    check_unique_by_key(rt, keys, test::random_values<uint32_t>(n, 1), sg);
    check_unique_by_key(rt, keys, test::random_values<float>(n, 2), sg);
    std::vector<uint64_t> k64(n, 7);  // all equal: one run, the total
    check_unique_by_key(rt, k64, test::random_values<int64_t>(n, 3), sg);
    check_unique_by_key(rt, std::vector<uint32_t>{5u}, std::vector<uint32_t>{9u}, sg);
  }
}

TEST_CASE("select with the count read from the GPU", "[select][device-count]") {
  auto& rt = test::gpu();
  auto sel = Select::create(rt.context(), ValueType::u32).value();
  const uint64_t tile = single_tile32(rt, true);
  const uint64_t max = 3 * tile + 9;
  auto x = test::random_values<uint32_t>(max, 8);
  auto in = rt.upload(x).value();
  auto temp = rt.alloc(sel.temp_bytes(max)).value();
  for (uint32_t n : {0u, 1u, uint32_t(tile) + 3, uint32_t(max)}) {
    INFO("n=" << n);
    auto cnt = rt.upload(std::vector<uint32_t>{n}).value();
    Buffer out = test::poisoned(rt, max * 4), count = test::poisoned(rt, 4);
    rt.submit([&](VkCommandBuffer cmd) {
        return sel.predicated(cmd, in, Predicate::mask_equal(1u, 0u), out, count, Count::on_device(cnt, max), temp);
      }).value();
    std::vector<uint32_t> want;
    std::copy_if(x.begin(), x.begin() + n, std::back_inserter(want), [](uint32_t v) { return (v & 1u) == 0; });
    REQUIRE(read_count(rt, count, false) == want.size());
    auto got = rt.download<uint32_t>(out, max).value();
    for (size_t i = 0; i < want.size(); ++i) REQUIRE(got[i] == want[i]);
    for (size_t i = want.size(); i < max; ++i) REQUIRE(got[i] == 0xDEADBEEFu);
  }
}

TEST_CASE("offset allocator: exclusive scan of counts and the total on the GPU", "[select][allocate]") {
  auto& rt = test::gpu();
  for (bool u64 : {false, true}) {
    SelectOptions o;
    o.count_u64 = u64;
    auto alloc = OffsetAllocator::create(rt.context(), o).value();
    for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(5000), uint64_t(100001)}) {
      for (bool in_place : {false, true}) {
        INFO("n=" << n << " u64=" << u64 << " in_place=" << in_place);
        std::vector<uint32_t> counts(n);
        for (uint64_t i = 0; i < n; ++i) counts[i] = test::hash32(i, 4) % 17;
        std::vector<uint32_t> want(n);
        std::exclusive_scan(counts.begin(), counts.end(), want.begin(), 0u);
        const uint64_t total = std::accumulate(counts.begin(), counts.end(), uint64_t(0));
        auto cb = rt.upload(counts.empty() ? std::vector<uint32_t>(1) : counts).value();
        Buffer off = in_place ? Buffer() : test::poisoned(rt, n * 4 + 16);
        BufferView offv = in_place ? cb.view() : off.view();
        Buffer tot = test::poisoned(rt, 8);
        auto temp = rt.alloc(alloc.temp_bytes(n)).value();
        rt.submit([&](VkCommandBuffer cmd) { return alloc.record(cmd, cb, offv, tot, n, temp); }).value();
        REQUIRE(read_count(rt, tot, u64) == total);
        REQUIRE(rt.download<uint32_t>(offv, n).value() == want);
      }
    }
  }
}

TEST_CASE("select: every tail length across a tile, and tiles that stall force the fallback", "[select][lookback]") {
  auto& rt = test::gpu();
  struct Config {
    uint32_t stall_period, spin_limit;
  };
  for (Config c : {Config{0, 0}, Config{3, 2}, Config{1, 1}}) {
    for (bool sg : {true, false}) {
      SelectOptions o;
      o.use_subgroup_ops = sg;
      o.debug_stall_period = c.stall_period;  // 1: no tile ever publishes
      o.spin_limit = c.spin_limit;
      auto sel = Select::create(rt.context(), ValueType::u32, o).value();
      const uint64_t tile = single_tile32(rt, sg);  // each layer's own tile
      std::vector<uint64_t> sizes;
      if (c.stall_period == 0) {
        // The first and last 40 tail lengths, every 97th between.
        for (uint64_t t = 1; t <= tile; ++t)
          if (t <= 40 || t > tile - 40 || t % 97 == 0) sizes.push_back(tile + t);
      } else {
        sizes = {2 * tile, 7 * tile + 5, 40 * tile + 1};
      }
      // Every size recorded back to back into one command buffer sharing one temp buffer (vkprim
      // orders the calls), each call with its own output (8 poisoned words past n) and count.
      const uint64_t max = sizes.back();
      auto x = test::random_values<uint32_t>(max, 77);
      std::vector<uint32_t> flags(max);
      for (uint64_t i = 0; i < max; ++i) flags[i] = x[i] % 3 == 0 ? 1u : 0u;
      auto in = rt.upload(x).value();
      auto fb = rt.upload(flags).value();
      auto temp = rt.alloc(sel.temp_bytes(max)).value();
      std::vector<uint64_t> at;  // each size's output, in elements
      uint64_t total = 0;
      for (uint64_t n : sizes) {
        at.push_back(total);
        total += n + 8;
      }
      Buffer out = test::poisoned(rt, total * 4), out2 = test::poisoned(rt, total * 4);
      Buffer counts = test::poisoned(rt, sizes.size() * 8);
      rt.submit([&](VkCommandBuffer cmd) -> Status {
          for (size_t k = 0; k < sizes.size(); ++k) {
            const uint64_t n = sizes[k];
            // mask_equal(0, 0) selects everything; a real selection through flags too.
            VKPRIM_TRY(sel.predicated(cmd, in, Predicate::mask_equal(0u, 0u), out.view().sub(at[k] * 4, (n + 8) * 4),
                                      counts.view().sub(k * 8, 4), n, temp));
            VKPRIM_TRY(sel.flagged(cmd, in, fb.view().sub(0, n * 4), out2.view().sub(at[k] * 4, (n + 8) * 4),
                                   counts.view().sub(k * 8 + 4, 4), n, temp));
          }
          return {};
        }).value();
      const auto all = rt.download<uint32_t>(out, total).value();
      const auto got = rt.download<uint32_t>(out2, total).value();
      const auto cnt = rt.download<uint32_t>(counts, sizes.size() * 2).value();
      for (size_t k = 0; k < sizes.size(); ++k) {
        const uint64_t n = sizes[k];
        INFO("stall_period=" << c.stall_period << " subgroup=" << sg << " tile=" << tile << " n=" << n);
        REQUIRE(cnt[2 * k] == n);
        REQUIRE(std::equal(all.begin() + at[k], all.begin() + at[k] + n, x.begin()));
        std::vector<uint32_t> want;
        std::copy_if(x.begin(), x.begin() + n, std::back_inserter(want), [](uint32_t v) { return v % 3 == 0; });
        REQUIRE(cnt[2 * k + 1] == want.size());
        for (size_t i = 0; i < want.size(); ++i) REQUIRE(got[at[k] + i] == want[i]);
        for (size_t i = want.size(); i < want.size() + 8; ++i) REQUIRE(got[at[k] + i] == 0xDEADBEEFu);
      }
    }
  }
}
