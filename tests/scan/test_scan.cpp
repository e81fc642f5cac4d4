// Scan, reduce and segmented scan against std::inclusive_scan / exclusive_scan / a CPU twin, on
// every type, operator, strategy and subgroup path, at awkward sizes; outputs poisoned first.
#include "gpu.hpp"
#include "scan/policy.hpp"  // detail::tuning: the scans' tiles

#include <catch2/catch.hpp>
#include <vkprim/testing.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace vkprim;

namespace {

// The tile of one-word aggregates (4-byte values) in the reduce-then-scan passes and the
// shared-memory layer's single pass; the subgroup layer's single pass takes kTile32Subgroup.
constexpr uint64_t kTile32 = uint64_t(detail::tuning::kScanWorkgroup) * detail::tuning::scan_items(1);
constexpr uint64_t kTile32Subgroup =
    uint64_t(detail::tuning::kScanWorkgroup) * detail::tuning::scan_single_pass_items(1, true);

template <class T>
T identity(ScanOp op) {
  if (op == ScanOp::sum) return T(0);
  if (op == ScanOp::min)
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}

// Wrapping integer sums (signed overflow is undefined in C++, defined as wrapping on the GPU).
template <class T>
T combine(ScanOp op, T a, T b) {
  if (op == ScanOp::min) return std::min(a, b);
  if (op == ScanOp::max) return std::max(a, b);
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return T(U(a) + U(b));
  } else {
    return a + b;
  }
}

template <class T>
std::vector<T> cpu_scan(const std::vector<T>& x, ScanOp op, bool exclusive) {
  std::vector<T> out(x.size());
  T acc = identity<T>(op);
  for (size_t i = 0; i < x.size(); ++i) {
    const T next = combine(op, acc, x[i]);
    out[i] = exclusive ? acc : next;
    acc = next;
  }
  return out;
}

// Exact for integers and min/max; for float sums, within a bound scaled to the sum of
// magnitudes (the GPU combines in another order than the serial reference).
template <class T>
void check_close(const std::vector<T>& got, const std::vector<T>& want, const std::vector<T>& x,
                 ScanOp op, bool exclusive, uint64_t tiles) {
  REQUIRE(got.size() == want.size());
  if constexpr (std::is_floating_point_v<T>) {
    if (op == ScanOp::sum) {
      const double eps = std::numeric_limits<T>::epsilon();
      double abs_sum = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        if (!exclusive) abs_sum += std::abs(double(x[i]));
        const double tol = double(tiles + 64) * eps * abs_sum + 1e-30;
        if (std::abs(double(got[i]) - double(want[i])) > tol)
          FAIL("element " << i << ": " << got[i] << " vs " << want[i] << " (tol " << tol << ")");
        if (exclusive) abs_sum += std::abs(double(x[i]));
      }
      return;
    }
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == want[i])) FAIL("element " << i << ": " << got[i] << " vs " << want[i]);
}

template <class T>
void run_scan(Runtime& rt, const Scan& scan, const std::vector<T>& x, ScanOp op, bool exclusive,
              bool in_place = false) {
  const uint64_t n = x.size();
  auto in = rt.upload(x).value();
  Buffer out = in_place ? std::move(in) : test::poisoned(rt, n * sizeof(T) + 64);
  BufferView src = in_place ? out.view() : in.view();
  auto temp = rt.alloc(scan.temp_bytes(n)).value();
  rt.submit([&](VkCommandBuffer cmd) {
      return exclusive ? scan.exclusive(cmd, src, out, n, temp) : scan.inclusive(cmd, src, out, n, temp);
    }).value();
  auto got = rt.download<T>(out, n).value();
  check_close(got, cpu_scan(x, op, exclusive), x, op, exclusive, n / 1024 + 1);
  if (!in_place) {  // nothing written past n
    auto tail = rt.download<uint32_t>(out.view().sub(n * sizeof(T), 64), 16).value();
    for (auto w : tail) REQUIRE(w == 0xDEADBEEFu);
  }
}

template <class T>
void scan_matrix() {
  auto& rt = test::gpu();
  if (value_type_of<T>() == ValueType::f64 && !rt.caps().shader_float64) return;
  const uint64_t tile = uint64_t(detail::tuning::kScanWorkgroup) * detail::tuning::scan_items(sizeof(T) / 4);
  for (ScanOp op : {ScanOp::sum, ScanOp::min, ScanOp::max}) {
    for (ScanStrategy st : {ScanStrategy::single_pass, ScanStrategy::reduce_then_scan}) {
      for (bool sg : {true, false}) {
        ScanOptions o;
        o.strategy = st;
        o.use_subgroup_ops = sg;
        auto scan = Scan::create(rt.context(), value_type_of<T>(), op, o).value();
        for (uint64_t n : {uint64_t(0), uint64_t(1), tile - 1, tile, tile + 1, 3 * tile + 17, uint64_t(100003)}) {
          INFO(to_string(value_type_of<T>()) << " op=" << int(op) << " strategy=" << int(st)
                                             << " subgroup=" << sg << " n=" << n);
          auto x = test::random_values<T>(n, uint32_t(n) + int(op));
          run_scan(rt, scan, x, op, false);
          run_scan(rt, scan, x, op, true);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("scan u32 matches std::inclusive_scan and exclusive_scan", "[scan]") { scan_matrix<uint32_t>(); }
TEST_CASE("scan i32", "[scan]") { scan_matrix<int32_t>(); }
TEST_CASE("scan f32", "[scan]") { scan_matrix<float>(); }
TEST_CASE("scan u64", "[scan]") { scan_matrix<uint64_t>(); }
TEST_CASE("scan i64", "[scan]") { scan_matrix<int64_t>(); }
TEST_CASE("scan f64", "[scan]") { scan_matrix<double>(); }

TEST_CASE("scan every tail length from one tile to two tiles", "[scan][tails]") {
  // u32 sum, single pass, recorded back to back into one command buffer sharing one temp buffer
  // (vkprim orders the calls). The shared-memory layer (tiles of kTile32): every n in
  // [tile, 2 * tile]. The default layer (subgroup where the device has it, with its own tile:
  // kTile32Subgroup): the first and last 300 tail lengths and every 29th between.
  auto& rt = test::gpu();
  for (bool sg : {false, true}) {
    ScanOptions o;
    o.strategy = ScanStrategy::single_pass;
    o.use_subgroup_ops = sg;
    auto scan = Scan::create(rt.context(), ValueType::u32, ScanOp::sum, o).value();
    const uint64_t tile = scan.uses_subgroup_ops() ? kTile32Subgroup : kTile32;
    if (sg && !scan.uses_subgroup_ops()) continue;  // the device has no subgroup layer: done above
    std::vector<uint64_t> sizes;
    for (uint64_t n = tile; n <= 2 * tile; ++n)
      if (!sg || n < tile + 300 || n > 2 * tile - 300 || n % 29 == 0) sizes.push_back(n);
    INFO("subgroup layer=" << scan.uses_subgroup_ops() << " tile=" << tile);
    const uint64_t hi = 2 * tile;
    auto x = test::random_values<uint32_t>(hi, 77);
    auto in = rt.upload(x).value();
    uint64_t total = 0;
    for (uint64_t n : sizes) total += n;
    Buffer out = test::poisoned(rt, total * 4);
    auto temp = rt.alloc(scan.temp_bytes(hi)).value();
    rt.submit([&](VkCommandBuffer cmd) -> Status {
        uint64_t at = 0;
        for (uint64_t n : sizes) {
          VKPRIM_TRY(scan.inclusive(cmd, in, out.view().sub(at * 4, n * 4), n, temp));
          at += n;
        }
        return {};
      }).value();
    auto got = rt.download<uint32_t>(out, total).value();
    std::vector<uint32_t> ref(hi);
    std::inclusive_scan(x.begin(), x.end(), ref.begin());
    uint64_t at = 0;
    for (uint64_t n : sizes) {
      for (uint64_t i = 0; i < n; ++i)
        if (got[at + i] != ref[i]) FAIL("n=" << n << " element " << i);
      at += n;
    }
  }
}

TEST_CASE("scan sizes either side of powers of two", "[scan]") {
  auto& rt = test::gpu();
  for (auto st : {ScanStrategy::single_pass, ScanStrategy::reduce_then_scan}) {
    ScanOptions o;
    o.strategy = st;
    auto scan = Scan::create(rt.context(), ValueType::u32, ScanOp::sum, o).value();
    for (int k = 10; k <= 22; k += 3)
      for (int64_t d : {-1, 0, 1}) {
        const uint64_t n = (uint64_t(1) << k) + d;
        INFO("n=" << n << " strategy=" << int(st));
        run_scan(rt, scan, test::random_values<uint32_t>(n, k), ScanOp::sum, k % 2 == 0);
      }
  }
}

TEST_CASE("reduce-then-scan and reduce with other range counts", "[scan][reduce]") {
  auto& rt = test::gpu();
  for (uint32_t groups : {1u, 3u, 7u, 4096u}) {
    ScanOptions o;
    o.strategy = ScanStrategy::reduce_then_scan;
    o.range_groups = groups;
    auto scan = Scan::create(rt.context(), ValueType::u32, ScanOp::sum, o).value();
    auto red = Reduce::create(rt.context(), ValueType::u32, ScanOp::sum, o).value();
    for (uint64_t n : {uint64_t(1), 5 * kTile32 + 3, uint64_t(100003)}) {
      INFO("groups=" << groups << " n=" << n);
      auto x = test::random_values<uint32_t>(n, uint32_t(n) + groups);
      run_scan(rt, scan, x, ScanOp::sum, true);
      auto in = rt.upload(x).value();
      auto out = rt.alloc(16).value();
      auto temp = rt.alloc(red.temp_bytes(n)).value();
      rt.submit([&](VkCommandBuffer cmd) { return red.record(cmd, in, out, n, temp); }).value();
      REQUIRE(rt.download<uint32_t>(out, 1).value()[0] == std::accumulate(x.begin(), x.end(), 0u));
    }
  }
}

TEST_CASE("scan of all ones is exact, and u32 sums wrap modulo 2^32", "[scan]") {
  auto& rt = test::gpu();
  for (auto st : {ScanStrategy::single_pass, ScanStrategy::reduce_then_scan}) {
    ScanOptions o;
    o.strategy = st;
    auto scan = Scan::create(rt.context(), ValueType::u32, ScanOp::sum, o).value();
    const uint64_t n = (uint64_t(1) << 22) + 5;
    auto in = rt.upload(std::vector<uint32_t>(n, 1u)).value();
    Buffer out = test::poisoned(rt, n * 4);
    auto temp = rt.alloc(scan.temp_bytes(n)).value();
    rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, in, out, n, temp); }).value();
    auto got = rt.download<uint32_t>(out, n).value();
    for (uint64_t i = 0; i < n; ++i) REQUIRE(got[i] == uint32_t(i + 1));
    // 0xFFFFFFFF summed: the documented wrap, (i + 1) * (2^32 - 1) mod 2^32.
    auto big = rt.upload(std::vector<uint32_t>(100000, 0xFFFFFFFFu)).value();
    rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, big, out, 100000, temp); }).value();
    auto wrapped = rt.download<uint32_t>(out, 100000).value();
    for (uint64_t i = 0; i < 100000; ++i) REQUIRE(wrapped[i] == uint32_t(0u - uint32_t(i + 1)));
  }
}

TEST_CASE("single-pass scan is right when tiles stall: the decoupled fallback", "[scan][fallback]") {
  auto& rt = test::gpu();
  for (uint32_t period : {1u, 2u, 3u, 7u}) {
    for (bool sg : {true, false}) {
      ScanOptions o;
      o.strategy = ScanStrategy::single_pass;
      o.use_subgroup_ops = sg;
      testing::ScanKnobs k;
      k.stall_period = period;  // these tiles never publish: successors must fall back
      k.spin_limit = 2;
      for (auto type : {ValueType::u32, ValueType::f64}) {
        INFO("period=" << period << " subgroup=" << sg << " type=" << to_string(type));
        // Thousands of tiles: fallbacks then happen while other tiles publish, the case that
        // once broke subgroup operations inside the look-back loop.
        const uint64_t n = period == 1 ? 9 * kTile32 + 5 : period == 2 ? 4100 * kTile32 + 3 : 301 * kTile32 + 3;
        if (type == ValueType::u32) {
          auto scan = testing::create_scan(rt.context(), type, ScanOp::sum, o, k).value();
          run_scan(rt, scan, test::random_values<uint32_t>(n, period), ScanOp::sum, false);
          run_scan(rt, scan, test::random_values<uint32_t>(n, period), ScanOp::sum, true);
        } else if (rt.caps().shader_float64) {
          auto scan = testing::create_scan(rt.context(), type, ScanOp::max, o, k).value();
          run_scan(rt, scan, test::random_values<double>(n, period), ScanOp::max, false);
        }
      }
    }
  }
}

TEST_CASE("scan in place", "[scan]") {
  auto& rt = test::gpu();
  for (auto st : {ScanStrategy::automatic, ScanStrategy::single_pass, ScanStrategy::reduce_then_scan}) {
    ScanOptions o;
    o.strategy = st;
    auto scan = Scan::create(rt.context(), ValueType::i32, ScanOp::sum, o).value();
    for (uint64_t n : {uint64_t(1), uint64_t(5000), uint64_t(300001)}) {
      run_scan(rt, scan, test::random_values<int32_t>(n, 3), ScanOp::sum, false, true);
      run_scan(rt, scan, test::random_values<int32_t>(n, 4), ScanOp::sum, true, true);
    }
  }
}

TEST_CASE("deterministic scan is bit-identical across 10 runs", "[scan][deterministic]") {
  auto& rt = test::gpu();
  ScanOptions o;
  o.deterministic = true;
  auto scan = Scan::create(rt.context(), ValueType::f32, ScanOp::sum, o).value();
  CHECK(scan.strategy() == ScanStrategy::reduce_then_scan);
  const uint64_t n = 1000003;
  std::vector<float> x(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = float(test::hash32(i)) * 1e-7f - 200.0f;  // inexact sums
  auto in = rt.upload(x).value();
  auto temp = rt.alloc(scan.temp_bytes(n)).value();
  std::vector<float> first;
  for (int run = 0; run < 10; ++run) {
    Buffer out = test::poisoned(rt, n * 4);
    rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, in, out, n, temp); }).value();
    auto got = rt.download<float>(out, n).value();
    if (run == 0) {
      first = got;
      check_close(got, cpu_scan(x, ScanOp::sum, false), x, ScanOp::sum, false, n / 1024 + 1);
    } else {
      REQUIRE(std::memcmp(got.data(), first.data(), n * 4) == 0);
    }
  }
}

TEST_CASE("compensated f32 sums stay near the f64 reference", "[scan][reduce][compensated]") {
  auto& rt = test::gpu();
  // A large value then many small ones: a plain f32 sum loses the small ones.
  const uint64_t n = 2000000;
  std::vector<float> x(n, 1e-3f);
  x[0] = 1e4f;
  double exact = 0;
  for (float v : x) exact += double(v);
  for (bool sg : {true, false}) {
    ScanOptions o;
    o.compensated = true;
    o.use_subgroup_ops = sg;
    auto reduce = Reduce::create(rt.context(), ValueType::f32, ScanOp::sum, o).value();
    auto in = rt.upload(x).value();
    auto out = rt.alloc(16).value();
    auto temp = rt.alloc(reduce.temp_bytes(n)).value();
    rt.submit([&](VkCommandBuffer cmd) { return reduce.record(cmd, in, out, n, temp); }).value();
    const float got = rt.download<float>(out, 1).value()[0];
    // Within one f32 rounding of the exact total (a plain serial f32 sum is off by ~1e3).
    CHECK(std::abs(double(got) - exact) <= 2.0 * std::abs(exact) * std::numeric_limits<float>::epsilon());

    auto scan = Scan::create(rt.context(), ValueType::f32, ScanOp::sum, o).value();
    Buffer sout = test::poisoned(rt, n * 4);
    auto stemp = rt.alloc(scan.temp_bytes(n)).value();
    rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, in, sout, n, stemp); }).value();
    auto s = rt.download<float>(sout, n).value();
    double prefix = 0;
    for (uint64_t i = 0; i < n; ++i) {
      prefix += double(x[i]);
      if (std::abs(double(s[i]) - prefix) > 2.0 * prefix * std::numeric_limits<float>::epsilon())
        FAIL("prefix " << i << ": " << s[i] << " vs " << prefix);
    }
  }
  CHECK_FALSE(Scan::create(rt.context(), ValueType::u32, ScanOp::sum, [] { ScanOptions o; o.compensated = true; return o; }()).ok());
}

TEST_CASE("scan with the count read from a GPU buffer", "[scan][indirect]") {
  auto& rt = test::gpu();
  for (auto st : {ScanStrategy::single_pass, ScanStrategy::reduce_then_scan}) {
    ScanOptions o;
    o.strategy = st;
    auto scan = Scan::create(rt.context(), ValueType::u32, ScanOp::sum, o).value();
    const uint64_t max_n = 100000;
    for (uint32_t n : {0u, 1u, 4097u, 99999u, 100000u}) for (ValueType ct : {ValueType::u32, ValueType::u64}) {
      INFO(n << " elements, count as " << to_string(ct));
      auto x = test::random_values<uint32_t>(max_n, 9);
      auto in = rt.upload(x).value();
      Buffer count = test::device_count(rt, n, ct);
      Buffer out = test::poisoned(rt, max_n * 4);
      auto temp = rt.alloc(scan.temp_bytes(max_n)).value();
      rt.submit([&](VkCommandBuffer cmd) {
          return scan.exclusive(cmd, in, out, Count::on_device(count, max_n, ct), temp);
        }).value();
      auto got = rt.download<uint32_t>(out, max_n).value();
      std::vector<uint32_t> ref(n);
      std::exclusive_scan(x.begin(), x.begin() + n, ref.begin(), 0u);
      for (uint64_t i = 0; i < max_n; ++i) REQUIRE(got[i] == (i < n ? ref[i] : 0xDEADBEEFu));
    }
  }
}

TEST_CASE("a count on the GPU is a u32 or a u64 in a buffer that holds it", "[scan][indirect][errors]") {
  // Refused before anything is recorded, as invalid_argument: another type, a buffer too short
  // or misaligned for the type, a u32 count whose max passes 2^32 - 1.
  auto& rt = test::gpu();
  auto scan = Scan::create(rt.context(), ValueType::u32).value();
  auto reduce = Reduce::create(rt.context(), ValueType::u32).value();
  Buffer in = test::poisoned(rt, 4096), out = test::poisoned(rt, 4096), cnt = test::poisoned(rt, 64);
  auto temp = rt.alloc(scan.temp_bytes(1000)).value();
  const auto refused = [&](const Count& c, const char* why) {
    INFO(why);
    for (int what = 0; what < 2; ++what) {
      auto st = rt.submit([&](VkCommandBuffer cmd) {
        return what == 0 ? scan.exclusive(cmd, in, out, c, temp) : reduce.record(cmd, in, out, c, temp);
      });
      REQUIRE(!st);
      CHECK(st.error().code == Errc::invalid_argument);
      CHECK_THAT(st.error().message, Catch::Contains(why));
    }
  };
  refused(Count::on_device(cnt, 1000, ValueType::f32), "a u32 or a u64, not a f32");
  refused(Count::on_device(cnt.view().sub(4, 8), 1000, ValueType::u64), "must hold an aligned u64");
  refused(Count::on_device(cnt.view().sub(0, 4), 1000, ValueType::u64), "must hold an aligned u64");
  refused(Count::on_device(cnt.view().sub(2, 4), 1000, ValueType::u32), "must hold an aligned u32");
  refused(Count::on_device(cnt, uint64_t(1) << 32, ValueType::u32), "a u32 count on the GPU needs max < 2^32");
}

// Past 2^32 elements with the count on the GPU as a u64 (2^32 + 1003 of 2^32 + 4099 u32 ones,
// 16 GiB each way): a count read as 32 bits would stop after 1003 elements.
TEST_CASE("scan and reduce of more than 2^32 elements, the count a u64 on the GPU", "[scan][reduce][indirect][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 32) + 1003, max = (uint64_t(1) << 32) + 4099;
  if (!test::can_hold(rt, max * 4, 2)) return;
  auto fill = Fill::create(rt.context()).value();
  Buffer in = rt.alloc(max * 4).value();
  const uint64_t seven = (uint64_t(1) << 32) + 1000;  // the largest element, inside the count
  rt.submit([&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(fill.record(cmd, in.view(), 1u));
      full_barrier(rt.context(), cmd);
      return fill.record(cmd, in.view().sub(seven * 4, 4), 7u);
    }).value();
  Buffer out = test::poisoned(rt, max * 4);
  Buffer cnt = test::device_count(rt, n, ValueType::u64);
  const Count count = Count::on_device(cnt, max, ValueType::u64);
  auto scan = Scan::create(rt.context(), ValueType::u32).value();
  auto temp = rt.alloc(scan.temp_bytes(max)).value();
  rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, in, out, count, temp); }).value();
  const auto at = [&](uint64_t i) { return rt.download<uint32_t>(out.view().sub(i * 4, 4), 1).value()[0]; };
  for (const uint64_t i : {uint64_t(0), uint64_t(1) << 31, (uint64_t(1) << 32) - 2, seven - 1})
    CHECK(at(i) == uint32_t(i + 1));  // u32 sums wrap modulo 2^32
  for (const uint64_t i : {seven, n - 1}) CHECK(at(i) == uint32_t(i + 7));
  for (const uint64_t i : {n, max - 1}) CHECK(at(i) == 0xDEADBEEFu);  // past the count

  auto reduce = Reduce::create(rt.context(), ValueType::u32, ScanOp::max).value();
  Buffer top = test::poisoned(rt, 4);
  auto rtemp = rt.alloc(reduce.temp_bytes(max)).value();
  rt.submit([&](VkCommandBuffer cmd) { return reduce.record(cmd, in, top, count, rtemp); }).value();
  CHECK(rt.download<uint32_t>(top, 1).value()[0] == 7u);
}

TEST_CASE("scan beyond maxStorageBufferRange", "[scan][large]") {
  auto& rt = test::gpu();
  const uint64_t n = rt.caps().max_storage_buffer_range / 4 + 1000003;
  if (n * 4 > rt.caps().max_buffer_size) {
    WARN("device cannot hold a buffer past maxStorageBufferRange; skipped");
    return;
  }
  auto scan = Scan::create(rt.context(), ValueType::u32, ScanOp::sum).value();
  run_scan(rt, scan, test::random_values<uint32_t>(n, 5), ScanOp::sum, false);
}

TEST_CASE("scan reports missing or short temporary storage as errors", "[scan]") {
  auto& rt = test::gpu();
  auto scan = Scan::create(rt.context(), ValueType::u32).value();
  auto buf = rt.alloc(4096 * 4).value();
  auto st = rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, buf, buf, 4096); });
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().code == Errc::invalid_argument);
  auto small = rt.alloc(16).value();
  st = rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, buf, buf, 4096, small); });
  CHECK(st.error().code == Errc::invalid_argument);
  // Plan-owned storage.
  REQUIRE(scan.reserve(4096).ok());
  auto ones = rt.upload(std::vector<uint32_t>(4096, 1u)).value();
  rt.submit([&](VkCommandBuffer cmd) { return scan.inclusive(cmd, ones, ones, 4096); }).value();
  CHECK(rt.download<uint32_t>(ones, 4096).value().back() == 4096u);
}

namespace {
template <class T>
void reduce_matrix() {
  auto& rt = test::gpu();
  if (value_type_of<T>() == ValueType::f64 && !rt.caps().shader_float64) return;
  for (ScanOp op : {ScanOp::sum, ScanOp::min, ScanOp::max}) {
    for (bool sg : {true, false}) {
      ScanOptions o;
      o.use_subgroup_ops = sg;
      auto reduce = Reduce::create(rt.context(), value_type_of<T>(), op, o).value();
      for (uint64_t n : {uint64_t(0), uint64_t(1), kTile32 - 1, kTile32 + 1, uint64_t(1) << 20, (uint64_t(1) << 22) + 3}) {
        INFO(to_string(value_type_of<T>()) << " op=" << int(op) << " subgroup=" << sg << " n=" << n);
        auto x = test::random_values<T>(n, uint32_t(n) * 3 + int(op));
        auto in = rt.upload(x).value();
        Buffer out = test::poisoned(rt, 16);
        auto temp = rt.alloc(reduce.temp_bytes(n)).value();
        rt.submit([&](VkCommandBuffer cmd) { return reduce.record(cmd, in, out, n, temp); }).value();
        const T got = rt.download<T>(out, 1).value()[0];
        T total = identity<T>(op);
        double abs_sum = 0;
        for (const T& v : x) {
          total = combine(op, total, v);
          abs_sum += std::abs(double(v));
        }
        if (std::is_floating_point_v<T> && op == ScanOp::sum)
          CHECK(std::abs(double(got) - double(total)) <= 64 * std::numeric_limits<T>::epsilon() * abs_sum);
        else
          CHECK(got == total);
      }
    }
  }
}
}  // namespace

TEST_CASE("reduce matches a serial reduction for every type and operator", "[reduce]") {
  reduce_matrix<uint32_t>();
  reduce_matrix<int32_t>();
  reduce_matrix<uint64_t>();
  reduce_matrix<int64_t>();
  reduce_matrix<float>();
  reduce_matrix<double>();
}

TEST_CASE("reduce with the count read from a GPU buffer", "[reduce][indirect]") {
  auto& rt = test::gpu();
  auto reduce = Reduce::create(rt.context(), ValueType::u64, ScanOp::sum).value();
  const uint64_t max_n = 50000;
  auto x = test::random_values<uint64_t>(max_n, 2);
  auto in = rt.upload(x).value();
  for (uint32_t n : {0u, 7u, 50000u}) for (ValueType ct : {ValueType::u32, ValueType::u64}) {
    INFO(n << " elements, count as " << to_string(ct));
    Buffer count = test::device_count(rt, n, ct);
    Buffer out = test::poisoned(rt, 8);
    auto temp = rt.alloc(reduce.temp_bytes(max_n)).value();
    rt.submit([&](VkCommandBuffer cmd) { return reduce.record(cmd, in, out, Count::on_device(count, max_n, ct), temp); }).value();
    uint64_t ref = 0;
    for (uint32_t i = 0; i < n; ++i) ref += x[i];
    CHECK(rt.download<uint64_t>(out, 1).value()[0] == ref);
  }
}

namespace {
template <class T>
std::vector<T> cpu_segscan(const std::vector<T>& x, const std::vector<uint32_t>& heads, bool exclusive) {
  std::vector<T> out(x.size());
  T acc = T(0);
  for (size_t i = 0; i < x.size(); ++i) {
    if (heads[i]) acc = T(0);
    const T next = combine(ScanOp::sum, acc, x[i]);
    out[i] = exclusive ? acc : next;
    acc = next;
  }
  return out;
}

// The scan by segment offsets, given as u32 and as u64 (with one more offset, 2^32 + 3, which
// is past the end: it would land on element 3 if read as 32 bits), against the scan by `flags`.
template <class T>
void check_by_offsets(Runtime& rt, const SegmentedScan& seg, const std::vector<T>& x, const Buffer& in,
                      const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& flags,
                      const Buffer& temp, bool exclusive) {
  const uint64_t n = x.size();
  const auto ref = cpu_segscan(x, flags, exclusive);
  std::vector<uint64_t> offsets64(offsets.begin(), offsets.end());
  offsets64.insert(offsets64.begin() + offsets64.size() / 2, (uint64_t(1) << 32) + 3);
  for (ValueType type : {ValueType::u32, ValueType::u64}) {
    INFO("offsets " << to_string(type));
    const bool wide = type == ValueType::u64;
    auto boffsets = wide ? rt.upload(offsets64).value() : rt.upload(offsets).value();
    const uint64_t segments = wide ? offsets64.size() : offsets.size();
    Buffer out = test::poisoned(rt, n * sizeof(T) + 16);
    rt.submit([&](VkCommandBuffer cmd) {
        return exclusive ? seg.exclusive_by_offsets(cmd, in, boffsets, segments, out, n, temp, type)
                         : seg.inclusive_by_offsets(cmd, in, boffsets, segments, out, n, temp, type);
      }).value();
    check_close(rt.download<T>(out, n).value(), ref, x, ScanOp::sum, exclusive, n / 512 + 1);
  }
}

template <class T>
void segmented_matrix() {
  auto& rt = test::gpu();
  if (value_type_of<T>() == ValueType::f64 && !rt.caps().shader_float64) return;
  for (ScanStrategy st : {ScanStrategy::single_pass, ScanStrategy::reduce_then_scan}) {
    for (bool sg : {true, false}) {
      ScanOptions o;
      o.strategy = st;
      o.use_subgroup_ops = sg;
      auto seg = SegmentedScan::create(rt.context(), value_type_of<T>(), o).value();
      for (uint64_t n : {uint64_t(0), uint64_t(1), uint64_t(1023), uint64_t(4097), uint64_t(70001)}) {
        for (uint32_t density : {1u, 7u, 5000u}) {  // head every element, ~1 in 7, ~1 in 5000
          INFO(to_string(value_type_of<T>()) << " strategy=" << int(st) << " subgroup=" << sg
                                             << " n=" << n << " density=" << density);
          auto x = test::random_values<T>(n, uint32_t(n) + density);
          std::vector<uint32_t> heads(n), offsets;
          for (uint64_t i = 0; i < n; ++i)
            if (test::hash32(i, density) % density == 0) {
              heads[i] = 1 + test::hash32(i) % 3;  // any nonzero value is a head
              offsets.push_back(uint32_t(i));
            }
          if (!offsets.empty()) offsets.push_back(offsets.back());  // an empty segment
          offsets.push_back(uint32_t(n + 5));                      // past the end: ignored
          std::reverse(offsets.begin(), offsets.end());            // any order
          auto in = rt.upload(x).value();
          auto bheads = rt.upload(heads).value();
          auto temp = rt.alloc(seg.temp_bytes(n)).value();
          for (bool exclusive : {false, true}) {
            auto ref = cpu_segscan(x, heads, exclusive);
            Buffer out = test::poisoned(rt, n * sizeof(T) + 16);
            rt.submit([&](VkCommandBuffer cmd) {
                return exclusive ? seg.exclusive(cmd, in, bheads, out, n, temp)
                                 : seg.inclusive(cmd, in, bheads, out, n, temp);
              }).value();
            check_close(rt.download<T>(out, n).value(), ref, x, ScanOp::sum, exclusive, n / 512 + 1);
            std::vector<uint32_t> flags(n, 0);
            for (auto off : offsets)
              if (off < n) flags[off] = 1;
            check_by_offsets(rt, seg, x, in, offsets, flags, temp, exclusive);
          }
        }
      }
    }
  }
}
}  // namespace

TEST_CASE("segmented scan by head flags and by offsets", "[segmented]") {
  segmented_matrix<uint32_t>();
  segmented_matrix<float>();
  segmented_matrix<int64_t>();
  segmented_matrix<double>();
}

// More segment offsets than one dispatch takes (dispatches of at most 1000 items here): a head
// at every element, or at about one in 7, u32 and u64 offsets in reverse order.
TEST_CASE("segmented scan by more offsets than one dispatch takes", "[segmented][chunked]") {
  auto& rt = test::gpu_chunked();
  auto seg = SegmentedScan::create(rt.context(), ValueType::u32).value();
  const uint64_t n = 4097;
  const auto x = test::random_values<uint32_t>(n, 11);
  auto in = rt.upload(x).value();
  auto temp = rt.alloc(seg.temp_bytes(n)).value();
  for (uint32_t density : {1u, 7u}) {
    std::vector<uint32_t> flags(n, 0), offsets;
    for (uint64_t i = 0; i < n; ++i)
      if (test::hash32(i, density) % density == 0) {
        flags[i] = 1;
        offsets.push_back(uint32_t(i));
      }
    std::reverse(offsets.begin(), offsets.end());
    for (bool exclusive : {false, true}) {
      INFO("density " << density << " exclusive " << exclusive);
      check_by_offsets(rt, seg, x, in, offsets, flags, temp, exclusive);
    }
  }
}

TEST_CASE("segmented scan refuses offsets of another type or misaligned", "[segmented][errors]") {
  auto& rt = test::gpu();
  auto seg = SegmentedScan::create(rt.context(), ValueType::u32).value();
  auto in = rt.upload(std::vector<uint32_t>(64, 1)).value();
  auto offsets = rt.upload(std::vector<uint64_t>{0, 8, 16}).value();
  Buffer out = rt.alloc(256).value();
  for (int k = 0; k < 3; ++k) {
    INFO("case " << k);
    Status st;
    rt.submit([&](VkCommandBuffer cmd) {
        if (k == 0) st = seg.inclusive_by_offsets(cmd, in, offsets, 3, out, 64, {}, ValueType::f32);
        if (k == 1) st = seg.inclusive_by_offsets(cmd, in, offsets.view().sub(4, 16), 2, out, 64, {}, ValueType::u64);
        if (k == 2) st = seg.exclusive_by_offsets(cmd, in, offsets, 4, out, 64, {}, ValueType::u64);
        return Status{};
      }).value();
    REQUIRE(!st);
    CHECK(st.error().code == Errc::invalid_argument);
  }
}

// A refused call records nothing: each call below is refused by the last of its checks (short
// temporary storage), or, for the segmented scans by offsets, by the scan's own checks, which
// follow the head flags the offsets become; alone in its command buffer, which is then
// submitted, it leaves the output's and the temporary storage's poison.
TEST_CASE("scans refused by their last check record nothing", "[scan][reduce][segmented][refused]") {
  auto& rt = test::gpu();
  const uint64_t n = 3 * kTile32 + 5;
  auto scan = Scan::create(rt.context(), ValueType::u32).value();
  auto reduce = Reduce::create(rt.context(), ValueType::u32).value();
  auto seg = SegmentedScan::create(rt.context(), ValueType::u32).value();
  auto in = rt.upload(test::random_values<uint32_t>(n, 11)).value();
  std::vector<uint32_t> flags(n, 0), offsets = {0, 7, 300, uint32_t(kTile32) + 1};
  flags[0] = flags[7] = flags[300] = 1;
  auto bflags = rt.upload(flags).value();
  auto boffsets = rt.upload(offsets).value();
  const uint64_t temp_bytes = std::max({scan.temp_bytes(n), reduce.temp_bytes(n), seg.temp_bytes(n)});
  Buffer out = test::poisoned(rt, n * 4);
  Buffer temp = test::poisoned(rt, temp_bytes);
  Status st;
  SECTION("scan: temporary storage 16 bytes short") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return scan.exclusive(cmd, in, out, n, temp.view().sub(0, scan.temp_bytes(n) - 16));
    });
    CHECK_THAT(st.error().message, Catch::Contains("temporary storage"));
  }
  SECTION("reduce: temporary storage 16 bytes short") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return reduce.record(cmd, in, out, n, temp.view().sub(0, reduce.temp_bytes(n) - 16));
    });
    CHECK_THAT(st.error().message, Catch::Contains("temporary storage"));
  }
  SECTION("segmented scan by head flags: temporary storage 16 bytes short") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return seg.inclusive(cmd, in, bflags, out, n, temp.view().sub(0, seg.temp_bytes(n) - 16));
    });
    CHECK_THAT(st.error().message, Catch::Contains("temporary storage"));
  }
  SECTION("segmented scan by offsets: an output one element short") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return seg.exclusive_by_offsets(cmd, in, boffsets, offsets.size(), out.view().sub(0, (n - 1) * 4), n, temp);
    });
    CHECK_THAT(st.error().message, Catch::Contains("output holds"));
  }
  SECTION("segmented scan by offsets: an output overlapping the input") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return seg.inclusive_by_offsets(cmd, out.view().sub(4, (n - 1) * 4), boffsets, offsets.size(),
                                      out.view().sub(0, (n - 1) * 4), n - 1, temp);
    });
    CHECK_THAT(st.error().message, Catch::Contains("overlap"));
  }
  CHECK(st.error().code == Errc::invalid_argument);
  CHECK(test::still_poisoned(rt, out, n * 4));
  CHECK(test::still_poisoned(rt, temp, temp_bytes));
}
