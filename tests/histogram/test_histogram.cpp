// Histogram against a CPU count with the documented bin formula: u32 and f32 samples, bins from
// 1 to past what shared memory holds (the global-atomic path), the full u32 range, samples out
// of range and NaN, counts from a GPU buffer, several dispatches (counts past 2^32); the
// histogram is overwritten, not accumulated.
#include "gpu.hpp"
#include "histogram/policy.hpp"  // detail::tuning: the histogram's tile

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace vkprim;

namespace {

std::vector<uint32_t> cpu_hist_u32(const std::vector<uint32_t>& x, uint32_t bins, uint64_t lower, uint64_t upper) {
  std::vector<uint32_t> h(bins);
  for (uint32_t v : x)
    if (v >= lower && v < upper) ++h[(uint64_t(v) - lower) * bins / (upper - lower)];
  return h;
}

std::vector<uint32_t> cpu_hist_f32(const std::vector<float>& x, uint32_t bins, float lower, float upper) {
  std::vector<uint32_t> h(bins);
  const float scale = float(bins) / (upper - lower);
  for (float v : x) {
    if (!(v >= lower && v < upper)) continue;
    volatile float d = v - lower;  // f32 arithmetic, as on the GPU
    volatile float s = d * scale;
    ++h[std::min(uint32_t(s), bins - 1)];
  }
  return h;
}

void run(Runtime& rt, const Histogram& h, const Buffer& samples, uint64_t n, const std::vector<uint32_t>& want) {
  Buffer out = test::poisoned(rt, (uint64_t(h.bins()) + 4) * 4);
  for (int rep = 0; rep < 2; ++rep)  // twice: overwritten, not accumulated
    rt.submit([&](VkCommandBuffer cmd) { return h.record(cmd, samples, out, n); }).value();
  auto got = rt.download<uint32_t>(out, h.bins() + 4).value();
  for (uint32_t b = 0; b < h.bins(); ++b)
    if (got[b] != want[b]) FAIL("bin " << b << ": got " << got[b] << ", want " << want[b]);
  for (uint32_t b = h.bins(); b < h.bins() + 4; ++b) REQUIRE(got[b] == 0xDEADBEEFu);
}

}  // namespace

TEST_CASE("histogram of u32 samples, even bins", "[histogram]") {
  auto& rt = test::gpu();
  const uint64_t n = 1000003;
  auto x = test::random_values<uint32_t>(n, 1);
  for (uint64_t i = 0; i < n; i += 3) x[i] %= 5000;  // many samples inside the small ranges
  auto samples = rt.upload(x).value();
  struct R { uint32_t bins; uint64_t lower, upper; };
  for (R r : {R{256, 0, uint64_t(1) << 32}, R{1, 0, uint64_t(1) << 32}, R{7, 100, 4100}, R{1000, 0, 5000},
              R{5000, 0, 5000}, R{20000, 0, 5000}, R{3, 4000, 4001}}) {
    INFO("bins=" << r.bins << " range [" << r.lower << ", " << r.upper << ")");
    auto h = Histogram::create_even(rt.context(), ValueType::u32, r.bins, double(r.lower), double(r.upper)).value();
    if (r.bins == 20000) CHECK(!h.privatized());  // past shared memory: global atomics
    if (r.bins == 256) CHECK(h.privatized());
    run(rt, h, samples, n, cpu_hist_u32(x, r.bins, r.lower, r.upper));
  }
}

TEST_CASE("histogram of u32 samples at every kind of bin boundary", "[histogram]") {
  // The shader estimates a u32 sample's bin in f32 and corrects it by one exact comparison (up
  // to 2^22 bins; a 64-bit division beyond): samples one below, at and one above the first
  // sample of many bins, for ranges that are not multiples of the bin count.
  auto& rt = test::gpu();
  struct R { uint32_t bins; uint64_t lower, upper; };
  for (R r : {R{255, 3, 4294967294ull}, R{1000, 0, uint64_t(1) << 32}, R{6, 10, 1000010},
              R{65537, 1, 4294967291ull}, R{(1u << 22) - 1, 0, 4294967279ull}, R{(1u << 22) + 3, 5, 4294967296ull}}) {
    INFO("bins=" << r.bins << " range [" << r.lower << ", " << r.upper << ")");
    const uint64_t range = r.upper - r.lower;
    std::vector<uint32_t> x;
    const uint32_t step = std::max<uint32_t>(1, r.bins / 20000);
    for (uint64_t b = 0; b <= r.bins; b += step) {
      const uint64_t first = r.lower + (b * range + r.bins - 1) / r.bins;  // first sample of bin b
      for (int64_t o : {-1, 0, 1})
        if (int64_t(first) + o >= 0 && int64_t(first) + o <= 0xFFFFFFFFll) x.push_back(uint32_t(int64_t(first) + o));
    }
    auto samples = rt.upload(x).value();
    auto h = Histogram::create_even(rt.context(), ValueType::u32, r.bins, double(r.lower), double(r.upper)).value();
    run(rt, h, samples, x.size(), cpu_hist_u32(x, r.bins, r.lower, r.upper));
  }
}

TEST_CASE("histogram of f32 samples: out of range and NaN are dropped", "[histogram]") {
  auto& rt = test::gpu();
  const uint64_t n = 500001;
  auto x = test::random_values<float>(n, 2);  // in about [-2048, 2048)
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (uint64_t i = 0; i < n; i += 101) x[i] = nan;
  for (uint64_t i = 1; i < n; i += 103) x[i] = std::numeric_limits<float>::infinity();
  for (uint64_t i = 2; i < n; i += 107) x[i] = 100.0f;  // exactly on the upper edge below
  auto samples = rt.upload(x).value();
  struct R { uint32_t bins; float lower, upper; };
  for (R r : {R{256, -2048.0f, 2048.0f}, R{10, -100.0f, 100.0f}, R{3, 0.1f, 0.7f}, R{9000, -1000.0f, 1000.0f}}) {
    INFO("bins=" << r.bins << " range [" << r.lower << ", " << r.upper << ")");
    auto h = Histogram::create_even(rt.context(), ValueType::f32, r.bins, r.lower, r.upper).value();
    run(rt, h, samples, n, cpu_hist_f32(x, r.bins, r.lower, r.upper));
  }
}

TEST_CASE("histogram sizes, GPU-side counts and refused arguments", "[histogram]") {
  auto& rt = test::gpu();
  auto h = Histogram::create_even(rt.context(), ValueType::u32, 16, 0, 16).value();
  const uint64_t tile = uint64_t(detail::tuning::kHistogramWorkgroup) * detail::tuning::kHistogramItems;
  const uint64_t max = tile * 3 + 5;
  std::vector<uint32_t> x(max);
  for (uint64_t i = 0; i < max; ++i) x[i] = test::hash32(i) % 20;
  auto samples = rt.upload(x).value();
  for (uint64_t n : {uint64_t(0), uint64_t(1), tile - 1, tile + 1, max}) {
    INFO("n=" << n);
    run(rt, h, samples, n, cpu_hist_u32(std::vector<uint32_t>(x.begin(), x.begin() + n), 16, 0, 16));
    for (ValueType ct : {ValueType::u32, ValueType::u64}) {
      INFO("count on the GPU as " << to_string(ct));
      Buffer cnt = test::device_count(rt, n, ct);
      Buffer out = test::poisoned(rt, 64);
      rt.submit([&](VkCommandBuffer cmd) { return h.record(cmd, samples, out, Count::on_device(cnt, max, ct)); }).value();
      REQUIRE(rt.download<uint32_t>(out, 16).value() == cpu_hist_u32(std::vector<uint32_t>(x.begin(), x.begin() + n), 16, 0, 16));
    }
  }
  CHECK(Histogram::create_even(rt.context(), ValueType::u32, 0, 0, 10).error().code == Errc::invalid_argument);
  CHECK(Histogram::create_even(rt.context(), ValueType::u32, 4, 10, 10).error().code == Errc::invalid_argument);
  CHECK(Histogram::create_even(rt.context(), ValueType::u32, 4, 0, 5e9).error().code == Errc::invalid_argument);
  CHECK(Histogram::create_even(rt.context(), ValueType::f32, 4, 0, INFINITY).error().code == Errc::invalid_argument);
  CHECK(Histogram::create_even(rt.context(), ValueType::u64, 4, 0, 10).error().code == Errc::unsupported);
  Buffer small = rt.alloc(16).value();
  auto bad = rt.submit([&](VkCommandBuffer cmd) { return h.record(cmd, samples, small, 10); });
  REQUIRE(!bad);
  CHECK(bad.error().code == Errc::invalid_argument);
  // A u64 count on the GPU may have a max past 2^32 - 1; the samples must hold that max.
  Buffer cnt = test::device_count(rt, 5, ValueType::u64);
  auto wide = rt.submit([&](VkCommandBuffer cmd) {
    return h.record(cmd, samples, small, Count::on_device(cnt, uint64_t(1) << 32, ValueType::u64));
  });
  REQUIRE(!wide);
  CHECK(wide.error().code == Errc::invalid_argument);
  CHECK(wide.error().message.find("samples") != std::string::npos);
}

TEST_CASE("histogram in several dispatches (how counts past 2^32 run)", "[histogram]") {
  // A runtime whose dispatches cover at most 1000 samples: counts run as chunks that add to one
  // histogram; with a count on the GPU each chunk takes its part of it (none past the count).
  auto& rt = test::gpu_chunked();
  const uint64_t n = 100003;
  auto x = test::random_values<uint32_t>(n, 43);
  for (uint64_t i = 0; i < n; i += 2) x[i] %= 3000;
  auto samples = rt.upload(x).value();
  for (const uint32_t bins : {1u, 256u, 20000u}) {  // privatized, and global atomics
    INFO("bins=" << bins);
    auto h = Histogram::create_even(rt.context(), ValueType::u32, bins, 0, 3000).value();
    for (const uint64_t m : {uint64_t(999), uint64_t(1000), uint64_t(1001), uint64_t(2000), n}) {
      INFO("n=" << m);
      const auto want = cpu_hist_u32(std::vector<uint32_t>(x.begin(), x.begin() + m), bins, 0, 3000);
      run(rt, h, samples, m, want);
      for (ValueType ct : {ValueType::u32, ValueType::u64}) {
        INFO("count on the GPU as " << to_string(ct));
        Buffer cnt = test::device_count(rt, m, ct);
        Buffer out = test::poisoned(rt, uint64_t(bins) * 4);
        rt.submit([&](VkCommandBuffer cmd) { return h.record(cmd, samples, out, Count::on_device(cnt, n, ct)); }).value();
        REQUIRE(rt.download<uint32_t>(out, bins).value() == want);
      }
    }
  }
  auto f = test::random_values<float>(n, 44);
  auto fsamples = rt.upload(f).value();
  auto hf = Histogram::create_even(rt.context(), ValueType::f32, 100, -1000.0, 1000.0).value();
  run(rt, hf, fsamples, n, cpu_hist_f32(f, 100, -1000.0f, 1000.0f));
}

// Past 2^32 samples (2^32 + 1003 u32, 16 GiB): more samples than one dispatch covers.
TEST_CASE("histogram of more than 2^32 samples", "[histogram][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 32) + 1003;
  if (!test::can_hold(rt, n * 4)) return;
  std::vector<uint32_t> x(n);
  std::vector<uint32_t> want(256);
  for (uint64_t i = 0; i < n; ++i) {
    x[i] = i + 5000 >= n ? 7u : test::hash32(i, 45);  // the tail lands in bin 0
    ++want[x[i] >> 24];
  }
  auto samples = rt.upload(x).value();
  auto h = Histogram::create_even(rt.context(), ValueType::u32, 256, 0.0, double(uint64_t(1) << 32)).value();
  run(rt, h, samples, n, want);
  // The count as a u64 on the GPU: all of it, and 2000 fewer (the tail's bin 0 loses them).
  for (uint64_t m : {n, n - 2000}) {
    INFO("count on the GPU " << m);
    Buffer cnt = test::device_count(rt, m, ValueType::u64);
    Buffer out = test::poisoned(rt, 256 * 4);
    rt.submit([&](VkCommandBuffer cmd) {
        return h.record(cmd, samples, out, Count::on_device(cnt, n, ValueType::u64));
      }).value();
    auto expect = want;
    expect[0] -= uint32_t(n - m);
    REQUIRE(rt.download<uint32_t>(out, 256).value() == expect);
  }
}

// Past 4 GiB of samples (2^30 + 1003 u32): offsets that need more than 32 bits.
TEST_CASE("histogram past 4 GiB of samples", "[histogram][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 30) + 1003;
  if (!test::can_hold(rt, n * 4)) return;
  auto x = test::random_values<uint32_t>(n, 41);
  for (uint64_t i = n - 5000; i < n; ++i) x[i] = 7;  // the tail lands in bin 0 of 256
  auto samples = rt.upload(x).value();
  auto h = Histogram::create_even(rt.context(), ValueType::u32, 256, 0.0, double(uint64_t(1) << 32)).value();
  run(rt, h, samples, n, cpu_hist_u32(x, 256, 0, uint64_t(1) << 32));
}

// A refused call records nothing: hist overlapping the samples (the last check) is refused
// before the zeroing of hist is recorded; the command buffer, submitted, leaves the poison.
TEST_CASE("a histogram refused by its last check records nothing", "[histogram][refused]") {
  auto& rt = test::gpu();
  auto h = Histogram::create_even(rt.context(), ValueType::u32, 64, 0, 64).value();
  const uint64_t n = 4096;
  Buffer b = test::poisoned(rt, (n + 64) * 4);
  auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
    return h.record(cmd, b.view().sub(0, n * 4), b.view().sub(n * 4 - 16, 64 * 4), n);
  });
  CHECK(st.error().code == Errc::invalid_argument);
  CHECK_THAT(st.error().message, Catch::Contains("overlaps"));
  CHECK(test::still_poisoned(rt, b, (n + 64) * 4));
}
