// `vkprim bench OP...`: timestamp-timed runs of primitives against the copy shader of the same
// run, at one or more sizes.
#include "bench_harness.hpp"
#include "commands.hpp"

#include <vkprim/elementwise.hpp>

#include <fmt/core.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>

namespace vkprim::cli {

namespace {

struct Options {
  std::vector<std::string> ops;
  std::vector<std::string> sizes{"2^24"};
  uint32_t runs = 20;
  uint32_t warmup = 3;
  std::string json;
  bool no_verify = false;
};

uint32_t hash32(uint64_t i) {
  uint32_t x = uint32_t(i) * 0x9E3779B9u ^ 0x1234567u;
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
  auto t = time_gpu(rt, o.runs, o.warmup,
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
  auto t = time_gpu(rt, o.runs, o.warmup,
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

int run(const Options& o) {
  auto rt = Runtime::create().value();
  std::vector<BenchRecord> records;
  for (const auto& size : o.sizes) {
    const uint64_t n = parse_count(size, 4);
    // The copy shader runs first at every size: every other figure is a fraction of it.
    auto copy = bench_copy(rt, n, o).value();
    records.push_back(copy);
    for (const auto& op : o.ops) {
      if (op == "fill") records.push_back(bench_fill(rt, n, o, copy.t.median_ms).value());
    }
  }
  fmt::print("device: {} ({} {}), subgroup size {}\n", rt.caps().device_name,
             rt.caps().driver_name, rt.caps().driver_info, rt.caps().subgroup_size);
  print_table(records);
  if (!o.json.empty()) {
    std::string lines;
    for (const auto& r : records) lines += to_json(rt, r).dump() + "\n";
    if (o.json == "-") {
      std::fputs(lines.c_str(), stdout);
    } else {
      std::ofstream f(o.json);
      f << lines;
      if (!f) {
        fmt::print(stderr, "vkprim bench: cannot write {}\n", o.json);
        return kExitFailure;
      }
    }
  }
  return kExitOk;
}

}  // namespace

void register_bench(CLI::App& app, Action& action) {
  static Options o;
  auto* cmd = app.add_subcommand("bench", "Time a primitive on the GPU (timestamp queries)");
  cmd->add_option("ops", o.ops, "Operations: copy, fill (copy always runs: it is the yardstick)")
      ->required()
      ->check(CLI::IsMember({"copy", "fill"}));
  cmd->add_option("-n,--n", o.sizes, "Element counts or byte sizes: 2^28, 268435456, 1GiB (repeatable)");
  cmd->add_option("--runs", o.runs, "Timed runs (median and min reported)")->check(CLI::Range(1, 100000));
  cmd->add_option("--warmup", o.warmup, "Untimed runs first");
  cmd->add_option("--json", o.json, "Write JSON lines to FILE, or - for stdout");
  cmd->add_flag("--no-verify", o.no_verify, "Skip checking the results against the CPU");
  cmd->callback([&action] { action = [] { return run(o); }; });
}

}  // namespace vkprim::cli
