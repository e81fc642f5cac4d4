#include "core/context_impl.hpp"

#include <vkprim/barrier.hpp>
#include <vkprim/runtime.hpp>

#include <algorithm>
#include <cstring>
#include <optional>

namespace vkprim {

void full_barrier(const Context& ctx, VkCommandBuffer cmd) {
  const auto& impl = ctx.impl();
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                     VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_HOST_READ_BIT;
  impl.vk.vkCmdPipelineBarrier(
      cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT |
          VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_HOST_BIT,
      0, 1, &mb, 0, nullptr, 0, nullptr);
}

namespace {
constexpr VkDeviceSize kStagingBytes = VkDeviceSize(64) << 20;
}

struct Runtime::Impl {
  Context ctx;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkSemaphore timeline = VK_NULL_HANDLE;
  uint64_t submitted = 0;  // last value signalled by a submission
  std::optional<Buffer> upload_staging, readback_staging;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};

  explicit Impl(Context c) : ctx(std::move(c)) {}
  ~Impl() {
    const auto& d = ctx.impl();
    if (submitted) (void)wait(submitted);  // never destroy work in flight
    upload_staging.reset();
    readback_staging.reset();
    if (timeline) d.vk.vkDestroySemaphore(d.device, timeline, d.alloc);
    if (pool) d.vk.vkDestroyCommandPool(d.device, pool, d.alloc);
  }

  Status wait(uint64_t value) const {
    const auto& d = ctx.impl();
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline;
    wi.pValues = &value;
    const uint64_t ns = uint64_t(timeout.count()) * 1000000ull;
    VkResult r = d.vk.vkWaitSemaphores(d.device, &wi, ns);
    if (r == VK_TIMEOUT)
      return Error{Errc::timeout, r,
                   "GPU work did not finish within " + std::to_string(timeout.count()) + " ms"};
    if (r != VK_SUCCESS) return vk_error(r, "vkWaitSemaphores");
    return {};
  }

  Status submit(const std::function<Status(VkCommandBuffer)>& fn) {
    const auto& d = ctx.impl();
    VKPRIM_TRY(wait(submitted));  // the command buffer is reused: the last use must be done
    VKPRIM_VK(d.vk.vkResetCommandPool(d.device, pool, 0));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKPRIM_VK(d.vk.vkBeginCommandBuffer(cmd, &bi));
    Status recorded = fn(cmd);
    VKPRIM_VK(d.vk.vkEndCommandBuffer(cmd));
    if (!recorded) return recorded;
    const uint64_t value = submitted + 1;
    VkTimelineSemaphoreSubmitInfo ts{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    ts.signalSemaphoreValueCount = 1;
    ts.pSignalSemaphoreValues = &value;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.pNext = &ts;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &timeline;
    VKPRIM_VK(d.vk.vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    submitted = value;
    return wait(value);
  }
};

Runtime::Runtime(std::unique_ptr<Impl> i) : impl_(std::move(i)) {}
Runtime::Runtime(Runtime&&) noexcept = default;
Runtime& Runtime::operator=(Runtime&&) noexcept = default;
Runtime::~Runtime() = default;

const Context& Runtime::context() const { return impl_->ctx; }
std::chrono::milliseconds Runtime::timeout() const { return impl_->timeout; }
void Runtime::set_timeout(std::chrono::milliseconds t) { impl_->timeout = t; }

Result<Runtime> Runtime::create(const CreateInfo& info) {
  auto ctx = Context::create(info);
  if (!ctx) return ctx.error();
  if (!ctx->caps().timeline_semaphore)
    return make_error(Errc::unsupported, "Runtime needs timeline semaphores");
  auto impl = std::make_unique<Impl>(std::move(*ctx));
  const auto& d = impl->ctx.impl();
  d.vk.vkGetDeviceQueue(d.device, d.queue_family, 0, &impl->queue);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pci.queueFamilyIndex = d.queue_family;
  VKPRIM_VK(d.vk.vkCreateCommandPool(d.device, &pci, d.alloc, &impl->pool));
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = impl->pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VKPRIM_VK(d.vk.vkAllocateCommandBuffers(d.device, &ai, &impl->cmd));
  VkSemaphoreTypeCreateInfo st{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  st.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  sci.pNext = &st;
  VKPRIM_VK(d.vk.vkCreateSemaphore(d.device, &sci, d.alloc, &impl->timeline));
  return Runtime(std::move(impl));
}

Status Runtime::submit(const std::function<Status(VkCommandBuffer)>& fn) { return impl_->submit(fn); }

Result<Buffer> Runtime::alloc(VkDeviceSize bytes, MemoryUsage usage) const {
  return Buffer::create(impl_->ctx, bytes, usage);
}

Status Runtime::upload(BufferView dst, const void* data, size_t bytes) {
  if (bytes == 0) return {};
  if (!dst.buffer || bytes > dst.size)
    return make_error(Errc::invalid_argument, "upload: destination needs a VkBuffer holding the bytes");
  const auto& d = impl_->ctx.impl();
  if (!impl_->upload_staging) {
    auto b = Buffer::create(impl_->ctx, std::min<VkDeviceSize>(kStagingBytes, bytes), MemoryUsage::upload);
    if (!b) return b.error();
    impl_->upload_staging = std::move(*b);
  }
  Buffer& st = *impl_->upload_staging;
  if (st.size() < std::min<VkDeviceSize>(kStagingBytes, bytes)) {
    auto b = Buffer::create(impl_->ctx, std::min<VkDeviceSize>(kStagingBytes, bytes), MemoryUsage::upload);
    if (!b) return b.error();
    st = std::move(*b);
  }
  for (size_t off = 0; off < bytes; off += st.size()) {
    const size_t n = std::min<size_t>(st.size(), bytes - off);
    std::memcpy(st.mapped(), static_cast<const char*>(data) + off, n);
    VKPRIM_TRY(st.flush());
    VKPRIM_TRY(impl_->submit([&](VkCommandBuffer cmd) -> Status {
      full_barrier(impl_->ctx, cmd);  // earlier work on dst is done before it is overwritten
      VkBufferCopy region{0, dst.offset + off, n};
      d.vk.vkCmdCopyBuffer(cmd, st.handle(), dst.buffer, 1, &region);
      full_barrier(impl_->ctx, cmd);  // visible to whatever runs next
      return {};
    }));
  }
  return {};
}

Status Runtime::download(BufferView src, void* data, size_t bytes) {
  if (bytes == 0) return {};
  if (!src.buffer || bytes > src.size)
    return make_error(Errc::invalid_argument, "download: source needs a VkBuffer holding the bytes");
  const auto& d = impl_->ctx.impl();
  const VkDeviceSize want = std::min<VkDeviceSize>(kStagingBytes, bytes);
  if (!impl_->readback_staging || impl_->readback_staging->size() < want) {
    auto b = Buffer::create(impl_->ctx, want, MemoryUsage::readback);
    if (!b) return b.error();
    impl_->readback_staging = std::move(*b);
  }
  Buffer& st = *impl_->readback_staging;
  for (size_t off = 0; off < bytes; off += st.size()) {
    const size_t n = std::min<size_t>(st.size(), bytes - off);
    VKPRIM_TRY(impl_->submit([&](VkCommandBuffer cmd) -> Status {
      full_barrier(impl_->ctx, cmd);
      VkBufferCopy region{src.offset + off, 0, n};
      d.vk.vkCmdCopyBuffer(cmd, src.buffer, st.handle(), 1, &region);
      full_barrier(impl_->ctx, cmd);
      return {};
    }));
    VKPRIM_TRY(st.invalidate());
    std::memcpy(static_cast<char*>(data) + off, st.mapped(), n);
  }
  return {};
}

}  // namespace vkprim
