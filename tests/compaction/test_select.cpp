// Compaction against CPU references (std::copy_if, std::stable_partition, std::unique, a serial
// reduce-by-key, std::exclusive_scan): none, all and half selected, awkward sizes, predicates on
// every type, counts read from and written to GPU buffers, several dispatches (counts past
// 2^32); outputs poisoned first.
#include "gpu.hpp"
#include "compaction/policy.hpp"  // detail::tuning: the compaction's tile

#include <catch2/catch.hpp>
#include <vkprim/testing.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

using namespace vkprim;

namespace {

// The compaction tile of 4-byte elements (8-byte elements: the same bytes, half as many).
constexpr uint64_t kTile = uint64_t(detail::tuning::kSelectWorkgroup) * detail::tuning::select_items(4);

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
      for (uint64_t n : {uint64_t(0), uint64_t(1), kTile - 1, kTile, kTile + 1, 3 * kTile + 17, uint64_t(100003)}) {
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
  const uint64_t n = 3 * kTile + 5;
  for (bool sg : {true, false}) {
    SelectOptions o;
    o.use_subgroup_ops = sg;
    INFO("subgroup=" << sg);
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
  const uint64_t n = 2 * kTile + 333;
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

// The partition CUB's DevicePartition::If writes: selected in input order, then the rejected
// ones from the last back.
template <class T>
static std::vector<T> partition_reference(const std::vector<T>& x, PartitionOrder order, bool (*selected)(T)) {
  std::vector<T> want = x;
  const auto mid = std::stable_partition(want.begin(), want.end(), selected);
  if (order == PartitionOrder::rejected_reversed) std::reverse(mid, want.end());
  return want;
}

// Partitions of T by (x & 1) == 0 and by flags, on awkward sizes, in both layers.
template <class T>
static void check_partitions(Runtime& rt, ValueType type) {
  const uint64_t tile = kTile * 4 / sizeof(T);
  const auto even = [](T v) { return (v & T(1)) == T(0); };
  for (bool sg : {true, false})
  for (PartitionOrder order : {PartitionOrder::stable, PartitionOrder::rejected_reversed}) {
    SelectOptions o;
    o.use_subgroup_ops = sg;
    auto sel = Select::create(rt.context(), type, o).value();
    for (uint64_t n : {uint64_t(0), uint64_t(1), tile - 1, tile + 1, 3 * tile + 17}) {
      for (int pattern : {0, 1, 2}) {
        INFO(to_string(type) << " subgroup=" << sg << " reversed="
                             << (order == PartitionOrder::rejected_reversed) << " n=" << n << " pattern=" << pattern);
        auto x = test::random_values<T>(n, uint32_t(n) + 1);
        if (pattern == 0) for (auto& v : x) v |= T(1);   // none selected by (x & 1) == 0
        if (pattern == 1) for (auto& v : x) v &= ~T(1);  // all selected
        const auto want = partition_reference<T>(x, order, +even);
        const uint64_t k = std::count_if(x.begin(), x.end(), even);
        auto temp = rt.alloc(sel.temp_bytes(n)).value();
        auto in = rt.upload(n ? x : std::vector<T>(1)).value();
        Buffer out = test::poisoned(rt, n * sizeof(T) + 32), count = test::poisoned(rt, 8);
        rt.submit([&](VkCommandBuffer cmd) {
            return sel.partition_predicated(cmd, in, Predicate::mask_equal(T(1), T(0)), out, count, n, temp, order);
          }).value();
        REQUIRE(read_count(rt, count, false) == k);
        REQUIRE(rt.download<T>(out, n).value() == want);
        // The same through flags, and nothing written past the n elements.
        std::vector<uint32_t> flags(n);
        for (uint64_t i = 0; i < n; ++i) flags[i] = even(x[i]);
        auto fb = rt.upload(n ? flags : std::vector<uint32_t>(1)).value();
        Buffer out2 = test::poisoned(rt, n * sizeof(T) + 32);
        rt.submit([&](VkCommandBuffer cmd) { return sel.partition_flagged(cmd, in, fb, out2, count, n, temp, order); }).value();
        REQUIRE(rt.download<T>(out2, n).value() == want);
        const auto tail = rt.download<uint32_t>(out2.view().sub(n * sizeof(T), 32), 8).value();
        REQUIRE(tail == std::vector<uint32_t>(8, 0xDEADBEEFu));
      }
    }
  }
}

TEST_CASE("partition: selected first, rejected after, in input order or reversed", "[select][partition]") {
  auto& rt = test::gpu();
  check_partitions<uint32_t>(rt, ValueType::u32);
  check_partitions<uint64_t>(rt, ValueType::u64);
}

TEST_CASE("unique keeps the first of each run of bit-identical elements", "[select][unique]") {
  auto& rt = test::gpu();
  auto sel = Select::create(rt.context(), ValueType::u32).value();
  const uint64_t n = 3 * kTile + 5;
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
  const uint64_t max = 3 * kTile + 9;
  auto x = test::random_values<uint32_t>(max, 8);
  auto in = rt.upload(x).value();
  auto temp = rt.alloc(sel.temp_bytes(max)).value();
  // Unique by key (its segmented sum of the values takes the same count): runs of 3 keys.
  auto ubk = UniqueByKey::create(rt.context(), ValueType::u32, ValueType::u32).value();
  std::vector<uint32_t> keys(max);
  for (uint64_t i = 0; i < max; ++i) keys[i] = uint32_t(i / 3);
  auto kin = rt.upload(keys).value(), vin = rt.upload(x).value();
  auto ubk_temp = rt.alloc(ubk.temp_bytes(max)).value();
  for (uint32_t n : {0u, 1u, uint32_t(kTile) + 3, uint32_t(max)}) for (ValueType ct : {ValueType::u32, ValueType::u64}) {
    INFO("n=" << n << ", count as " << to_string(ct));
    Buffer cnt = test::device_count(rt, n, ct);
    Buffer out = test::poisoned(rt, max * 4), count = test::poisoned(rt, 4);
    rt.submit([&](VkCommandBuffer cmd) {
        return sel.predicated(cmd, in, Predicate::mask_equal(1u, 0u), out, count, Count::on_device(cnt, max, ct), temp);
      }).value();
    std::vector<uint32_t> want;
    std::copy_if(x.begin(), x.begin() + n, std::back_inserter(want), [](uint32_t v) { return (v & 1u) == 0; });
    REQUIRE(read_count(rt, count, false) == want.size());
    auto got = rt.download<uint32_t>(out, max).value();
    for (size_t i = 0; i < want.size(); ++i) REQUIRE(got[i] == want[i]);
    for (size_t i = want.size(); i < max; ++i) REQUIRE(got[i] == 0xDEADBEEFu);

    Buffer kout = test::poisoned(rt, max * 4), vout = test::poisoned(rt, max * 4);
    test::poison(rt, count, 4);
    rt.submit([&](VkCommandBuffer cmd) {
        return ubk.record(cmd, kin, vin, kout, vout, count, Count::on_device(cnt, max, ct), ubk_temp);
      }).value();
    const uint64_t runs = (n + 2) / 3;
    REQUIRE(read_count(rt, count, false) == runs);
    auto gk = rt.download<uint32_t>(kout, max).value(), gv = rt.download<uint32_t>(vout, max).value();
    for (uint64_t r = 0; r < runs; ++r) {
      uint32_t sum = 0;
      for (uint64_t i = 3 * r; i < std::min<uint64_t>(3 * r + 3, n); ++i) sum += x[i];
      REQUIRE(gk[r] == uint32_t(r));
      REQUIRE(gv[r] == sum);
    }
    for (uint64_t r = runs; r < max; ++r) REQUIRE(gk[r] == 0xDEADBEEFu);
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
      testing::SelectKnobs k;
      k.stall_period = c.stall_period;  // 1: no tile ever publishes
      k.spin_limit = c.spin_limit;
      auto sel = testing::create_select(rt.context(), ValueType::u32, o, k).value();
      std::vector<uint64_t> sizes;
      if (c.stall_period == 0) {
        // Dense at both ends (the step lands on kTile - 40), every 97th length between.
        for (uint64_t t = 1; t <= kTile;
             t += (t < 40 || t >= kTile - 40) ? 1 : std::min<uint64_t>(97, kTile - 40 - t))
          sizes.push_back(kTile + t);
      } else {
        sizes = {2 * kTile, 7 * kTile + 5, 40 * kTile + 1};
      }
      const uint64_t max = sizes.back();
      auto x = test::random_values<uint32_t>(max, 77);
      auto in = rt.upload(x).value();
      auto temp = rt.alloc(sel.temp_bytes(max)).value();
      for (uint64_t n : sizes) {
        INFO("stall_period=" << c.stall_period << " subgroup=" << sg << " n=" << n);
        std::vector<uint32_t> want;
        std::copy_if(x.begin(), x.begin() + n, std::back_inserter(want), [](uint32_t v) { return v % 3 == 0; });
        Buffer out = test::poisoned(rt, (n + 8) * 4), count = test::poisoned(rt, 4);
        rt.submit([&](VkCommandBuffer cmd) {
            return sel.predicated(cmd, in, Predicate::mask_equal(0u, 0u), out, count, n, temp);
          }).value();
        // mask_equal(0, 0) selects everything; check a real predicate too below.
        REQUIRE(read_count(rt, count, false) == n);
        auto all = rt.download<uint32_t>(out, n).value();
        REQUIRE(std::equal(all.begin(), all.end(), x.begin()));
        std::vector<uint32_t> flags(n);
        for (uint64_t i = 0; i < n; ++i) flags[i] = x[i] % 3 == 0 ? 1u : 0u;
        auto fb = rt.upload(flags).value();
        Buffer out2 = test::poisoned(rt, (n + 8) * 4);
        rt.submit([&](VkCommandBuffer cmd) { return sel.flagged(cmd, in, fb, out2, count, n, temp); }).value();
        REQUIRE(read_count(rt, count, false) == want.size());
        auto got = rt.download<uint32_t>(out2, want.size() + 8).value();
        for (size_t i = 0; i < want.size(); ++i) REQUIRE(got[i] == want[i]);
        for (size_t i = want.size(); i < got.size(); ++i) REQUIRE(got[i] == 0xDEADBEEFu);
        // Partition (the same single pass, the rejected after the selected): by the flags.
        std::vector<uint32_t> part(x.begin(), x.begin() + n);
        std::stable_partition(part.begin(), part.end(), [](uint32_t v) { return v % 3 == 0; });
        test::poison(rt, out2, (n + 8) * 4);
        rt.submit([&](VkCommandBuffer cmd) { return sel.partition_flagged(cmd, in, fb, out2, count, n, temp); }).value();
        REQUIRE(read_count(rt, count, false) == want.size());
        got = rt.download<uint32_t>(out2, n + 8).value();
        for (size_t i = 0; i < n; ++i) REQUIRE(got[i] == part[i]);
        for (size_t i = n; i < n + 8; ++i) REQUIRE(got[i] == 0xDEADBEEFu);
      }
    }
  }
}

TEST_CASE("select and unique in several dispatches (how counts past 2^32 run)", "[select][unique][chunked]") {
  // A runtime whose dispatches cover at most 1000 elements: each chunk starts its outputs after
  // the total of the chunks before, and unique compares a chunk's first element with the one
  // before it (runs cross the chunks' boundaries).
  auto& rt = test::gpu_chunked();
  for (bool sg : {true, false}) {
    for (bool u64 : {false, true}) {
      SelectOptions o;
      o.use_subgroup_ops = sg;
      o.count_u64 = u64;
      auto sel = Select::create(rt.context(), ValueType::u32, o).value();
      auto sel64 = Select::create(rt.context(), ValueType::u64, o).value();
      for (uint64_t n : {uint64_t(999), uint64_t(1000), uint64_t(1001), uint64_t(2500), 3 * kTile + 5}) {
        INFO("subgroup=" << sg << " count_u64=" << u64 << " n=" << n);
        auto x = test::random_values<uint32_t>(n, 11);
        std::vector<uint32_t> flags(n);
        for (uint64_t i = 0; i < n; ++i) flags[i] = (i / 700) % 3 == 1 ? 0u : test::hash32(i, 12) % 2;
        auto fl = rt.upload(flags).value();
        std::vector<uint32_t> want;
        for (uint64_t i = 0; i < n; ++i)
          if (flags[i]) want.push_back(x[i]);
        auto temp = rt.alloc(sel.temp_bytes(n)).value();
        check_select(rt, x, want, u64, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
          return sel.flagged(cmd, in, fl, out, count, m, temp);
        });
        // The count on the GPU, its max 2100 past it (chunks past the count select nothing):
        // each chunk takes its part of it. Flags, then unique over runs of 7.
        for (ValueType ct : {ValueType::u32, ValueType::u64}) {
          INFO("count on the GPU as " << to_string(ct));
          const uint64_t max = n + 2100;
          std::vector<uint32_t> runs(max), xl = x, fl_l = flags;
          xl.resize(max, 7u);
          fl_l.resize(max, 1u);
          for (uint64_t i = 0; i < max; ++i) runs[i] = uint32_t(i / 7);
          std::vector<uint32_t> want_runs(runs.begin(), runs.begin() + n);
          want_runs.erase(std::unique(want_runs.begin(), want_runs.end()), want_runs.end());
          auto in = rt.upload(xl).value(), fbuf = rt.upload(fl_l).value(), rin = rt.upload(runs).value();
          Buffer cnt = test::device_count(rt, n, ct);
          auto templ = rt.alloc(sel.temp_bytes(max)).value();
          for (bool uniq : {false, true}) {
            const auto& w = uniq ? want_runs : want;
            Buffer out = test::poisoned(rt, (max + 8) * 4), count = test::poisoned(rt, 16);
            rt.submit([&](VkCommandBuffer cmd) {
                const Count c = Count::on_device(cnt, max, ct);
                return uniq ? sel.unique(cmd, rin, out, count, c, templ) : sel.flagged(cmd, in, fbuf, out, count, c, templ);
              }).value();
            REQUIRE(read_count(rt, count, u64) == w.size());
            auto got = rt.download<uint32_t>(out, w.size() + 8).value();
            for (size_t i = 0; i < w.size(); ++i) REQUIRE(got[i] == w[i]);
            for (size_t i = w.size(); i < w.size() + 8; ++i) REQUIRE(got[i] == 0xDEADBEEFu);
          }
          // Partition: selected first, the rejected after them, no further than the count.
          std::vector<uint32_t> part;
          for (uint64_t i = 0; i < n; ++i) if (flags[i]) part.push_back(x[i]);
          for (uint64_t i = 0; i < n; ++i) if (!flags[i]) part.push_back(x[i]);
          for (bool on_gpu : {false, true})
          for (PartitionOrder order : {PartitionOrder::stable, PartitionOrder::rejected_reversed}) {
            const bool reversed = order == PartitionOrder::rejected_reversed;
            INFO("partition, count on the " << (on_gpu ? "GPU" : "host") << (reversed ? ", reversed" : ""));
            Buffer out = test::poisoned(rt, (max + 8) * 4), count = test::poisoned(rt, 16);
            rt.submit([&](VkCommandBuffer cmd) {
                const Count c = on_gpu ? Count::on_device(cnt, max, ct) : Count(n);
                return sel.partition_flagged(cmd, in, fbuf, out, count, c, templ, order);
              }).value();
            REQUIRE(read_count(rt, count, u64) == want.size());
            auto got = rt.download<uint32_t>(out, n + 8).value();
            auto expect = part;
            if (reversed) std::reverse(expect.begin() + ptrdiff_t(want.size()), expect.end());
            for (size_t i = 0; i < n; ++i) REQUIRE(got[i] == expect[i]);
            for (size_t i = n; i < n + 8; ++i) REQUIRE(got[i] == 0xDEADBEEFu);
          }
        }
        want.clear();
        std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](uint32_t v) { return (v & 3u) == 0; });
        check_select(rt, x, want, u64, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
          return sel.predicated(cmd, in, Predicate::mask_equal(3u, 0u), out, count, m, temp);
        });
        for (const uint32_t run : {1u, 7u, 1000u, 2000u, uint32_t(n)}) {  // n: all equal
          std::vector<uint32_t> runs(n);
          for (uint64_t i = 0; i < n; ++i) runs[i] = uint32_t((i + 3) / run);
          want = runs;
          want.erase(std::unique(want.begin(), want.end()), want.end());
          check_select(rt, runs, want, u64, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
            return sel.unique(cmd, in, out, count, m, temp);
          });
        }
        std::vector<uint64_t> r64(n);
        for (uint64_t i = 0; i < n; ++i) r64[i] = (uint64_t(i / 13) << 32) | 5u;  // equal low words
        std::vector<uint64_t> w64 = r64;
        w64.erase(std::unique(w64.begin(), w64.end()), w64.end());
        auto temp64 = rt.alloc(sel64.temp_bytes(n)).value();
        check_select(rt, r64, w64, u64, [&](VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count, uint64_t m) {
          return sel64.unique(cmd, in, out, count, m, temp64);
        });
      }
    }
  }
}

TEST_CASE("compaction counts past 2^32 need a u64 count_out", "[select][errors]") {
  // Refused or accepted before anything is recorded: the buffers are too small on purpose, so an
  // accepted count fails next on them.
  auto& rt = test::gpu();
  const uint64_t n = uint64_t(1) << 32;
  Buffer small = rt.alloc(64).value();
  const auto pred = Predicate::less(5u);
  for (bool u64 : {false, true}) {
    INFO("count_u64=" << u64);
    SelectOptions o;
    o.count_u64 = u64;
    auto sel = Select::create(rt.context(), ValueType::u32, o).value();
    auto ubk = UniqueByKey::create(rt.context(), ValueType::u32, ValueType::u32, o).value();
    std::vector<Status> got;
    got.push_back(rt.submit([&](VkCommandBuffer cmd) { return sel.predicated(cmd, small, pred, small, small, n, small); }));
    got.push_back(rt.submit([&](VkCommandBuffer cmd) { return sel.unique(cmd, small, small, small, n, small); }));
    got.push_back(rt.submit([&](VkCommandBuffer cmd) { return sel.partition_predicated(cmd, small, pred, small, small, n, small); }));
    got.push_back(rt.submit([&](VkCommandBuffer cmd) { return ubk.record(cmd, small, small, small, small, small, n, small); }));
    for (const auto& st : got) {
      REQUIRE(!st);
      if (u64) {
        CHECK(st.error().code == Errc::invalid_argument);
        CHECK_THAT(st.error().message, Catch::Contains("input holds 64 bytes"));
      } else {
        CHECK(st.error().code == Errc::limit_exceeded);
        CHECK_THAT(st.error().message, Catch::Contains("need SelectOptions::count_u64"));
      }
    }
  }
  // The allocator's total wraps like its offsets: no u64 count needed.
  auto alloc = OffsetAllocator::create(rt.context()).value();
  auto st = rt.submit([&](VkCommandBuffer cmd) { return alloc.record(cmd, small, small, small, n, small); });
  REQUIRE(!st);
  CHECK(st.error().code == Errc::invalid_argument);
  CHECK_THAT(st.error().message, Catch::Contains("counts holds 64 bytes"));
  // A count on the GPU whose max passes 2^32 - 1 is a u64 (a u32's max: invalid_argument), and
  // needs count_u64 like a host count.
  for (bool u64 : {false, true}) {
    SelectOptions o;
    o.count_u64 = u64;
    auto sel = Select::create(rt.context(), ValueType::u32, o).value();
    for (ValueType ct : {ValueType::u32, ValueType::u64}) {
      INFO("count_u64=" << u64 << ", count on the GPU as " << to_string(ct));
      st = rt.submit([&](VkCommandBuffer cmd) {
        return sel.predicated(cmd, small, pred, small, small, Count::on_device(small, n, ct), small);
      });
      REQUIRE(!st);
      if (ct == ValueType::u32) {
        CHECK(st.error().code == Errc::invalid_argument);
        CHECK_THAT(st.error().message, Catch::Contains("pass a u64 count"));
      } else if (!u64) {
        CHECK(st.error().code == Errc::limit_exceeded);
        CHECK_THAT(st.error().message, Catch::Contains("need SelectOptions::count_u64"));
      } else {
        CHECK(st.error().code == Errc::invalid_argument);
        CHECK_THAT(st.error().message, Catch::Contains("input holds 64 bytes"));
      }
    }
  }
}

// Past 2^32 elements (2^32 + 4099 u32, runs of 3 equal elements): a predicate keeps the even
// ones, unique one of each run (several dispatches), partition puts the even ones first (64-bit
// indices in one dispatch).
TEST_CASE("select, unique and partition of more than 2^32 elements", "[select][unique][partition][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 32) + 4099;
  if (!test::can_hold(rt, n * 4 + 64, 2)) return;
  std::vector<uint32_t> x(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = uint32_t(i / 3);
  SelectOptions o;
  o.count_u64 = true;
  auto sel = Select::create(rt.context(), ValueType::u32, o).value();
  auto in = rt.upload(x).value();
  Buffer out = test::poisoned(rt, n * 4 + 64);
  Buffer count = test::poisoned(rt, 16);
  auto temp = rt.alloc(sel.temp_bytes(n)).value();
  const auto even = Predicate::mask_equal(1u, 0u);
  // With the count on the host, then as a u64 on the GPU (max n, count n - 5: the chunks past
  // 2^32 take their part of it).
  Buffer on_gpu = test::device_count(rt, n - 5, ValueType::u64);
  for (const bool gpu_count : {false, true})
  for (const char* call : {"select", "unique", "partition", "partition reversed"}) {
    INFO(call << (gpu_count ? ", count on the GPU" : ""));
    const std::string c = call;
    const uint64_t m = gpu_count ? n - 5 : n;
    const Count cnt = gpu_count ? Count::on_device(on_gpu, n, ValueType::u64) : Count(n);
    test::poison(rt, out, n * 4 + 64);  // the previous call's output would pass the tail check
    rt.submit([&](VkCommandBuffer cmd) {
        if (c == "unique") return sel.unique(cmd, in, out, count, cnt, temp);
        if (c == "partition") return sel.partition_predicated(cmd, in, even, out, count, cnt, temp);
        if (c == "partition reversed")
          return sel.partition_predicated(cmd, in, even, out, count, cnt, temp, PartitionOrder::rejected_reversed);
        return sel.predicated(cmd, in, even, out, count, cnt, temp);
      }).value();
    auto got = rt.download<uint32_t>(out, n + 8).value();
    uint64_t k = 0, wrong = 0;
    for (uint64_t i = 0; i < m; ++i)
      if (c == "unique" ? i % 3 == 0 : (x[i] & 1u) == 0) wrong += got[k++] != x[i];
    CHECK(read_count(rt, count, true) == k);
    if (c == "partition") {
      for (uint64_t i = 0; i < m; ++i)
        if ((x[i] & 1u) != 0) wrong += got[k++] != x[i];
    }
    if (c == "partition reversed") {
      for (uint64_t i = m; i-- > 0;)
        if ((x[i] & 1u) != 0) wrong += got[k++] != x[i];
    }
    CHECK(wrong == 0);
    for (uint64_t i = k; i < k + 8; ++i) CHECK(got[i] == 0xDEADBEEFu);
  }
}

// Past 4 GiB: 2^29 + 4099 u64 elements, half selected by a predicate (the single pass), then
// partitioned (the upsweep and scatter passes): outputs whose byte offsets need more than 32 bits.
TEST_CASE("select and partition past 4 GiB", "[select][partition][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 29) + 4099;
  if (!test::can_hold(rt, n * 8 + 64, 2)) return;
  auto x = test::random_values<uint64_t>(n, 31);
  auto sel = Select::create(rt.context(), ValueType::u64).value();
  auto in = rt.upload(x).value();
  Buffer out = test::poisoned(rt, n * 8 + 64);
  Buffer count = test::poisoned(rt, 16);
  auto temp = rt.alloc(sel.temp_bytes(n)).value();
  const auto pred = Predicate::mask_equal(uint64_t(1), uint64_t(0));
  for (int call : {0, 1, 2}) {  // select, partition, partition with the rejected reversed
    const bool partition = call != 0;
    INFO((call == 0 ? "select" : call == 1 ? "partition" : "partition reversed"));
    rt.submit([&](VkCommandBuffer cmd) {
        const auto order = call == 2 ? PartitionOrder::rejected_reversed : PartitionOrder::stable;
        return partition ? sel.partition_predicated(cmd, in, pred, out, count, n, temp, order)
                         : sel.predicated(cmd, in, pred, out, count, n, temp);
      }).value();
    auto got = rt.download<uint64_t>(out, n + 8).value();
    uint64_t k = 0, wrong = 0;
    for (uint64_t v : x)
      if ((v & 1u) == 0) wrong += got[k++] != v;
    CHECK(read_count(rt, count, false) == k);
    if (call == 1) {
      for (uint64_t v : x)
        if ((v & 1u) != 0) wrong += got[k++] != v;
    }
    if (call == 2) {
      for (auto it = x.rbegin(); it != x.rend(); ++it)
        if ((*it & 1u) != 0) wrong += got[k++] != *it;
    }
    CHECK(wrong == 0);
    for (uint64_t i = k; i < k + 8; ++i) CHECK(got[i] == 0xDEADBEEFDEADBEEFull);
  }
}

// A refused call records nothing. Each call below is alone in its command buffer, which is
// then submitted: outputs, count_out and the temporary storage keep their poison. Refused by
// the last of the call's own checks (short temporary storage), or by the checks of a scan it
// nests, which follow work of its own: unique-by-key's run sums (values_in overlapping them, in
// the temporary storage), the allocator's scan of the counts (more elements than that scan's
// dispatches cover; views of memory that does not exist, which nothing may touch). And
// partition's count and scan of all tiles in one dispatch, which takes at most 2^32 - 1 tiles.
TEST_CASE("compaction refused by its last or nested checks records nothing", "[select][partition][unique][allocate][refused]") {
  auto& rt = test::gpu();
  const uint64_t n = 3 * kTile + 5;
  std::vector<uint32_t> flags(n);
  for (uint64_t i = 0; i < n; ++i) flags[i] = test::hash32(i, 3) & 1;
  auto in = rt.upload(test::random_values<uint32_t>(n, 31)).value();
  auto bflags = rt.upload(flags).value();
  Buffer out = test::poisoned(rt, n * 8);
  Buffer values_out = test::poisoned(rt, n * 8);
  Buffer count = test::poisoned(rt, 16);
  SelectOptions o;
  o.count_u64 = true;
  auto sel = Select::create(rt.context(), ValueType::u32, o).value();
  auto ubk = UniqueByKey::create(rt.context(), ValueType::u32, ValueType::u64, o).value();
  auto alloc = OffsetAllocator::create(rt.context(), o).value();
  const uint64_t temp_bytes = std::max(sel.temp_bytes(n), ubk.temp_bytes(n));
  Buffer temp = test::poisoned(rt, temp_bytes);
  Status st;
  SECTION("partition: temporary storage 16 bytes short") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return sel.partition_flagged(cmd, in, bflags, out, count, n, temp.view().sub(0, sel.temp_bytes(n) - 16));
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("temporary storage"));
  }
  SECTION("partition: 2^32 tiles for its one-dispatch count and scan") {
    const uint64_t big = (uint64_t(1) << 32) * kTile;
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return sel.partition_predicated(cmd, test::unbacked(big * 4), Predicate::less(5u), test::unbacked(big * 4, 1),
                                      count, big, test::unbacked(sel.temp_bytes(big), 2));
    });
    CHECK(st.error().code == Errc::limit_exceeded);
    CHECK_THAT(st.error().message, Catch::Contains("dispatch limits"));
  }
  SECTION("unique by key: values_in overlapping the run sums in the temporary storage") {
    // The run sums (n u64) follow the run heads (n u32) and the tile counts' scan there: values
    // from 8 bytes on overlap them without being them.
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return ubk.record(cmd, in, temp.view().sub(8, n * 8), out, values_out, count, n, temp);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("UniqueByKey: SegmentedScan: input and output overlap"));
  }
  SECTION("allocator: more counts than its scan's dispatches cover") {
    // 2^44 counts: 2^31 of the allocator's tiles, 2^32 of the scan's (tiles of 256 x 16).
    const uint64_t big = uint64_t(1) << 44;
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return alloc.record(cmd, test::unbacked(big * 4), test::unbacked(big * 4), count, big,
                          test::unbacked(alloc.temp_bytes(big), 1));
    });
    CHECK(st.error().code == Errc::limit_exceeded);
    CHECK_THAT(st.error().message, Catch::Contains("OffsetAllocator: Scan"));
  }
  CHECK(test::still_poisoned(rt, out, n * 8));
  CHECK(test::still_poisoned(rt, values_out, n * 8));
  CHECK(test::still_poisoned(rt, count, 16));
  CHECK(test::still_poisoned(rt, temp, temp_bytes));
}
