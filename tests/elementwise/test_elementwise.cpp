// Fill, copy and maps against std algorithms at awkward sizes, outputs poisoned first.
#include "gpu.hpp"
#include "elementwise/policy.hpp"  // detail::tuning: the element-wise tiles

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace vkprim;

namespace {
// The fill and map workgroup tile (copy moves the same items in 16-byte words: kTile * 4).
constexpr uint64_t kTile = uint64_t(detail::tuning::kFill.workgroup_size) * detail::tuning::kFill.items;
static_assert(kTile == uint64_t(detail::tuning::kMap.workgroup_size) * detail::tuning::kMap.items);
constexpr uint64_t kLarge = 3 * 1000 * 1000 + 7;  // ~12 MB of u32
}  // namespace

TEST_CASE("fill writes every element and nothing past the view", "[fill]") {
  auto& rt = test::gpu();
  auto fill = Fill::create(rt.context()).value();
  for (uint64_t n : test::awkward_sizes(kTile, kLarge)) {
    for (uint32_t esz : {4u, 8u}) {
      for (uint64_t lead : {0u, 8u, 4u}) {  // 16-aligned, 8-aligned and 4-aligned starts
        if (lead % esz) continue;
        DYNAMIC_SECTION("n=" << n << " element=" << esz << " offset=" << lead) {
          const uint64_t bytes = lead + n * esz + 16;
          Buffer b = test::poisoned(rt, bytes);
          const uint64_t value = 0x0123456789ABCDEFull;
          rt.submit([&](VkCommandBuffer cmd) {
              return fill.record(cmd, b.view().sub(lead, n * esz), value, esz);
            }).value();
          auto words = rt.download<uint32_t>(b, bytes / 4).value();
          for (uint64_t w = 0; w < bytes / 4; ++w) {
            const uint64_t byte = w * 4;
            uint32_t expect = 0xDEADBEEFu;
            if (byte >= lead && byte < lead + n * esz)
              expect = esz == 4 ? uint32_t(value) : ((byte - lead) % 8 ? uint32_t(value >> 32) : uint32_t(value));
            if (words[w] != expect) {
              FAIL("word " << w << ": " << std::hex << words[w] << " != " << expect);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("copy matches the source at awkward sizes and alignments", "[copy]") {
  auto& rt = test::gpu();
  auto copy = Copy::create(rt.context()).value();
  for (uint64_t n : test::awkward_sizes(kTile * 4, kLarge)) {
    for (uint64_t src_off : {0u, 4u}) {
      for (uint64_t dst_off : {0u, 12u}) {
        DYNAMIC_SECTION("n=" << n << " src+" << src_off << " dst+" << dst_off) {
          auto host = test::random_values<uint32_t>(n + 4, uint32_t(n));
          auto src = rt.upload(host).value();
          Buffer dst = test::poisoned(rt, (n + 8) * 4);
          rt.submit([&](VkCommandBuffer cmd) {
              return copy.record(cmd, src.view().sub(src_off, n * 4), dst.view().sub(dst_off, n * 4), n * 4);
            }).value();
          auto out = rt.download<uint32_t>(dst, n + 8).value();
          for (uint64_t i = 0; i < n + 8; ++i) {
            const uint64_t byte = i * 4;
            uint32_t expect = 0xDEADBEEFu;
            if (byte >= dst_off && byte < dst_off + n * 4) expect = host[(byte - dst_off + src_off) / 4];
            if (out[i] != expect) FAIL("word " << i);
          }
        }
      }
    }
  }
}

TEST_CASE("copy beyond maxStorageBufferRange", "[copy][large]") {
  auto& rt = test::gpu();
  // The range need not be a multiple of 4 (NVIDIA: 2^32 - 1).
  const uint64_t bytes = rt.caps().max_storage_buffer_range / 4 * 4 + (uint64_t(32) << 20) + 12;
  if (bytes > rt.caps().max_buffer_size) {
    WARN("device cannot hold a buffer past maxStorageBufferRange; skipped");
    return;
  }
  auto copy = Copy::create(rt.context()).value();
  const uint64_t n = bytes / 4;
  auto host = test::random_values<uint32_t>(n, 7);
  auto src = rt.upload(host).value();
  Buffer dst = test::poisoned(rt, bytes);
  rt.submit([&](VkCommandBuffer cmd) { return copy.record(cmd, src, dst, bytes); }).value();
  auto out = rt.download<uint32_t>(dst, n).value();
  uint64_t wrong = 0;  // counted, not compared whole: Catch would print both vectors
  for (uint64_t i = 0; i < n; ++i) wrong += out[i] != host[i];
  CHECK(wrong == 0);
}

// Byte offsets past 2^32, whatever maxStorageBufferRange is: every word of a buffer of more than
// 4 GiB filled (test::poisoned), then copied, and nothing written past the copy.
TEST_CASE("fill and copy past 4 GiB", "[copy][fill][large]") {
  auto& rt = test::gpu();
  const uint64_t bytes = (uint64_t(1) << 32) + (uint64_t(64) << 10) + 12, n = bytes / 4;
  if (!test::can_hold(rt, bytes + 16, 2)) return;
  auto host = test::random_values<uint32_t>(n, 11);
  auto src = rt.upload(host).value();
  Buffer dst = test::poisoned(rt, bytes + 16);
  {
    auto poison = rt.download<uint32_t>(dst, n + 4).value();
    uint64_t wrong = 0;
    for (uint32_t w : poison) wrong += w != 0xDEADBEEFu;
    REQUIRE(wrong == 0);  // the fill reached every word
  }
  auto copy = Copy::create(rt.context()).value();
  rt.submit([&](VkCommandBuffer cmd) { return copy.record(cmd, src, dst, bytes); }).value();
  auto out = rt.download<uint32_t>(dst, n + 4).value();
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i) wrong += out[i] != host[i];
  CHECK(wrong == 0);
  for (uint64_t i = n; i < n + 4; ++i) CHECK(out[i] == 0xDEADBEEFu);
}

TEST_CASE("copy splits dispatches so counts past 2^31 items work", "[copy][chunks]") {
  // The same code path a >2^32-element copy takes, with the split forced small.
  auto& rt = test::gpu_chunked();
  auto copy = Copy::create(rt.context()).value();
  for (uint64_t n : {999u, 1000u, 4001u, 40000u + 3u}) {
    auto host = test::random_values<uint32_t>(n, 3);
    auto src = rt.upload(host).value();
    Buffer dst = test::poisoned(rt, n * 4);
    rt.submit([&](VkCommandBuffer cmd) { return copy.record(cmd, src, dst, n * 4); }).value();
    CHECK(rt.download<uint32_t>(dst, n).value() == host);
  }
}

TEST_CASE("copy rejects bad arguments with errors", "[copy]") {
  auto& rt = test::gpu();
  auto copy = Copy::create(rt.context()).value();
  auto a = rt.alloc(64).value();
  auto b = rt.alloc(64).value();
  auto st = rt.submit([&](VkCommandBuffer cmd) { return copy.record(cmd, a, b, 6); });
  CHECK(st.error().code == Errc::invalid_argument);
  st = rt.submit([&](VkCommandBuffer cmd) { return copy.record(cmd, a, b, 128); });
  CHECK(st.error().code == Errc::invalid_argument);
}

namespace {
// Integer arithmetic that wraps like the GPU's (signed overflow is undefined in C++).
template <class T>
T wrap_mul_add(T a, T x, T b, T y) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return T(U(U(a) * U(x)) + U(U(b) * U(y)));
  } else {
    return a * x + b * y;  // exact for test::random_values
  }
}

template <class T>
void check_maps() {
  auto& rt = test::gpu();
  auto map = Map::create(rt.context(), value_type_of<T>());
  if (!map && map.error().code == Errc::unsupported) {
    WARN("device lacks " << to_string(value_type_of<T>()) << "; skipped");
    return;
  }
  const T a = T(3), b = std::is_signed_v<T> ? T(-5) : T(5);
  for (uint64_t n : test::awkward_sizes(kTile, 300007)) {
    INFO(to_string(value_type_of<T>()) << " n=" << n);
    auto x = test::random_values<T>(n, 11);
    auto y = test::random_values<T>(n, 12);
    auto bx = rt.upload(x).value();
    auto by = rt.upload(y).value();
    std::vector<T> ref(n);

    Buffer z = test::poisoned(rt, n * sizeof(T));
    rt.submit([&](VkCommandBuffer cmd) { return map->affine(cmd, bx, z, a, b, n); }).value();
    for (size_t i = 0; i < n; ++i) ref[i] = wrap_mul_add(a, x[i], b, T(1));
    CHECK(rt.download<T>(z, n).value() == ref);

    z = test::poisoned(rt, n * sizeof(T));
    rt.submit([&](VkCommandBuffer cmd) { return map->abs(cmd, bx, z, n); }).value();
    for (size_t i = 0; i < n; ++i)
      ref[i] = std::is_signed_v<T> && x[i] < T(0) ? wrap_mul_add(T(0), T(0), T(-1), x[i]) : x[i];
    CHECK(rt.download<T>(z, n).value() == ref);

    // z aliases x: the documented in-place form.
    rt.submit([&](VkCommandBuffer cmd) { return map->axpby(cmd, bx, by, bx, a, b, n); }).value();
    for (size_t i = 0; i < n; ++i) ref[i] = wrap_mul_add(a, x[i], b, y[i]);
    CHECK(rt.download<T>(bx, n).value() == ref);
  }
}
}  // namespace

TEST_CASE("maps match std::transform for every value type", "[map]") {
  check_maps<uint32_t>();
  check_maps<int32_t>();
  check_maps<float>();
  check_maps<uint64_t>();
  check_maps<int64_t>();
  check_maps<double>();
}

TEST_CASE("maps past 4 GiB", "[map][large]") {
  auto& rt = test::gpu();
  const uint64_t n = (uint64_t(1) << 29) + 1003;  // u64: 4 GiB + 8 KB per array
  if (!test::can_hold(rt, n * 8, 2)) return;
  auto map = Map::create(rt.context(), ValueType::u64).value();
  auto x = test::random_values<uint64_t>(n, 13), y = test::random_values<uint64_t>(n, 14);
  auto bx = rt.upload(x).value(), by = rt.upload(y).value();
  const uint64_t a = 3, b = 5;
  rt.submit([&](VkCommandBuffer cmd) { return map.axpby(cmd, bx, by, bx, a, b, n); }).value();
  auto out = rt.download<uint64_t>(bx, n).value();
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i) wrong += out[i] != a * x[i] + b * y[i];
  CHECK(wrong == 0);
}

TEST_CASE("a map refuses scalars of another type", "[map]") {
  auto& rt = test::gpu();
  auto map = Map::create(rt.context(), ValueType::f32).value();
  auto x = rt.alloc(64).value();
  auto st = rt.submit([&](VkCommandBuffer cmd) { return map.affine(cmd, x, x, 1.0, 2.0, 4); });
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().code == Errc::invalid_argument);
}

// A refused call records nothing: each call below is refused by the argument its checks reach
// last (a fill's destination size, a copy's destination address, an axpby's y address), alone
// in its command buffer, which is then submitted: the destination keeps its poison.
TEST_CASE("elementwise calls refused by their last check record nothing", "[fill][copy][map][refused]") {
  auto& rt = test::gpu();
  auto fill = Fill::create(rt.context()).value();
  auto copy = Copy::create(rt.context()).value();
  auto map = Map::create(rt.context(), ValueType::u32).value();
  const uint64_t n = 2 * kTile + 1;
  auto src = rt.upload(test::random_values<uint32_t>(n + 4, 3)).value();
  Buffer dst = test::poisoned(rt, (n + 4) * 4);
  SECTION("fill: a size that is not a multiple of the element") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return fill.record(cmd, dst.view().sub(0, 8 * (n / 2) + 4), uint64_t(7), 8);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("destination size"));
  }
  SECTION("copy: a destination that is not 4-byte aligned") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return copy.record(cmd, src, dst.view().sub(2, n * 4), n * 4);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("destination address"));
  }
  SECTION("axpby: a y that is not aligned to its element") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return map.axpby(cmd, src, src.view().sub(2, n * 4), dst, 2u, 3u, n);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("y address"));
  }
  SECTION("fill: a destination with a size but no device address") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return fill.record(cmd, BufferView{VK_NULL_HANDLE, 0, 64, 0}, uint64_t(7), 4);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("Fill: destination has no device address"));
  }
  CHECK(test::still_poisoned(rt, dst, (n + 4) * 4));
}
