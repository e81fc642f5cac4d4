// GPU timing with timestamp queries: stamps written into the caller's command buffer, read
// back after the work completed.
#pragma once

#include <vkprim/context.hpp>

#include <memory>
#include <string>
#include <vector>

namespace vkprim {

class GpuTimer {
 public:
  // Errc::unsupported when the context's queue family has no timestamps.
  static Result<GpuTimer> create(const Context& ctx, uint32_t capacity);

  GpuTimer(GpuTimer&&) noexcept;
  GpuTimer& operator=(GpuTimer&&) noexcept;
  ~GpuTimer();

  // Records a reset of all stamps; call once per command buffer, before the first stamp().
  void reset(VkCommandBuffer cmd) const;
  // Records timestamp `index` after all previously recorded work completes.
  void stamp(VkCommandBuffer cmd, uint32_t index) const;
  // After the command buffer completed: the first `count` stamps in milliseconds, relative to
  // stamp 0 (so differences of entries are durations). Waits for the stamps' results;
  // invalid_argument for count > capacity().
  Result<std::vector<double>> read_ms(uint32_t count) const;
  uint32_t capacity() const { return capacity_; }

 private:
  GpuTimer() = default;
  void destroy();
  const void* ctx_ = nullptr;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  uint32_t capacity_ = 0;
};

// Per-pass GPU times of vkprim's own work, for benchmarks and tuning: between begin() and end(),
// every dispatch that any vkprim object records on this context is followed by a timestamp
// labelled with its pass (the shader variant's name). vkprim places a barrier between dependent
// passes, so each pass's time is the gap since the previous stamp; passes with no barrier
// between them overlap, and the gap then measures only what the later one added.
// Attach one profiler to a context at a time, from the thread that records; it costs one
// timestamp per dispatch while attached and nothing otherwise.
class PassProfiler {
 public:
  struct Pass {
    std::string name;
    double ms;
  };
  // capacity: dispatches timed per begin()/end() (later ones are not timed, read() says so).
  // invalid_argument for capacity 0; unsupported as GpuTimer::create.
  static Result<PassProfiler> create(const Context& ctx, uint32_t capacity = 256);

  // Records the reset and the first stamp into `cmd`, then attaches to the context.
  void begin(VkCommandBuffer cmd);
  // Detaches; what was recorded in between is timed once the command buffer completes.
  void end();
  // Dispatches recorded since begin(), known at once (before the command buffer runs).
  size_t recorded_dispatches() const;
  // After the command buffer completed: each timed dispatch in recording order.
  // Errc::limit_exceeded when more dispatches than `capacity` were recorded.
  Result<std::vector<Pass>> read() const;

  PassProfiler(PassProfiler&&) noexcept;
  PassProfiler& operator=(PassProfiler&&) noexcept;
  ~PassProfiler();

 private:
  struct State;
  explicit PassProfiler(std::unique_ptr<State>);
  std::unique_ptr<State> state_;
};

}  // namespace vkprim
