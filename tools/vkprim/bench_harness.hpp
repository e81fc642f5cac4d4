// What every `vkprim bench` operation shares: sizes from the command line, the timing loop
// (N timestamp-timed runs in one command buffer, median and min), and the record format (a
// table on stdout, JSON lines with --json).
#pragma once

#include <vkprim/runtime.hpp>
#include <vkprim/sort.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace vkprim::cli {

// "268435456", "2^28", "1GiB", "64MiB", "4KiB" -> count of `element_bytes` elements (units B,
// KiB or K, MiB or M, GiB or G). Errc::invalid_argument, naming the text and what is accepted,
// for anything else, for a count of 0, and for a size beyond 64 bits or beyond this machine's
// memory (host_memory_bytes): the bench holds its data on the host too.
Result<uint64_t> parse_count(const std::string& text, uint32_t element_bytes);
// A CLI11 check for -n: parse_count's error as a usage error.
CLI::Validator count_check(uint32_t element_bytes);

// `--sort-algorithm auto|onesweep|reduce-then-scan` on `cmd` into `name` (bench's sorts, spmv's
// CSR build), and the SortAlgorithm a checked name stands for.
CLI::Option* add_sort_algorithm_option(CLI::App* cmd, std::string& name, const std::string& what);
SortAlgorithm sort_algorithm_named(const std::string& name);

struct PassTime {
  std::string name;    // shader variant
  uint32_t dispatches; // of this pass per operation
  double ms;           // their total, median over the profiled runs
};

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  std::vector<double> runs_ms;   // every timed run, in recording order (slow stretches show up)
  std::vector<PassTime> passes;  // where the time goes, in order of first dispatch
  uint32_t retimed = 0;          // timed submissions discarded because their level changed
};

// Records `op` `runs` times into one command buffer, each run between two timestamps with a
// full barrier after it, after untimed warm-up runs (at least `warmup` of them and one second
// of GPU work). If the runs change level part-way (clocks moving: the first and last quarter's
// medians more than 15 % apart), they are timed again, at most twice more. Then a few runs
// more with a PassProfiler attached give the per-pass times (timed apart from the figures
// above, since a stamp after every dispatch costs a little).
// With back_to_back K > 1, each timed run is K calls of `op` between the two timestamps, a
// full barrier between consecutive calls (what a caller recording K dependent calls gets, with
// no gap for the timestamps between them), and its time is that span / K: the time per call.
Result<Timing> time_gpu(Runtime& rt, uint32_t runs, uint32_t warmup, uint32_t back_to_back,
                        const std::function<Status(VkCommandBuffer)>& op);
inline Result<Timing> time_gpu(Runtime& rt, uint32_t runs, uint32_t warmup,
                               const std::function<Status(VkCommandBuffer)>& op) {
  return time_gpu(rt, runs, warmup, 1, op);
}

struct BenchRecord {
  std::string operation;
  std::string type;
  uint64_t n = 0;
  double bytes = 0;  // minimal-traffic model
  Timing t;
  double copy_ms = 0;  // the copy shader's median at the same byte count, same run (0: n/a)
  bool verified = false;
  nlohmann::json extra = nlohmann::json::object();  // per-pass times, strategy, ...
};

nlohmann::json to_json(const Runtime& rt, const BenchRecord& r);
// [{"pass", "dispatches", "ms"}, ...]: Timing::passes as the JSON records write them.
nlohmann::json passes_json(const std::vector<PassTime>& passes);
// with_passes: a line per pass under each operation.
void print_table(const std::vector<BenchRecord>& records, bool with_passes = false);

// The driver's statistics of every pipeline the run created (--pipeline-stats: registers,
// local memory, ...), one line per pipeline, and one JSON record per pipeline.
void print_pipeline_statistics(const std::vector<PipelineStatistics>& stats,
                               std::FILE* out = stdout);
nlohmann::json to_json(const PipelineStatistics& ps);

}  // namespace vkprim::cli
