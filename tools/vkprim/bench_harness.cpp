#include "bench_harness.hpp"

#include "commands.hpp"

#include <vkprim/barrier.hpp>
#include <vkprim/timing.hpp>

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

namespace vkprim::cli {

CLI::Option* add_sort_algorithm_option(CLI::App* cmd, std::string& name, const std::string& what) {
  return cmd->add_option("--sort-algorithm", name, what + ": auto, onesweep, reduce-then-scan")
      ->check(CLI::IsMember({"auto", "onesweep", "reduce-then-scan"}))
      ->capture_default_str();
}

SortAlgorithm sort_algorithm_named(const std::string& name) {
  return name == "onesweep"           ? SortAlgorithm::onesweep
         : name == "reduce-then-scan" ? SortAlgorithm::reduce_then_scan
                                      : SortAlgorithm::automatic;
}

Result<uint64_t> parse_count(const std::string& text, uint32_t element_bytes) {
  const auto bad = [&](const std::string& why) {
    return make_error(Errc::invalid_argument,
                      fmt::format("'{}': {} (expected a count such as 268435456, 2^k with k <= 62, or a "
                                  "size such as 64MiB; units B, KiB/K, MiB/M, GiB/G)",
                                  text, why));
  };
  uint64_t count = 0;
  if (const size_t caret = text.find('^'); caret != std::string::npos) {
    const auto base = parse_decimal(std::string_view(text).substr(0, caret));
    const auto exp = parse_decimal(std::string_view(text).substr(caret + 1));
    if (!base || !exp) return bad("not a power 2^k");
    if (*base != 2 || *exp > 62) return bad("only powers of two up to 2^62");
    count = uint64_t(1) << *exp;
  } else {
    const size_t digits = text.find_first_not_of("0123456789");
    const auto value = parse_decimal(std::string_view(text).substr(0, digits));
    if (!value) return bad(text.empty() || digits == 0 ? "not a number" : "beyond 64 bits");
    count = *value;
    if (digits != std::string::npos) {
      const std::string unit = text.substr(digits);
      uint64_t scale = 0;
      if (unit == "B") scale = 1;
      else if (unit == "KiB" || unit == "K") scale = uint64_t(1) << 10;
      else if (unit == "MiB" || unit == "M") scale = uint64_t(1) << 20;
      else if (unit == "GiB" || unit == "G") scale = uint64_t(1) << 30;
      else return bad("unknown unit '" + unit + "'");
      if (*value > UINT64_MAX / scale) return bad("beyond 64 bits of bytes");
      count = *value * scale / element_bytes;
    }
  }
  if (count == 0) return bad("not even one element");
  const uint64_t memory = host_memory_bytes();
  if (count > UINT64_MAX / element_bytes || (memory && count * element_bytes > memory))
    return bad(fmt::format("{} elements of {} bytes do not fit this machine's {} of memory", count,
                           element_bytes, format_bytes(double(memory))));
  return count;
}

CLI::Validator count_check(uint32_t element_bytes) {
  return CLI::Validator(
      [element_bytes](std::string& text) -> std::string {
        auto n = parse_count(text, element_bytes);
        return n ? std::string() : n.error().message;
      },
      "COUNT");
}

namespace {

// Whether a run of timings changes level part-way (the median of its first quarter and of its
// last quarter differ by more than 15 %): the GPU's clocks moved during the measurement.
bool changes_level(std::vector<double> runs) {
  if (runs.size() < 8) return false;
  const size_t q = runs.size() / 4;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double first = median({runs.begin(), runs.begin() + ptrdiff_t(q)});
  const double last = median({runs.end() - ptrdiff_t(q), runs.end()});
  return std::max(first, last) > 1.15 * std::min(first, last);
}

}  // namespace

Result<Timing> time_gpu(Runtime& rt, uint32_t runs, uint32_t warmup, uint32_t back_to_back,
                        const std::function<Status(VkCommandBuffer)>& op) {
  runs = std::max(runs, 1u);
  back_to_back = std::max(back_to_back, 1u);
  const auto& ctx = rt.context();
  // Warm up for at least `warmup` runs and one second, in submissions that grow until each
  // keeps the GPU busy for 50 ms: after the host-side work between operations (uploads,
  // verification) the GPU's clocks have dropped, and latency-bound passes timed straight away
  // run several times slower until they recover, which takes a few hundred milliseconds.
  const auto start = std::chrono::steady_clock::now();
  uint32_t done = 0, batch = std::max(warmup, 1u);
  while (done < warmup || std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
    const auto t0 = std::chrono::steady_clock::now();
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) -> Status {
      for (uint32_t i = 0; i < batch; ++i) {
        VKPRIM_TRY(op(cmd));
        full_barrier(ctx, cmd);
      }
      return {};
    }));
    done += batch;
    if (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(50) && batch < 4096) batch *= 2;
  }
  auto timer = GpuTimer::create(ctx, 2 * runs);
  if (!timer) return timer.error();
  // The timed runs, again (at most twice more) if their level changed part-way.
  std::vector<double> in_order(runs);
  uint32_t retimed = 0;
  for (;; ++retimed) {
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) -> Status {
      timer->reset(cmd);
      for (uint32_t i = 0; i < runs; ++i) {
        timer->stamp(cmd, 2 * i);
        for (uint32_t k = 0; k < back_to_back; ++k) {
          if (k > 0) full_barrier(ctx, cmd);
          VKPRIM_TRY(op(cmd));
        }
        timer->stamp(cmd, 2 * i + 1);
        full_barrier(ctx, cmd);
      }
      return {};
    }));
    auto ms = timer->read_ms(2 * runs);
    if (!ms) return ms.error();
    for (uint32_t i = 0; i < runs; ++i)
      in_order[i] = ((*ms)[2 * i + 1] - (*ms)[2 * i]) / double(back_to_back);
    if (retimed == 2 || !changes_level(in_order)) break;
  }
  std::vector<double> d = in_order;
  std::sort(d.begin(), d.end());
  Timing timing{d[d.size() / 2], d.front(), std::move(in_order), {}, retimed};

  // Per-pass times: each profiled run in its own submission, passes summed by name.
  auto profiler = PassProfiler::create(ctx, 4096);
  if (!profiler) return profiler.error();
  const uint32_t profiled = std::min(runs, 5u);
  std::vector<std::vector<double>> samples;
  for (uint32_t run = 0; run < profiled; ++run) {
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) -> Status {
      profiler->begin(cmd);
      Status s = op(cmd);
      profiler->end();
      return s;
    }));
    auto passes = profiler->read();
    if (!passes) return passes.error();
    std::vector<double> totals;
    for (const auto& p : *passes) {
      auto it = std::find_if(timing.passes.begin(), timing.passes.end(),
                             [&](const PassTime& t) { return t.name == p.name; });
      const size_t k = size_t(it - timing.passes.begin());
      if (it == timing.passes.end()) timing.passes.push_back({p.name, 0, 0});
      if (run == 0) ++timing.passes[k].dispatches;
      if (totals.size() <= k) totals.resize(k + 1, 0.0);
      totals[k] += p.ms;
    }
    samples.push_back(std::move(totals));
  }
  for (size_t k = 0; k < timing.passes.size(); ++k) {
    std::vector<double> v;
    for (const auto& s : samples) v.push_back(k < s.size() ? s[k] : 0.0);
    std::sort(v.begin(), v.end());
    timing.passes[k].ms = v[v.size() / 2];
  }
  return timing;
}

nlohmann::json to_json(const Runtime& rt, const BenchRecord& r) {
  const auto& c = rt.caps();
  const double s = r.t.median_ms * 1e-3;
  nlohmann::json j = {{"device", c.device_name},
                      {"driver", c.driver_name + " " + c.driver_info},
                      {"subgroup_size", c.subgroup_size},
                      {"operation", r.operation},
                      {"type", r.type},
                      {"n", r.n},
                      {"median_ms", r.t.median_ms},
                      {"min_ms", r.t.min_ms},
                      {"runs_ms", r.t.runs_ms},
                      {"items_per_s", s > 0 ? double(r.n) / s : 0.0},
                      {"bytes", r.bytes},
                      {"GBps", s > 0 ? r.bytes / s * 1e-9 : 0.0},
                      {"copy_fraction", r.t.median_ms > 0 && r.copy_ms > 0 ? r.copy_ms / r.t.median_ms : 0.0},
                      {"verified", r.verified},
                      {"retimed", r.t.retimed}};
  j.update(r.extra);
  if (!r.t.passes.empty()) j["passes"] = passes_json(r.t.passes);
  return j;
}

nlohmann::json passes_json(const std::vector<PassTime>& passes) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& p : passes) j.push_back({{"pass", p.name}, {"dispatches", p.dispatches}, {"ms", p.ms}});
  return j;
}

void print_table(const std::vector<BenchRecord>& records, bool with_passes) {
  fmt::print("{:<24} {:<5} {:>12} {:>11} {:>11} {:>12} {:>10} {:>8} {:>8}\n", "operation", "type",
             "n", "median ms", "min ms", "Gitems/s", "GB/s", "of copy", "verified");
  for (const auto& r : records) {
    const double s = r.t.median_ms * 1e-3;
    fmt::print("{:<24} {:<5} {:>12} {:>11.4f} {:>11.4f} {:>12.3f} {:>10.1f} {:>8} {:>8}\n",
               r.operation, r.type, r.n, r.t.median_ms, r.t.min_ms,
               s > 0 ? double(r.n) / s * 1e-9 : 0.0, s > 0 ? r.bytes / s * 1e-9 : 0.0,
               r.copy_ms > 0 ? fmt::format("{:.0f}%", 100.0 * r.copy_ms / r.t.median_ms) : "-",
               r.verified ? "yes" : "no");
    if (with_passes)
      for (const auto& p : r.t.passes)
        fmt::print("    {:<40} x{:<4} {:>9.4f} ms\n", p.name, p.dispatches, p.ms);
  }
}

void print_pipeline_statistics(const std::vector<PipelineStatistics>& stats, std::FILE* out) {
  if (stats.empty()) {
    fmt::print(out, "pipeline statistics: none (the device does not report them)\n");
    return;
  }
  fmt::print(out, "pipeline statistics (the driver's; each pipeline once):\n");
  std::set<std::string> seen;
  for (const auto& ps : stats) {
    if (!seen.insert(ps.pipeline + "/" + ps.executable).second) continue;
    std::string line;
    for (const auto& v : ps.values) line += fmt::format("  {} {:g}", v.name, v.value);
    fmt::print(out, "  {} [{}]:{}\n", ps.pipeline, ps.executable, line);
  }
}

nlohmann::json to_json(const PipelineStatistics& ps) {
  nlohmann::json j{{"operation", "pipeline statistics"},
                   {"pipeline", ps.pipeline},
                   {"executable", ps.executable}};
  for (const auto& v : ps.values) j["statistics"][v.name] = v.value;
  return j;
}

}  // namespace vkprim::cli
