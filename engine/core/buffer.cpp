#include "core/context_impl.hpp"

#include <vkprim/buffer.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

namespace vkprim {

Result<BufferView> BufferView::of(const Context& ctx, VkBuffer buffer, VkDeviceSize offset,
                                  VkDeviceSize size) {
  if (!buffer) return make_error(Errc::invalid_argument, "BufferView::of: null VkBuffer");
  const auto& impl = ctx.impl();
  VkBufferDeviceAddressInfo ai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  ai.buffer = buffer;
  VkDeviceAddress base = impl.vk.vkGetBufferDeviceAddress(impl.device, &ai);
  if (!base)
    return make_error(Errc::invalid_argument,
                      "BufferView::of: buffer has no device address (create it with "
                      "VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT)");
  return BufferView{buffer, offset, size, base + offset};
}

Result<BufferView> BufferView::of(const Context& ctx, VkBuffer buffer, const VkBufferCreateInfo& created,
                                  VkDeviceSize offset, VkDeviceSize size) {
  if (!(created.usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT))
    return make_error(Errc::invalid_argument,
                      "BufferView::of: the buffer was created without "
                      "VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT (vkprim addresses every buffer by "
                      "its device address)");
  if (offset > created.size || size > created.size - offset)
    return make_error(Errc::invalid_argument,
                      "BufferView::of: bytes [" + std::to_string(offset) + ", " + std::to_string(offset) +
                          " + " + std::to_string(size) + ") pass the buffer's " +
                          std::to_string(created.size) + " bytes");
  return of(ctx, buffer, offset, size);
}

BufferView BufferView::sub(VkDeviceSize byte_offset, VkDeviceSize byte_size) const {
  byte_offset = std::min(byte_offset, size);
  byte_size = std::min(byte_size, size - byte_offset);
  return BufferView{buffer, offset + byte_offset, byte_size, address + byte_offset};
}

namespace {
std::optional<uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& mp,
                                         uint32_t allowed, VkMemoryPropertyFlags required,
                                         VkMemoryPropertyFlags preferred) {
  std::optional<uint32_t> fallback;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
    if (!(allowed & (1u << i))) continue;
    auto flags = mp.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (!fallback) fallback = i;
  }
  return fallback;
}
}  // namespace

Result<Buffer> Buffer::create(const Context& ctx, VkDeviceSize size, MemoryUsage usage) {
  return detail::create_buffer(ctx.impl(), size, usage);
}

Result<Buffer> detail::create_buffer(const ContextImpl& impl, VkDeviceSize size, MemoryUsage usage) {
  const auto& caps = impl.caps;
  if (caps.max_buffer_size && size > caps.max_buffer_size)
    return make_error(Errc::limit_exceeded, "buffer of " + std::to_string(size) +
                                                " bytes exceeds the device's maxBufferSize (" +
                                                std::to_string(caps.max_buffer_size) + ")");
  // Past maxMemoryAllocationSize an allocation "may fail" (the spec): it is tried, and a
  // failure comes back as Errc::out_of_device_memory.
  Buffer b;
  b.ctx_ = &impl;
  b.size_ = size;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = std::max<VkDeviceSize>(size, 16);  // zero-sized buffers are invalid in Vulkan
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
              VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
              VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VKPRIM_VK(impl.vk.vkCreateBuffer(impl.device, &bci, impl.alloc, &b.buffer_));

  VkMemoryRequirements req{};
  impl.vk.vkGetBufferMemoryRequirements(impl.device, b.buffer_, &req);
  VkMemoryPropertyFlags required = 0, preferred = 0;
  switch (usage) {
    case MemoryUsage::device:
      preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
      break;
    case MemoryUsage::upload:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      break;
    case MemoryUsage::readback:
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
      preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
      break;
  }
  auto type = find_memory_type(impl.memory, req.memoryTypeBits, required, preferred);
  if (!type) return make_error(Errc::unsupported, "no memory type fits the buffer");
  b.coherent_ = impl.memory.memoryTypes[*type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

  // Every buffer has its own allocation, and says so (VkMemoryDedicatedAllocateInfo, core since
  // Vulkan 1.1): the driver may then map it as it would a buffer of its own. Without it, on
  // NVIDIA's driver, random gathers spread over more than 8 MiB (SpMV's from x) slow down as
  // address translation misses would.
  VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.buffer = b.buffer_;
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.pNext = &dedicated;
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.pNext = &flags;
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = *type;
  VkResult r = impl.vk.vkAllocateMemory(impl.device, &mai, impl.alloc, &b.memory_);
  if (r != VK_SUCCESS)
    return vk_error(r, "allocating " + std::to_string(req.size) + " bytes of " +
                           (usage == MemoryUsage::device ? "device" : "host-visible") + " memory");
  VKPRIM_VK(impl.vk.vkBindBufferMemory(impl.device, b.buffer_, b.memory_, 0));
  if (usage != MemoryUsage::device)
    VKPRIM_VK(impl.vk.vkMapMemory(impl.device, b.memory_, 0, VK_WHOLE_SIZE, 0, &b.mapped_));
  VkBufferDeviceAddressInfo ai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  ai.buffer = b.buffer_;
  b.address_ = impl.vk.vkGetBufferDeviceAddress(impl.device, &ai);
  return b;
}

Buffer::Buffer(Buffer&& o) noexcept
    : ctx_(std::exchange(o.ctx_, nullptr)),
      buffer_(std::exchange(o.buffer_, VK_NULL_HANDLE)),
      memory_(std::exchange(o.memory_, VK_NULL_HANDLE)),
      size_(std::exchange(o.size_, 0)),
      address_(std::exchange(o.address_, 0)),
      mapped_(std::exchange(o.mapped_, nullptr)),
      coherent_(o.coherent_) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = std::exchange(o.ctx_, nullptr);
    buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(o.size_, 0);
    address_ = std::exchange(o.address_, 0);
    mapped_ = std::exchange(o.mapped_, nullptr);
    coherent_ = o.coherent_;
  }
  return *this;
}

Buffer::~Buffer() { reset(); }

void Buffer::reset() {
  if (!ctx_) return;
  if (buffer_) ctx_->vk.vkDestroyBuffer(ctx_->device, buffer_, ctx_->alloc);
  if (memory_) ctx_->vk.vkFreeMemory(ctx_->device, memory_, ctx_->alloc);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  ctx_ = nullptr;
}

Status Buffer::flush() const {
  if (!mapped_ || coherent_) return {};
  VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  r.memory = memory_;
  r.size = VK_WHOLE_SIZE;
  VKPRIM_VK(ctx_->vk.vkFlushMappedMemoryRanges(ctx_->device, 1, &r));
  return {};
}

Status Buffer::invalidate() const {
  if (!mapped_ || coherent_) return {};
  VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  r.memory = memory_;
  r.size = VK_WHOLE_SIZE;
  VKPRIM_VK(ctx_->vk.vkInvalidateMappedMemoryRanges(ctx_->device, 1, &r));
  return {};
}

}  // namespace vkprim
