// What every `vkprim bench` operation shares: sizes from the command line, the timing loop
// (N timestamp-timed runs in one command buffer, median and min), and the record format of
// NOTES §5 (table on stdout, JSON lines with --json).
#pragma once

#include <vkprim/runtime.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace vkprim::cli {

// "268435456", "2^28", "1GiB", "64MiB", "4KiB" -> count of `element_bytes` elements.
uint64_t parse_count(const std::string& text, uint32_t element_bytes);

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
};

// Records `op` `runs` times into one command buffer, each run between two timestamps with a
// full barrier after it, after untimed warm-up runs (at least `warmup` of them and 250 ms).
Result<Timing> time_gpu(Runtime& rt, uint32_t runs, uint32_t warmup,
                        const std::function<Status(VkCommandBuffer)>& op);

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
void print_table(const std::vector<BenchRecord>& records);

}  // namespace vkprim::cli
