#include "core/context_impl.hpp"

#include <vkprim/timing.hpp>

#include <utility>

namespace vkprim {

namespace {
const detail::ContextImpl& impl_of(const void* p) { return *static_cast<const detail::ContextImpl*>(p); }
}  // namespace

Result<GpuTimer> GpuTimer::create(const Context& ctx, uint32_t capacity) {
  const auto& impl = ctx.impl();
  if (impl.caps.timestamp_valid_bits == 0 || impl.caps.timestamp_period_ns <= 0)
    return make_error(Errc::unsupported, "the queue family has no timestamp support");
  GpuTimer t;
  t.ctx_ = &impl;
  t.capacity_ = capacity;
  VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qci.queryCount = capacity;
  VKPRIM_VK(impl.vk.vkCreateQueryPool(impl.device, &qci, impl.alloc, &t.pool_));
  return t;
}

GpuTimer::GpuTimer(GpuTimer&& o) noexcept
    : ctx_(std::exchange(o.ctx_, nullptr)),
      pool_(std::exchange(o.pool_, VK_NULL_HANDLE)),
      capacity_(o.capacity_) {}

GpuTimer& GpuTimer::operator=(GpuTimer&& o) noexcept {
  if (this != &o) {
    destroy();
    ctx_ = std::exchange(o.ctx_, nullptr);
    pool_ = std::exchange(o.pool_, VK_NULL_HANDLE);
    capacity_ = o.capacity_;
  }
  return *this;
}

GpuTimer::~GpuTimer() { destroy(); }

void GpuTimer::destroy() {
  if (ctx_ && pool_) impl_of(ctx_).vk.vkDestroyQueryPool(impl_of(ctx_).device, pool_, impl_of(ctx_).alloc);
  pool_ = VK_NULL_HANDLE;
}

void GpuTimer::reset(VkCommandBuffer cmd) const {
  impl_of(ctx_).vk.vkCmdResetQueryPool(cmd, pool_, 0, capacity_);
}

void GpuTimer::stamp(VkCommandBuffer cmd, uint32_t index) const {
  impl_of(ctx_).vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, index);
}

Result<std::vector<double>> GpuTimer::read_ms(uint32_t count) const {
  const auto& impl = impl_of(ctx_);
  if (count > capacity_) return make_error(Errc::invalid_argument, "GpuTimer: count > capacity");
  std::vector<uint64_t> raw(count);
  if (count)
    VKPRIM_VK(impl.vk.vkGetQueryPoolResults(impl.device, pool_, 0, count, count * 8, raw.data(), 8,
                                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  const uint64_t mask = impl.caps.timestamp_valid_bits >= 64
                            ? ~uint64_t(0)
                            : (uint64_t(1) << impl.caps.timestamp_valid_bits) - 1;
  std::vector<double> ms(count);
  for (uint32_t i = 0; i < count; ++i)
    ms[i] = double((raw[i] - raw[0]) & mask) * impl.caps.timestamp_period_ns * 1e-6;
  return ms;
}

}  // namespace vkprim
