// `vkprim bench OP...`: timestamp-timed runs of primitives against the copy shader of the same
// run, at one or more sizes.
#include "bench_harness.hpp"
#include "commands.hpp"

#include "core/atomic_file.hpp"

#include <vkprim/elementwise.hpp>
#include <vkprim/histogram.hpp>
#include <vkprim/scan.hpp>
#include <vkprim/select.hpp>
#include <vkprim/sort.hpp>
#include <vkprim/summed_area.hpp>
#include <vkprim/testing.hpp>  // the tuning aids: --subgroup, --sort-wide

#include <fmt/core.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <algorithm>
#include <numeric>

namespace vkprim::cli {

namespace {

struct Options {
  std::vector<std::string> ops;
  std::vector<std::string> sizes{"2^24"};
  uint32_t runs = 20;
  uint32_t warmup = 3;
  uint32_t back_to_back = 1;
  std::string json;
  bool no_verify = false;
  std::string strategy = "auto";
  bool no_subgroup = false;
  bool force_subgroup = false;  // testing::ScanKnobs::force_subgroup_ops
  uint32_t range_groups = 0;
  uint32_t workgroup = 0;  // testing::ScanKnobs::single_pass_workgroup, SelectKnobs::workgroup
  bool passes = false;
  bool pipeline_stats = false;
  std::string sort_algorithm = "auto";
  bool sort_wide = false;  // testing::SortKnobs::wide_offsets

  ScanOptions scan_options() const {
    ScanOptions so;
    if (strategy == "single-pass") so.strategy = ScanStrategy::single_pass;
    if (strategy == "reduce-then-scan") so.strategy = ScanStrategy::reduce_then_scan;
    so.use_subgroup_ops = !no_subgroup;
    so.range_groups = range_groups;
    return so;
  }
  testing::ScanKnobs scan_knobs() const {
    testing::ScanKnobs k;
    k.force_subgroup_ops = force_subgroup;
    k.single_pass_workgroup = workgroup;
    return k;
  }
};

uint32_t hash32(uint64_t i, uint32_t seed = 0) {
  uint32_t x = uint32_t(i) * 0x9E3779B9u ^ (0x1234567u + seed);
  x ^= x >> 16; x *= 0x85EBCA6Bu; x ^= x >> 13; x *= 0xC2B2AE35u; x ^= x >> 16;
  return x;
}

// The copy shader over n u32: the yardstick of every other figure.
Result<BenchRecord> bench_copy(Runtime& rt, uint64_t n, const Options& o) {
  const uint64_t bytes = n * 4;
  std::vector<uint32_t> host(n);
  for (uint64_t i = 0; i < n; ++i) host[i] = hash32(i);
  auto src = rt.upload(host);
  if (!src) return src.error();
  auto dst = rt.alloc(bytes);
  if (!dst) return dst.error();
  auto copy = Copy::create(rt.context());
  if (!copy) return copy.error();
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back,
                    [&](VkCommandBuffer cmd) { return copy->record(cmd, *src, *dst, bytes); });
  if (!t) return t.error();
  BenchRecord r{"copy", "u32", n, 2.0 * double(bytes), *t, t->median_ms};
  if (!o.no_verify) {
    auto back = rt.download<uint32_t>(*dst, n);
    if (!back) return back.error();
    if (*back != host) return make_error(Errc::vulkan_error, "copy: verification failed");
    r.verified = true;
  }
  return r;
}

Result<BenchRecord> bench_fill(Runtime& rt, uint64_t n, const Options& o, double copy_ms) {
  auto dst = rt.alloc(n * 4);
  if (!dst) return dst.error();
  auto fill = Fill::create(rt.context());
  if (!fill) return fill.error();
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back,
                    [&](VkCommandBuffer cmd) { return fill->record(cmd, *dst, 0xC0FFEEu); });
  if (!t) return t.error();
  // Fill only writes: its copy reference is half a copy of the same bytes.
  BenchRecord r{"fill", "u32", n, 4.0 * double(n), *t, copy_ms / 2};
  if (!o.no_verify) {
    auto back = rt.download<uint32_t>(*dst, n);
    if (!back) return back.error();
    for (auto v : *back)
      if (v != 0xC0FFEEu) return make_error(Errc::vulkan_error, "fill: verification failed");
    r.verified = true;
  }
  return r;
}

template <class T>
std::vector<T> bench_values(uint64_t n) {
  std::vector<T> v(n);
  for (uint64_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>) v[i] = T(hash32(i) % 1000) * T(0.001);
    else v[i] = T(hash32(i) % 1000);
  }
  return v;
}

// Scans: exclusive sum over u32/u64/f32, or segmented (one head in 64), or the deterministic
// mode. Bytes model: input read once, output written once (+ head flags for segmented).
template <class T>
Result<BenchRecord> bench_scan(Runtime& rt, uint64_t n, const Options& o, double copy_ms,
                               const std::string& name, ScanOptions so, bool segmented) {
  auto x = bench_values<T>(n);
  auto in = rt.upload(x);
  if (!in) return in.error();
  auto out = rt.alloc(n * sizeof(T));
  if (!out) return out.error();
  std::vector<uint32_t> heads;
  Buffer heads_buf;
  std::optional<Scan> scan;
  std::optional<SegmentedScan> seg;
  uint64_t temp_bytes = 0;
  if (segmented) {
    heads.resize(n);
    for (uint64_t i = 0; i < n; ++i) heads[i] = hash32(i, 3) % 64 == 0;
    auto h = rt.upload(heads);
    if (!h) return h.error();
    heads_buf = std::move(*h);
    auto s = testing::create_segmented_scan(rt.context(), value_type_of<T>(), so, o.scan_knobs());
    if (!s) return s.error();
    seg.emplace(std::move(*s));
    temp_bytes = seg->temp_bytes(n);
  } else {
    auto s = testing::create_scan(rt.context(), value_type_of<T>(), ScanOp::sum, so, o.scan_knobs());
    if (!s) return s.error();
    scan.emplace(std::move(*s));
    temp_bytes = scan->temp_bytes(n);
  }
  auto temp = rt.alloc(temp_bytes);
  if (!temp) return temp.error();
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back, [&](VkCommandBuffer cmd) {
    return segmented ? seg->exclusive(cmd, *in, heads_buf, *out, n, *temp)
                     : scan->exclusive(cmd, *in, *out, n, *temp);
  });
  if (!t) return t.error();
  BenchRecord r{name, to_string(value_type_of<T>()), n,
                double(n) * (2 * sizeof(T) + (segmented ? 4 : 0)), *t,
                copy_ms * double(2 * sizeof(T) + (segmented ? 4 : 0)) / 8.0};
  r.extra["strategy"] = segmented ? "default" : (scan->strategy() == ScanStrategy::single_pass ? "single_pass" : "reduce_then_scan");
  r.extra["subgroup_ops"] = segmented ? false : scan->uses_subgroup_ops();
  if (!o.no_verify) {
    auto got = rt.download<T>(*out, n);
    if (!got) return got.error();
    // Integers: exact (wrapping) running sums. Floats: a double reference, with a tolerance
    // scaled to the sum of magnitudes (the GPU adds in another order than a serial loop).
    T acc = T(0);
    double acc_d = 0, abs_d = 0;
    uint64_t bad = 0, first_bad = 0;
    T first_got{}, first_want{};
    for (uint64_t i = 0; i < n; ++i) {
      if (segmented && heads[i]) acc = T(0), acc_d = 0, abs_d = 0;
      const T want = std::is_floating_point_v<T> ? T(acc_d) : acc;
      const bool ok = std::is_floating_point_v<T>
                          ? std::abs(double((*got)[i]) - acc_d) <= 1e-4 * abs_d + 1e-6
                          : (*got)[i] == want;
      acc = T(acc + x[i]);
      acc_d += double(x[i]);
      abs_d += std::abs(double(x[i]));
      if (!ok && bad++ == 0) {
        first_bad = i;
        first_got = (*got)[i];
        first_want = want;
      }
    }
    if (bad)
      return make_error(Errc::vulkan_error,
                        fmt::format("{}: verification failed: {} wrong, first at {} (got {}, want {})",
                                    name, bad, first_bad, first_got, first_want));
    r.verified = true;
  }
  return r;
}

template <class T>
Result<BenchRecord> bench_reduce(Runtime& rt, uint64_t n, const Options& o, double copy_ms) {
  auto x = bench_values<T>(n);
  auto in = rt.upload(x);
  if (!in) return in.error();
  auto out = rt.alloc(16);
  if (!out) return out.error();
  auto red = testing::create_reduce(rt.context(), value_type_of<T>(), ScanOp::sum, o.scan_options(),
                                    o.scan_knobs());
  if (!red) return red.error();
  auto temp = rt.alloc(red->temp_bytes(n));
  if (!temp) return temp.error();
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back, [&](VkCommandBuffer cmd) { return red->record(cmd, *in, *out, n, *temp); });
  if (!t) return t.error();
  BenchRecord r{"reduce", to_string(value_type_of<T>()), n, double(n) * sizeof(T), *t,
                copy_ms * double(sizeof(T)) / 8.0};
  if (!o.no_verify) {
    auto got = rt.download<T>(*out, 1);
    if (!got) return got.error();
    double ref = 0;
    for (T v : x) ref += double(v);
    const bool ok = std::is_floating_point_v<T> ? std::abs(double((*got)[0]) - ref) <= 1e-4 * ref
                                                : (*got)[0] == T(ref);
    if (!ok) return make_error(Errc::vulkan_error, "reduce: verification failed");
    r.verified = true;
  }
  return r;
}

// Radix sort of random keys (u32 or u64), keys only or with values of type V (the index; u64
// values with u64 keys are the CSR build's f64 sorts). Bytes model: keys (and values) read once
// and written once, as for CUB's figures.
template <class K, class V = uint32_t>
Result<BenchRecord> bench_sort(Runtime& rt, uint64_t n, const Options& o, double copy_ms, bool pairs) {
  std::vector<K> keys(n);
  for (uint64_t i = 0; i < n; ++i)
    keys[i] = sizeof(K) == 4 ? K(hash32(i)) : K((uint64_t(hash32(i)) << 32) | hash32(i, 7));
  std::vector<V> vals(pairs ? n : 0);
  std::iota(vals.begin(), vals.end(), V(0));
  auto kin = rt.upload(keys);
  if (!kin) return kin.error();
  auto kout = rt.alloc(n * sizeof(K));
  if (!kout) return kout.error();
  Buffer vin, vout;
  if (pairs) {
    auto a = rt.upload(vals);
    if (!a) return a.error();
    vin = std::move(*a);
    auto b = rt.alloc(n * sizeof(V));
    if (!b) return b.error();
    vout = std::move(*b);
  }
  SortOptions so;
  so.value_bytes = pairs ? sizeof(V) : 0;
  so.use_subgroup_ops = !o.no_subgroup;
  so.algorithm = sort_algorithm_named(o.sort_algorithm);
  testing::SortKnobs knobs;
  knobs.wide_offsets = o.sort_wide;
  auto sort = testing::create_radix_sort(rt.context(), value_type_of<K>(), so, knobs);
  if (!sort) return sort.error();
  auto temp = rt.alloc(sort->temp_bytes(n));
  if (!temp) return temp.error();
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back, [&](VkCommandBuffer cmd) {
    return pairs ? sort->sort_pairs(cmd, *kin, vin, *kout, vout, n, *temp) : sort->sort_keys(cmd, *kin, *kout, n, *temp);
  });
  if (!t) return t.error();
  const double per = 2.0 * (sizeof(K) + (pairs ? sizeof(V) : 0));
  BenchRecord r{pairs ? "sort pairs" : "sort keys", to_string(value_type_of<K>()), n, double(n) * per, *t,
                copy_ms * per / 8.0};
  r.extra["algorithm"] = sort->algorithm(n, pairs) == SortAlgorithm::onesweep ? "onesweep per 8-bit digit"
                                                                       : "reduce-then-scan per 8-bit digit";
  r.extra["sort_algorithm_option"] = o.sort_algorithm;
  r.extra["wide_offsets"] = o.sort_wide || n > 0xFFFFFFFFull;
  r.extra["digit_passes"] = sizeof(K) * 8 / 8;
  r.extra["value_bytes"] = pairs ? sizeof(V) : 0;
  if (!o.no_verify) {
    auto got = rt.download<K>(*kout, n);
    if (!got) return got.error();
    std::vector<K> want = keys;
    std::sort(want.begin(), want.end());
    if (*got != want) return make_error(Errc::vulkan_error, "sort: verification failed (keys)");
    if (pairs) {
      auto v = rt.download<V>(vout, n);
      if (!v) return v.error();
      for (uint64_t i = 0; i < n; ++i)
        if ((*v)[i] >= n || keys[(*v)[i]] != want[i] || (i && want[i] == want[i - 1] && (*v)[i] <= (*v)[i - 1]))
          return make_error(Errc::vulkan_error, fmt::format("sort: verification failed (value {})", i));
    }
    r.verified = true;
  }
  return r;
}

// Select with CUB's anchor predicate, (x & 1) == 0 over random u32: about half selected.
// Bytes model: input read once, the selected half written once. Partition (the same predicate,
// the rejected half after the selected, in input order or, as CUB's DevicePartition::If,
// reversed): input read once, every element written once.
enum class SelectBench { select, partition, partition_reversed };
Result<BenchRecord> bench_select(Runtime& rt, uint64_t n, const Options& o, double copy_ms, SelectBench kind) {
  const bool partition = kind != SelectBench::select;
  const PartitionOrder order = kind == SelectBench::partition_reversed ? PartitionOrder::rejected_reversed
                                                                       : PartitionOrder::stable;
  std::vector<uint32_t> x(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = hash32(i);
  auto in = rt.upload(x);
  if (!in) return in.error();
  auto out = rt.alloc(n * 4);
  if (!out) return out.error();
  auto count = rt.alloc(16);
  if (!count) return count.error();
  SelectOptions so;
  so.use_subgroup_ops = !o.no_subgroup;
  testing::SelectKnobs sk;
  sk.workgroup = o.workgroup;
  auto sel = testing::create_select(rt.context(), ValueType::u32, so, sk);
  if (!sel) return sel.error();
  auto temp = rt.alloc(sel->temp_bytes(n));
  if (!temp) return temp.error();
  const Predicate pred = Predicate::mask_equal(1u, 0u);
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back, [&](VkCommandBuffer cmd) {
    return partition ? sel->partition_predicated(cmd, *in, pred, *out, *count, n, *temp, order)
                     : sel->predicated(cmd, *in, pred, *out, *count, n, *temp);
  });
  if (!t) return t.error();
  std::vector<uint32_t> want = x;
  const auto mid = std::stable_partition(want.begin(), want.end(), [](uint32_t v) { return (v & 1u) == 0; });
  const auto selected = uint64_t(mid - want.begin());
  if (order == PartitionOrder::rejected_reversed) std::reverse(mid, want.end());
  if (!partition) want.resize(selected);
  const double bytes = double(n) * 4 + double(want.size()) * 4;
  const char* name = kind == SelectBench::select      ? "select"
                     : kind == SelectBench::partition ? "partition"
                                                      : "partition rejected reversed";
  BenchRecord r{name, "u32", n, bytes, *t, copy_ms * bytes / (8.0 * double(n))};
  r.extra["selected"] = selected;
  if (!o.no_verify) {
    auto k = rt.download<uint32_t>(*count, 1);
    if (!k) return k.error();
    auto got = rt.download<uint32_t>(*out, want.size());
    if (!got) return got.error();
    if ((*k)[0] != selected || *got != want)
      return make_error(Errc::vulkan_error, std::string(r.operation) + ": verification failed");
    r.verified = true;
  }
  return r;
}

// Histogram, 256 even bins over the full u32 range. Bytes model: samples read once.
Result<BenchRecord> bench_histogram(Runtime& rt, uint64_t n, const Options& o, double copy_ms) {
  std::vector<uint32_t> x(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = hash32(i);
  auto in = rt.upload(x);
  if (!in) return in.error();
  auto out = rt.alloc(256 * 4);
  if (!out) return out.error();
  auto h = Histogram::create_even(rt.context(), ValueType::u32, 256, 0.0, 4294967296.0);
  if (!h) return h.error();
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back, [&](VkCommandBuffer cmd) { return h->record(cmd, *in, *out, n); });
  if (!t) return t.error();
  BenchRecord r{"histogram", "u32", n, double(n) * 4, *t, copy_ms / 2};
  r.extra["bins"] = 256;
  if (!o.no_verify) {
    auto got = rt.download<uint32_t>(*out, 256);
    if (!got) return got.error();
    std::vector<uint32_t> want(256);
    for (uint32_t v : x) ++want[v >> 24];
    if (*got != want) return make_error(Errc::vulkan_error, "histogram: verification failed");
    r.verified = true;
  }
  return r;
}

// Summed-area table of a square-ish u32 image of n elements (width the power of two nearest
// sqrt(n), height n / width), u32 sums. Bytes model: two copies of the image, the least a
// row pass and a column pass can move (vkprim's column pass reads the sums twice: two and a
// half copies).
Result<BenchRecord> bench_sat(Runtime& rt, uint64_t n, const Options& o, double copy_ms) {
  uint64_t width = 1;
  while (width * width * 2 <= n) width *= 2;
  const uint64_t height = std::max<uint64_t>(1, n / width);
  n = width * height;
  std::vector<uint32_t> x(n);
  for (uint64_t i = 0; i < n; ++i) x[i] = hash32(i) & 0xFFu;
  auto in = rt.upload(x);
  if (!in) return in.error();
  auto out = rt.alloc(n * 4);
  if (!out) return out.error();
  auto sat = SummedAreaTable::create(rt.context(), ValueType::u32);
  if (!sat) return sat.error();
  VKPRIM_TRY(sat->reserve(width, height));
  auto t = time_gpu(rt, o.runs, o.warmup, o.back_to_back,
                    [&](VkCommandBuffer cmd) { return sat->record(cmd, *in, *out, width, height); });
  if (!t) return t.error();
  BenchRecord r{"summed-area table", "u32", n, double(n) * 16, *t, copy_ms * 2};
  r.extra["width"] = width;
  r.extra["height"] = height;
  if (!o.no_verify) {
    auto got = rt.download<uint32_t>(*out, n);
    if (!got) return got.error();
    std::vector<uint32_t> above(width, 0);
    for (uint64_t y = 0; y < height; ++y) {
      uint32_t row = 0;
      for (uint64_t xi = 0; xi < width; ++xi) {
        row += x[y * width + xi];
        above[xi] += row;
        if ((*got)[y * width + xi] != above[xi])
          return make_error(Errc::vulkan_error, "summed-area table: verification failed");
      }
    }
    r.verified = true;
  }
  return r;
}

int run(const Options& o) {
  if (auto problem = device_selector_problem(); !problem.empty())
    return report(make_error(Errc::invalid_argument, problem), kExitUsage);
  CreateInfo ci;
  ci.pipeline_statistics = o.pipeline_stats;
  auto rt = Runtime::create(ci).value();
  std::vector<BenchRecord> records;
  for (const auto& size : o.sizes) {
    const uint64_t n = parse_count(size, 4).value();  // checked by count_check
    // The copy shader runs first at every size: every other figure is a fraction of it.
    auto copy = bench_copy(rt, n, o).value();
    records.push_back(copy);
    for (const auto& op : o.ops) {
      const double c = copy.t.median_ms;
      const ScanOptions so = o.scan_options();
      ScanOptions deterministic = so;
      deterministic.strategy = ScanStrategy::automatic;
      deterministic.deterministic = true;
      if (op == "fill") records.push_back(bench_fill(rt, n, o, c).value());
      else if (op == "scan") records.push_back(bench_scan<uint32_t>(rt, n, o, c, "scan exclusive", so, false).value());
      else if (op == "scan-f32") records.push_back(bench_scan<float>(rt, n, o, c, "scan exclusive", so, false).value());
      else if (op == "scan-u64") records.push_back(bench_scan<uint64_t>(rt, n / 2, o, c, "scan exclusive", so, false).value());
      else if (op == "scan-deterministic") records.push_back(bench_scan<float>(rt, n, o, c, "scan deterministic", deterministic, false).value());
      else if (op == "segmented-scan") records.push_back(bench_scan<float>(rt, n, o, c, "segmented scan", so, true).value());
      else if (op == "reduce") records.push_back(bench_reduce<uint32_t>(rt, n, o, c).value());
      else if (op == "reduce-f32") records.push_back(bench_reduce<float>(rt, n, o, c).value());
      else if (op == "sort") records.push_back(bench_sort<uint32_t>(rt, n, o, c, false).value());
      else if (op == "sort-pairs") records.push_back(bench_sort<uint32_t>(rt, n, o, c, true).value());
      else if (op == "sort-u64") records.push_back(bench_sort<uint64_t>(rt, n / 2, o, c, false).value());
      else if (op == "sort-u64-pairs") records.push_back(bench_sort<uint64_t, uint64_t>(rt, n / 2, o, c, true).value());
      else if (op == "select") records.push_back(bench_select(rt, n, o, c, SelectBench::select).value());
      else if (op == "partition") records.push_back(bench_select(rt, n, o, c, SelectBench::partition).value());
      else if (op == "partition-reversed")
        records.push_back(bench_select(rt, n, o, c, SelectBench::partition_reversed).value());
      else if (op == "histogram") records.push_back(bench_histogram(rt, n, o, c).value());
      else if (op == "sat") records.push_back(bench_sat(rt, n, o, c).value());
    }
  }
  for (auto& r : records) r.extra["back_to_back"] = o.back_to_back;
  fmt::print("device: {} ({} {}), subgroup size {}\n", rt.caps().device_name,
             rt.caps().driver_name, rt.caps().driver_info, rt.caps().subgroup_size);
  if (o.back_to_back > 1)
    fmt::print("times per call: {} calls recorded back to back between two timestamps\n",
               o.back_to_back);
  print_table(records, o.passes);
  const auto stats = rt.context().pipeline_statistics();
  if (o.pipeline_stats) print_pipeline_statistics(stats);
  if (!o.json.empty()) {
    std::string lines;
    for (const auto& r : records) lines += to_json(rt, r).dump() + "\n";
    for (const auto& ps : stats) lines += to_json(ps).dump() + "\n";
    if (o.json == "-") {
      std::fputs(lines.c_str(), stdout);  // a failed write is reported by main
    } else if (auto written = vkprim::detail::write_file_atomically(o.json, lines); !written) {
      return report(written.error());
    }
  }
  return kExitOk;
}

}  // namespace

void register_bench(CLI::App& app, Action& action) {
  static Options o;
  auto* cmd = app.add_subcommand("bench", "Time a primitive on the GPU (timestamp queries)");
  cmd->add_option("ops", o.ops,
                  "Operations: copy fill scan scan-f32 scan-u64 scan-deterministic segmented-scan "
                  "reduce reduce-f32 sort sort-pairs sort-u64 sort-u64-pairs (u64 keys, u64 values) select partition partition-reversed (the rejected elements in reverse order, as CUB's) histogram sat (a summed-area table of a u32 image of n elements) (copy always "
                  "runs: it is the yardstick). u64 runs at n/2 (the same key bytes).")
      ->required()
      ->check(CLI::IsMember({"copy", "fill", "scan", "scan-f32", "scan-u64", "scan-deterministic",
                             "segmented-scan", "reduce", "reduce-f32", "sort", "sort-pairs",
                             "sort-u64", "sort-u64-pairs", "select", "partition", "partition-reversed",
                             "histogram", "sat"}));
  cmd->add_option("-n,--n", o.sizes, "Element counts or byte sizes: 2^28, 268435456, 1GiB (repeatable)")
      ->check(count_check(4));
  cmd->add_option("--runs", o.runs, "Timed runs (median and min reported)")->check(decimal_in(1, 100000));
  cmd->add_option("--warmup", o.warmup, "Untimed runs first")->check(decimal_in(0, 100000));
  cmd->add_option("--back-to-back", o.back_to_back,
                  "Time K calls recorded back to back (a full barrier between them, no timestamp) "
                  "and report the time per call: what a caller recording many calls gets")
      ->check(decimal_in(1, 10000));
  cmd->add_option("--json", o.json,
                  "Write JSON lines to FILE (replaced only once complete), or - for stdout");
  cmd->add_flag("--no-verify", o.no_verify, "Skip checking the results against the CPU");
  cmd->add_option("--strategy", o.strategy, "Scan strategy: auto, single-pass, reduce-then-scan")
      ->check(CLI::IsMember({"auto", "single-pass", "reduce-then-scan"}));
  auto* no_sg = cmd->add_flag("--no-subgroup", o.no_subgroup, "Scans and reductions without subgroup operations");
  cmd->add_flag("--subgroup", o.force_subgroup,
                "Scans and reductions on the subgroup layer even where tuning prefers shared memory")
      ->excludes(no_sg);
  cmd->add_option("--range-groups", o.range_groups,
                  "Scans and reductions: ranges of tiles for reduce-then-scan (0: tuned default)")
      ->check(decimal_in(0, UINT32_MAX));
  cmd->add_option("--workgroup", o.workgroup,
                  "Scans' single pass and compaction: the workgroup size (0: tuned default)")
      ->check(CLI::IsMember({0u, 64u, 128u, 256u, 512u, 1024u}));
  add_sort_algorithm_option(cmd, o.sort_algorithm, "Radix sort");
  cmd->add_flag("--sort-wide", o.sort_wide,
                "Radix sort: the 64-bit offset passes of sorts of 2^32 keys and more, at any size "
                "(reduce-then-scan; to measure what they cost)");
  cmd->add_flag("--passes", o.passes, "Print each operation's per-pass GPU times (always in --json)");
  cmd->add_flag("--pipeline-stats", o.pipeline_stats,
                "Capture and print the driver's statistics of every pipeline (registers, ...; "
                "VK_KHR_pipeline_executable_properties), also as JSON lines");
  cmd->callback([&action] { action = [] { return run(o); }; });
}

}  // namespace vkprim::cli
