#include "core/context_impl.hpp"

#include <vkprim/timing.hpp>

#include <utility>
#include <vector>

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

struct PassProfiler::State {
  const detail::ContextImpl* ctx = nullptr;
  GpuTimer timer;
  std::vector<const char*> names;  // stamp i + 1 follows dispatch names[i]
  bool attached = false;
};

Result<PassProfiler> PassProfiler::create(const Context& ctx, uint32_t capacity) {
  if (capacity == 0) return make_error(Errc::invalid_argument, "PassProfiler: capacity must be nonzero");
  auto timer = GpuTimer::create(ctx, capacity + 1);
  if (!timer) return timer.error();
  auto st = std::make_unique<State>(State{&ctx.impl(), std::move(*timer), {}, false});
  return PassProfiler(std::move(st));
}

PassProfiler::PassProfiler(std::unique_ptr<State> s) : state_(std::move(s)) {}
PassProfiler::PassProfiler(PassProfiler&&) noexcept = default;
PassProfiler& PassProfiler::operator=(PassProfiler&& o) noexcept {
  if (this != &o) {
    end();
    state_ = std::move(o.state_);
  }
  return *this;
}
PassProfiler::~PassProfiler() { end(); }

void PassProfiler::begin(VkCommandBuffer cmd) {
  State* st = state_.get();
  st->names.clear();
  st->timer.reset(cmd);
  st->timer.stamp(cmd, 0);
  st->attached = true;
  st->ctx->on_dispatch = [st](VkCommandBuffer c, const char* pass) {
    st->names.push_back(pass);
    if (st->names.size() < st->timer.capacity()) st->timer.stamp(c, uint32_t(st->names.size()));
  };
}

void PassProfiler::end() {
  if (!state_ || !state_->attached) return;
  state_->ctx->on_dispatch = nullptr;
  state_->attached = false;
}

size_t PassProfiler::recorded_dispatches() const { return state_ ? state_->names.size() : 0; }

Result<std::vector<PassProfiler::Pass>> PassProfiler::read() const {
  const State& st = *state_;
  if (st.names.size() >= st.timer.capacity())
    return make_error(Errc::limit_exceeded, "PassProfiler: " + std::to_string(st.names.size()) +
                                                " dispatches recorded, capacity " +
                                                std::to_string(st.timer.capacity() - 1));
  auto ms = st.timer.read_ms(uint32_t(st.names.size()) + 1);
  if (!ms) return ms.error();
  std::vector<Pass> out;
  for (size_t i = 0; i < st.names.size(); ++i) out.push_back({st.names[i], (*ms)[i + 1] - (*ms)[i]});
  return out;
}

}  // namespace vkprim
