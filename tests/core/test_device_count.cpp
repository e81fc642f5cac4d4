// A count on the GPU above the max it was recorded with (Count::on_device) is taken as the max:
// every primitive that takes one writes exactly what the same call with a host count of max
// writes, and reads and writes nothing past max elements.
#include "gpu.hpp"
#include "compaction/policy.hpp"  // detail::tuning: the tiles the sizes straddle
#include "histogram/policy.hpp"
#include "scan/policy.hpp"

#include <catch2/catch.hpp>
#include <vkprim/testing.hpp>

#include <functional>
#include <limits>
#include <vector>

using namespace vkprim;

namespace {

constexpr uint64_t kGuard = 4096;  // elements past max in every input and output

// Inputs of max + kGuard u32 elements whose elements past max differ from those before it, so
// a call that read past max would count, select or sort them.
Buffer input(Runtime& rt, uint64_t max, uint32_t seed, uint32_t modulo = 0) {
  std::vector<uint32_t> x(max + kGuard);
  for (uint64_t i = 0; i < x.size(); ++i) {
    const uint32_t h = test::hash32(i, seed);
    x[i] = i < max ? (modulo ? h % modulo : h) : 0xFFFFFFF0u + (h & 7u);
  }
  return rt.upload(x).value();
}

using Call = std::function<Status(VkCommandBuffer, const Count&, const std::vector<BufferView>&)>;

// Runs `call` on freshly poisoned outputs of out_words[i] u32 words each, with a host count of
// max and then with counts on the GPU above max; requires the same words every time.
void same_as_max(Runtime& rt, uint64_t max, const std::vector<uint64_t>& out_words, const Call& call) {
  const auto run = [&](const Count& c) {
    std::vector<Buffer> outs;
    std::vector<BufferView> views;
    for (uint64_t w : out_words) {
      outs.push_back(test::poisoned(rt, w * 4));
      views.push_back(outs.back().view());
    }
    rt.submit([&](VkCommandBuffer cmd) { return call(cmd, c, views); }).value();
    std::vector<std::vector<uint32_t>> got;
    for (size_t i = 0; i < outs.size(); ++i) got.push_back(rt.download<uint32_t>(outs[i], out_words[i]).value());
    return got;
  };
  const auto want = run(Count(max));
  for (ValueType ct : {ValueType::u32, ValueType::u64})
    for (uint64_t above : {max + 1, max + kGuard, uint64_t(std::numeric_limits<uint32_t>::max()), uint64_t(1) << 40,
                           std::numeric_limits<uint64_t>::max()}) {
      if (ct == ValueType::u32 && above > std::numeric_limits<uint32_t>::max()) continue;
      INFO("count " << above << " on the GPU as " << to_string(ct) << ", max " << max);
      Buffer cnt = test::device_count(rt, above, ct);
      REQUIRE(run(Count::on_device(cnt, max, ct)) == want);
    }
}

// The first `words` u32 words of a buffer.
BufferView first(BufferView b, uint64_t words) { return b.sub(0, words * 4); }

}  // namespace

TEST_CASE("a count on the GPU above its max: scan, reduce, segmented scan", "[indirect][scan]") {
  auto& rt = test::gpu();
  // Three of the largest scan tiles (the subgroup layer's single pass) and some.
  const uint64_t max = 3 * uint64_t(detail::tuning::kScanWorkgroup) * detail::tuning::scan_single_pass_items(1, true) + 77;
  Buffer in = input(rt, max, 1);
  Buffer heads = input(rt, max, 2, 2);
  for (auto st : {ScanStrategy::single_pass, ScanStrategy::reduce_then_scan}) {
    INFO("scan strategy " << int(st));
    ScanOptions o;
    o.strategy = st;
    auto scan = Scan::create(rt.context(), ValueType::u32, ScanOp::sum, o).value();
    auto temp = rt.alloc(scan.temp_bytes(max)).value();
    same_as_max(rt, max, {max + kGuard}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return scan.inclusive(cmd, first(in, max), first(out[0], max), c, temp);
    });
    auto seg = SegmentedScan::create(rt.context(), ValueType::u32, o).value();
    auto seg_temp = rt.alloc(seg.temp_bytes(max)).value();
    same_as_max(rt, max, {max + kGuard}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return seg.exclusive(cmd, first(in, max), first(heads, max), first(out[0], max), c, seg_temp);
    });
  }
  auto reduce = Reduce::create(rt.context(), ValueType::u32, ScanOp::max).value();
  auto temp = rt.alloc(reduce.temp_bytes(max)).value();
  same_as_max(rt, max, {16}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
    return reduce.record(cmd, first(in, max), first(out[0], 1), c, temp);
  });
}

TEST_CASE("a count on the GPU above its max: compaction and the offset allocator", "[indirect][select]") {
  auto& rt = test::gpu();
  const uint64_t max = 5 * uint64_t(detail::tuning::kSelectWorkgroup) * detail::tuning::select_items(4) / 2 + 13;
  Buffer in = input(rt, max, 3), flags = input(rt, max, 4, 2), runs = input(rt, max, 5, 3);
  for (bool sg : {true, false}) {
    SelectOptions o;
    o.use_subgroup_ops = sg;
    INFO("subgroup operations " << sg);
    auto sel = Select::create(rt.context(), ValueType::u32, o).value();
    auto temp = rt.alloc(sel.temp_bytes(max)).value();
    const std::vector<uint64_t> outs{max + kGuard, 16};
    same_as_max(rt, max, outs, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return sel.flagged(cmd, first(in, max), first(flags, max), first(out[0], max), first(out[1], 1), c, temp);
    });
    same_as_max(rt, max, outs, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return sel.predicated(cmd, first(in, max), Predicate::less(0x80000000u), first(out[0], max), first(out[1], 1), c, temp);
    });
    same_as_max(rt, max, outs, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return sel.partition_flagged(cmd, first(in, max), first(flags, max), first(out[0], max), first(out[1], 1), c, temp);
    });
    same_as_max(rt, max, outs, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return sel.unique(cmd, first(runs, max), first(out[0], max), first(out[1], 1), c, temp);
    });
  }
  auto ubk = UniqueByKey::create(rt.context(), ValueType::u32, ValueType::u32).value();
  auto ubk_temp = rt.alloc(ubk.temp_bytes(max)).value();
  same_as_max(rt, max, {max + kGuard, max + kGuard, 16}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
    return ubk.record(cmd, first(runs, max), first(in, max), first(out[0], max), first(out[1], max), first(out[2], 1), c, ubk_temp);
  });
  Buffer counts = input(rt, max, 6, 5);
  auto alloc = OffsetAllocator::create(rt.context()).value();
  auto alloc_temp = rt.alloc(alloc.temp_bytes(max)).value();
  same_as_max(rt, max, {max + kGuard, 16}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
    return alloc.record(cmd, first(counts, max), first(out[0], max), first(out[1], 1), c, alloc_temp);
  });
}

TEST_CASE("a count on the GPU above its max: histogram", "[indirect][histogram]") {
  auto& rt = test::gpu();
  const uint64_t max = 3 * uint64_t(detail::tuning::kHistogramWorkgroup) * detail::tuning::kHistogramItems + 5;
  Buffer samples = input(rt, max, 7, 300);
  for (uint32_t bins : {16u, 100000u}) {  // privatized in shared memory, and global atomics
    INFO(bins << " bins");
    auto h = Histogram::create_even(rt.context(), ValueType::u32, bins, 0, 0xFFFFFFFFu).value();
    same_as_max(rt, max, {bins}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return h.record(cmd, first(samples, max), out[0], c);
    });
  }
}

TEST_CASE("a count on the GPU above its max: radix sort", "[indirect][sort]") {
  auto& rt = test::gpu();
  SortOptions pairs;
  pairs.value_bytes = 4;
  const uint64_t max = 3 * RadixSort::create(rt.context(), ValueType::u32, pairs).value().tile_keys(1, true) + 11;
  Buffer keys = input(rt, max, 8), values = input(rt, max, 9);
  for (int variant = 0; variant < 3; ++variant) {
    SortOptions o;
    o.value_bytes = 4;
    o.algorithm = variant == 1 ? SortAlgorithm::onesweep : SortAlgorithm::reduce_then_scan;
    testing::SortKnobs k;
    k.wide_offsets = variant == 2;
    INFO("variant " << variant);
    auto sort = testing::create_radix_sort(rt.context(), ValueType::u32, o, k).value();
    auto temp = rt.alloc(sort.temp_bytes(max)).value();
    same_as_max(rt, max, {max + kGuard}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return sort.sort_keys(cmd, first(keys, max), first(out[0], max), c, temp);
    });
    same_as_max(rt, max, {max + kGuard, max + kGuard}, [&](VkCommandBuffer cmd, const Count& c, const std::vector<BufferView>& out) {
      return sort.sort_pairs(cmd, first(keys, max), first(values, max), first(out[0], max), first(out[1], max), c, temp);
    });
  }
}
