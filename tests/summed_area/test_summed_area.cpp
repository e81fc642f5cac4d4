// Summed-area tables against a CPU table: f32 images (small integers, so every sum is exact in
// f32), u32 images (sums modulo 2^32) and u64 sums of u32 images; shapes of one row, one column,
// odd sizes, rows longer than the row pass's chunk, columns cut into many chunks; in place; refused
// calls record nothing; a table past 4 GiB.
#include "gpu.hpp"
#include "summed_area/policy.hpp"  // detail::tuning: the row pass's chunk, the column chunks

#include <catch2/catch.hpp>
#include <vkprim/elementwise.hpp>
#include <vkprim/summed_area.hpp>

#include <cstring>

using namespace vkprim;

namespace {

constexpr uint64_t kChunk = uint64_t(detail::tuning::kSatRowWorkgroup) * detail::tuning::kSatRowItems;

// The table of a width x height image, summed in Sum (unsigned sums wrap as the GPU's do).
template <class Sum, class T>
std::vector<Sum> cpu_table(const std::vector<T>& in, uint64_t width, uint64_t height) {
  std::vector<Sum> s(in.size());
  for (uint64_t y = 0; y < height; ++y) {
    Sum row = 0;
    for (uint64_t x = 0; x < width; ++x) {
      row += Sum(in[y * width + x]);
      s[y * width + x] = row + (y ? s[(y - 1) * width + x] : Sum(0));
    }
  }
  return s;
}

struct Shape {
  uint64_t width, height;
};

// Every shape kind: a single element, one row or column (the 1-D scan), odd sizes, rows across
// several chunks of the row pass, short rows, and columns cut into many chunks.
const std::vector<Shape>& shapes() {
  static const std::vector<Shape> s = {
      {1, 1},   {1, 5000},           {5000, 1},   {2, 2},         {3, 5},       {17, 33},
      {kChunk - 1, 3}, {kChunk + 1, 4}, {3 * kChunk + 7, 5}, {4, 3 * kChunk + 1}, {7, 20011}, {301, 299},
      {1000, 1001}};  // the last: chunks of 16 rows in the column pass, its last one of 9
  return s;
}

// Runs the table of `in` into a poisoned output (8 guard bytes past it) and checks it.
template <class Sum, class T>
void check_table(Runtime& rt, const SummedAreaTable& sat, const std::vector<T>& in, Shape sh) {
  INFO("width " << sh.width << ", height " << sh.height);
  const uint64_t n = sh.width * sh.height;
  auto img = rt.upload(in).value();
  Buffer out = test::poisoned(rt, n * sizeof(Sum) + 8);
  auto temp = rt.alloc(sat.temp_bytes(sh.width, sh.height)).value();
  rt.submit([&](VkCommandBuffer cmd) { return sat.record(cmd, img, out, sh.width, sh.height, temp); }).value();
  const auto want = cpu_table<Sum>(in, sh.width, sh.height);
  const auto got = rt.download<Sum>(out, n).value();
  uint64_t wrong = 0, first = n;
  for (uint64_t i = 0; i < n; ++i)
    if (!(got[i] == want[i])) first = std::min(first, i), ++wrong;
  INFO("first wrong at " << first);
  CHECK(wrong == 0);
  const auto tail = rt.download<uint32_t>(out, (n * sizeof(Sum) + 8) / 4).value();
  CHECK(tail[tail.size() - 1] == 0xDEADBEEFu);
  CHECK(tail[tail.size() - 2] == 0xDEADBEEFu);
}

}  // namespace

TEST_CASE("summed-area table of a u32 image, sums modulo 2^32", "[summed_area]") {
  auto& rt = test::gpu();
  auto sat = SummedAreaTable::create(rt.context(), ValueType::u32).value();
  CHECK(sat.sum_type() == ValueType::u32);
  for (Shape sh : shapes())
    check_table<uint32_t>(rt, sat, test::random_values<uint32_t>(sh.width * sh.height, uint32_t(sh.width + sh.height)), sh);
}

TEST_CASE("summed-area table of a u32 image in u64 sums", "[summed_area]") {
  auto& rt = test::gpu();
  SatOptions o;
  o.wide_sums = true;
  auto sat = SummedAreaTable::create(rt.context(), ValueType::u32, o).value();
  CHECK(sat.sum_type() == ValueType::u64);
  for (Shape sh : shapes())
    check_table<uint64_t>(rt, sat, test::random_values<uint32_t>(sh.width * sh.height, uint32_t(sh.width * 3 + sh.height)), sh);
}

TEST_CASE("summed-area table of an f32 image", "[summed_area]") {
  auto& rt = test::gpu();
  auto sat = SummedAreaTable::create(rt.context(), ValueType::f32).value();
  for (Shape sh : shapes()) {
    // Integers 0..15 (negative ones too): every partial sum stays exact in f32 at these sizes.
    auto r = test::random_values<uint32_t>(sh.width * sh.height, uint32_t(sh.width + 7 * sh.height));
    std::vector<float> x(r.size());
    for (size_t i = 0; i < r.size(); ++i) x[i] = float(int(r[i] % 23) - 7);
    check_table<float>(rt, sat, x, sh);
  }
}

TEST_CASE("summed-area table in place", "[summed_area]") {
  auto& rt = test::gpu();
  auto sat = SummedAreaTable::create(rt.context(), ValueType::u32).value();
  for (Shape sh : {Shape{301, 299}, Shape{1, 5000}, Shape{3 * kChunk + 7, 5}}) {
    INFO("width " << sh.width << ", height " << sh.height);
    const auto x = test::random_values<uint32_t>(sh.width * sh.height, 5);
    auto buf = rt.upload(x).value();
    REQUIRE(sat.reserve(sh.width, sh.height).ok());
    rt.submit([&](VkCommandBuffer cmd) { return sat.record(cmd, buf, buf, sh.width, sh.height); }).value();
    CHECK(rt.download<uint32_t>(buf, x.size()).value() == cpu_table<uint32_t>(x, sh.width, sh.height));
  }
}

TEST_CASE("summed-area table: types and refused calls, which record nothing", "[summed_area][refused]") {
  auto& rt = test::gpu();
  CHECK(SummedAreaTable::create(rt.context(), ValueType::i32).error().code == Errc::unsupported);
  SatOptions wide;
  wide.wide_sums = true;
  CHECK(SummedAreaTable::create(rt.context(), ValueType::f32, wide).error().code == Errc::invalid_argument);
  auto sat = SummedAreaTable::create(rt.context(), ValueType::u32).value();
  auto sat64 = SummedAreaTable::create(rt.context(), ValueType::u32, wide).value();
  const uint64_t w = 100, h = 50, n = w * h;
  Buffer in = test::poisoned(rt, n * 4), out = test::poisoned(rt, n * 8);
  auto temp = rt.alloc(std::max(sat.temp_bytes(w, h), sat64.temp_bytes(w, h))).value();
  const auto refused = [&](const char* why, const std::function<Status(VkCommandBuffer)>& call, Errc code) {
    INFO(why);
    auto r = rt.submit(call);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == code);
    // Nothing was recorded: the poison is where it was.
    const auto o = rt.download<uint32_t>(out, 2 * n).value();
    CHECK(std::all_of(o.begin(), o.end(), [](uint32_t v) { return v == 0xDEADBEEFu; }));
  };
  const BufferView vin = in, vout = out, vtemp = temp;
  refused("output short", [&](VkCommandBuffer c) { return sat.record(c, vin, vout.sub(0, n * 4 - 4), w, h, vtemp); },
          Errc::invalid_argument);
  refused("input short", [&](VkCommandBuffer c) { return sat.record(c, vin.sub(0, n * 4 - 4), vout, w, h, vtemp); },
          Errc::invalid_argument);
  refused("temporary storage short",
          [&](VkCommandBuffer c) { return sat.record(c, vin, vout, w, h, vtemp.sub(0, sat.temp_bytes(w, h) - 16)); },
          Errc::invalid_argument);
  refused("no temporary storage", [&](VkCommandBuffer c) { return sat.record(c, vin, vout, w, h); },
          Errc::invalid_argument);
  refused("u64 sums in place", [&](VkCommandBuffer c) { return sat64.record(c, vout, vout, w, h, vtemp); },
          Errc::invalid_argument);
  refused("u64 sums of one row in place (the scan's path)",
          [&](VkCommandBuffer c) { return sat64.record(c, vout, vout, n, 1, vtemp); }, Errc::invalid_argument);
  refused("output overlapping the input",
          [&](VkCommandBuffer c) { return sat.record(c, vout.sub(4, n * 4), vout, w, h, vtemp); },
          Errc::invalid_argument);
  refused("more than 2^64 bytes",
          [&](VkCommandBuffer c) { return sat.record(c, vin, vout, uint64_t(1) << 40, uint64_t(1) << 30, vtemp); },
          Errc::limit_exceeded);
  // An empty image is no error and writes nothing.
  REQUIRE(rt.submit([&](VkCommandBuffer c) { return sat.record(c, vin, vout, 0, h, vtemp); }).ok());
  REQUIRE(rt.submit([&](VkCommandBuffer c) { return sat.record(c, vin, vout, w, 0, vtemp); }).ok());
  const auto o = rt.download<uint32_t>(out, 2 * n).value();
  CHECK(std::all_of(o.begin(), o.end(), [](uint32_t v) { return v == 0xDEADBEEFu; }));
}

// Tables larger than the device's maxStorageBufferRange in bytes (the buffers are addressed by
// device address): 4099 x 8209 u32 (past lavapipe's 128 MiB), and 2^15 + 3 x 2^15 u32 (past
// 4 GiB: byte offsets that need more than 32 bits, where the device holds it). An image of
// ones, whose table is (x + 1)(y + 1) modulo 2^32.
TEST_CASE("summed-area tables past maxStorageBufferRange and past 4 GiB", "[summed_area][large]") {
  auto& rt = test::gpu();
  for (const Shape sh : {Shape{4099, 8209}, Shape{(uint64_t(1) << 15) + 3, uint64_t(1) << 15}}) {
    const uint64_t w = sh.width, h = sh.height;
    const uint64_t n = w * h;
    INFO(n * 4 << " bytes");
    if (!test::can_hold(rt, n * 4 + 64, 2)) continue;
    auto sat = SummedAreaTable::create(rt.context(), ValueType::u32).value();
    REQUIRE(sat.reserve(w, h).ok());
    Buffer in = rt.alloc(n * 4).value();
    Buffer out = test::poisoned(rt, n * 4 + 8);
    auto fill = Fill::create(rt.context()).value();
    rt.submit([&](VkCommandBuffer cmd) -> Status {
        VKPRIM_TRY(fill.record(cmd, in, uint32_t(1)));
        full_barrier(rt.context(), cmd);
        return sat.record(cmd, in, out, w, h);
      }).value();
    in = Buffer();  // host memory for the download
    const auto got = rt.download<uint32_t>(out, n + 2).value();
    uint64_t wrong = 0;
    for (uint64_t y = 0; y < h; ++y)
      for (uint64_t x = 0; x < w; ++x) wrong += got[y * w + x] != uint32_t((x + 1) * (y + 1));
    CHECK(wrong == 0);
    CHECK(got[n] == 0xDEADBEEFu);
    CHECK(got[n + 1] == 0xDEADBEEFu);
  }
}
