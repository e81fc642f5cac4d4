// Gather and scatter against a CPU twin, including out-of-range indices that must never touch
// memory outside the buffers (checked with guard words around the outputs).
#include "gpu.hpp"
#include "gather_scatter/policy.hpp"  // detail::tuning::kGatherScatter

#include <catch2/catch.hpp>

#include <cstring>

using namespace vkprim;

namespace {
constexpr uint64_t kTile =
    uint64_t(detail::tuning::kGatherScatter.workgroup_size) * detail::tuning::kGatherScatter.items;
constexpr uint64_t kGuardBytes = 64;

template <class E>
void check_gather(uint64_t n, uint64_t src_n) {
  auto& rt = test::gpu();
  auto gather = Gather::create(rt.context()).value();
  auto src = test::random_values<E>(src_n, 5);
  std::vector<uint32_t> idx(n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t h = test::hash32(i, 9);
    idx[i] = h % 8 == 0 ? uint32_t(src_n + h % 1000) : (src_n ? h % uint32_t(src_n) : h);  // 1 in 8 out of range
  }
  if (n) idx[n - 1] = 0xFFFFFFFFu;
  const E fallback = E(0x5A5A5A5A5A5A5A5Aull);
  auto bsrc = rt.upload(src).value();
  auto bidx = rt.upload(idx).value();
  Buffer dst = test::poisoned(rt, n * sizeof(E) + kGuardBytes);
  uint64_t fb = 0;
  std::memcpy(&fb, &fallback, sizeof(E));
  rt.submit([&](VkCommandBuffer cmd) {
      return gather.record(cmd, bsrc.view().sub(0, src_n * sizeof(E)), bidx, dst, n, sizeof(E), fb);
    }).value();
  auto out = rt.download<E>(dst, n).value();
  std::vector<E> ref(n);
  for (uint64_t i = 0; i < n; ++i) ref[i] = idx[i] < src_n ? src[idx[i]] : fallback;
  CHECK(out == ref);
  auto guard = rt.download<uint32_t>(dst.view().sub(n * sizeof(E), kGuardBytes), kGuardBytes / 4).value();
  for (auto g : guard) CHECK(g == 0xDEADBEEFu);
}

template <class E>
void check_scatter(uint64_t n, uint64_t dst_n) {
  auto& rt = test::gpu();
  auto scatter = Scatter::create(rt.context()).value();
  auto src = test::random_values<E>(n, 6);
  // A permutation of [0, dst_n) for the first min(n, dst_n) items (unique targets), then
  // out-of-range indices.
  std::vector<uint32_t> idx(n);
  for (uint64_t i = 0; i < n; ++i)
    idx[i] = i < dst_n ? uint32_t((i * 7919) % dst_n) : uint32_t(dst_n + test::hash32(i) % 50);
  if (dst_n % 7919 == 0 && dst_n > 1) return;  // 7919 must be coprime with dst_n
  auto bsrc = rt.upload(src).value();
  auto bidx = rt.upload(idx).value();
  Buffer dst = test::poisoned(rt, dst_n * sizeof(E) + kGuardBytes);
  auto poison = rt.download<E>(dst, dst_n).value();
  rt.submit([&](VkCommandBuffer cmd) {
      return scatter.record(cmd, bsrc, bidx, dst.view().sub(0, dst_n * sizeof(E)), n, sizeof(E));
    }).value();
  std::vector<E> ref = poison;
  for (uint64_t i = 0; i < n; ++i)
    if (idx[i] < dst_n) ref[idx[i]] = src[i];
  CHECK(rt.download<E>(dst, dst_n).value() == ref);
  auto guard = rt.download<uint32_t>(dst.view().sub(dst_n * sizeof(E), kGuardBytes), kGuardBytes / 4).value();
  for (auto g : guard) CHECK(g == 0xDEADBEEFu);
}
}  // namespace

TEST_CASE("gather 32- and 64-bit elements, out-of-range indices read nothing", "[gather]") {
  for (uint64_t n : test::awkward_sizes(kTile, 1000003)) {
    INFO("n=" << n);
    check_gather<uint32_t>(n, 777);
    check_gather<uint64_t>(n, 777);
    check_gather<uint32_t>(n, n);
  }
  check_gather<uint32_t>(100, 0);  // empty source: every index is out of range
}

TEST_CASE("scatter 32- and 64-bit elements, out-of-range indices write nothing", "[scatter]") {
  for (uint64_t n : test::awkward_sizes(kTile, 1000003)) {
    INFO("n=" << n);
    check_scatter<uint32_t>(n, n);
    check_scatter<uint64_t>(n, n / 2 + 1);
  }
}

TEST_CASE("gather and scatter split across dispatches", "[gather][scatter][chunks]") {
  auto& rt = test::gpu_chunked();
  auto gather = Gather::create(rt.context()).value();
  const uint64_t n = 5000;
  auto src = test::random_values<uint64_t>(n, 1);
  std::vector<uint32_t> idx(n);
  for (uint64_t i = 0; i < n; ++i) idx[i] = uint32_t(n - 1 - i);
  auto bsrc = rt.upload(src).value();
  auto bidx = rt.upload(idx).value();
  Buffer dst = test::poisoned(rt, n * 8);
  rt.submit([&](VkCommandBuffer cmd) { return gather.record(cmd, bsrc, bidx, dst, n, 8); }).value();
  auto out = rt.download<uint64_t>(dst, n).value();
  for (uint64_t i = 0; i < n; ++i) REQUIRE(out[i] == src[n - 1 - i]);
}

// Past 4 GiB: a gather from, and a scatter into, an array of 2^29 + 2^20 8-byte elements, by
// indices spread over all of it up to its last element.
TEST_CASE("gather and scatter past 4 GiB", "[gather][scatter][large]") {
  auto& rt = test::gpu();
  const uint64_t big = (uint64_t(1) << 29) + (uint64_t(1) << 20), n = uint64_t(1) << 20;
  if (!test::can_hold(rt, big * 8 + kGuardBytes, 2)) return;
  std::vector<uint32_t> idx(n);  // distinct, ascending, the last one big - 1
  for (uint64_t i = 0; i < n; ++i) idx[i] = uint32_t(big - 1 - (n - 1 - i) * (big / n));
  auto bidx = rt.upload(idx).value();

  auto src = test::random_values<uint64_t>(big, 21);
  auto bsrc = rt.upload(src).value();
  Buffer dst = test::poisoned(rt, n * 8);
  auto gather = Gather::create(rt.context()).value();
  rt.submit([&](VkCommandBuffer cmd) { return gather.record(cmd, bsrc, bidx, dst, n, 8, 0); }).value();
  auto got = rt.download<uint64_t>(dst, n).value();
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i) wrong += got[i] != src[idx[i]];
  CHECK(wrong == 0);

  // Scatter the gathered values back into a poisoned array: they land where they came from.
  Buffer back = test::poisoned(rt, big * 8 + kGuardBytes);
  auto scatter = Scatter::create(rt.context()).value();
  rt.submit([&](VkCommandBuffer cmd) {
      return scatter.record(cmd, dst, bidx, back.view().sub(0, big * 8), n, 8);
    }).value();
  auto out = rt.download<uint64_t>(back, big + kGuardBytes / 8).value();
  constexpr uint64_t kPoison = 0xDEADBEEFDEADBEEFull;
  wrong = 0;
  for (uint64_t i = 0, k = 0; i < big + kGuardBytes / 8; ++i) {
    const bool target = k < n && idx[k] == i;
    wrong += out[i] != (target ? src[i] : kPoison);
    k += target;
  }
  CHECK(wrong == 0);
}

// A refused call records nothing: a gather whose destination and a scatter whose indices are
// misaligned (the last of their checks), each alone in a submitted command buffer, leave the
// destination's poison.
TEST_CASE("gather and scatter refused by their last check record nothing", "[gather][scatter][refused]") {
  auto& rt = test::gpu();
  auto gather = Gather::create(rt.context()).value();
  auto scatter = Scatter::create(rt.context()).value();
  const uint64_t n = 2 * kTile + 3;
  std::vector<uint32_t> idx(n + 1);
  for (uint64_t i = 0; i < idx.size(); ++i) idx[i] = uint32_t(i);
  auto bidx = rt.upload(idx).value();
  auto src = rt.upload(test::random_values<uint64_t>(n, 4)).value();
  Buffer dst = test::poisoned(rt, (n + 1) * 8);
  SECTION("gather: a destination not aligned to its 8-byte element") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return gather.record(cmd, src, bidx, dst.view().sub(4, n * 8), n, 8, 0);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("dst is not addressable or not aligned"));
  }
  SECTION("scatter: indices not 4-byte aligned") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return scatter.record(cmd, src, bidx.view().sub(2, n * 4), dst, n, 8);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("indices is not addressable or not aligned"));
  }
  SECTION("gather: a source view with a size but no device address") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return gather.record(cmd, BufferView{VK_NULL_HANDLE, 0, n * 8, 0}, bidx, dst, n, 8, 0);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("Gather: src is not addressable"));
  }
  SECTION("scatter: a destination view with a size but no device address") {
    auto st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return scatter.record(cmd, src, bidx, BufferView{VK_NULL_HANDLE, 0, (n + 1) * 8, 0}, n, 8);
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("Scatter: dst is not addressable"));
  }
  CHECK(test::still_poisoned(rt, dst, (n + 1) * 8));
}
