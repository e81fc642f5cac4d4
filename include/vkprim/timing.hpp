// GPU timing with timestamp queries: stamps written into the caller's command buffer, read
// back after the work completed.
#pragma once

#include <vkprim/context.hpp>

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
  // stamp 0 (so differences of entries are durations).
  Result<std::vector<double>> read_ms(uint32_t count) const;
  uint32_t capacity() const { return capacity_; }

 private:
  GpuTimer() = default;
  void destroy();
  const void* ctx_ = nullptr;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  uint32_t capacity_ = 0;
};

}  // namespace vkprim
