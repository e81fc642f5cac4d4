// Buffers: vkprim::Buffer owns a VkBuffer and its memory (one dedicated allocation);
// vkprim::BufferView is a non-owning window onto any buffer, the caller's included.
//
// Every primitive reads and writes through buffer device addresses, so a view is usable by
// vkprim when its buffer was created with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT (and its
// memory with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT). Addressing by device address is also what
// lets a view exceed maxStorageBufferRange: that limit binds descriptors, which vkprim never uses.
#pragma once

#include <vkprim/context.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace vkprim {

class Buffer;
enum class MemoryUsage : int;
namespace detail {
Result<Buffer> create_buffer(const ContextImpl& ctx, VkDeviceSize size, MemoryUsage usage);
}

// A non-owning range of device memory: `size` bytes at `address`. `buffer`/`offset` are kept
// when known (transfer commands need them) and are VK_NULL_HANDLE/0 for address-only views.
struct BufferView {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;
  VkDeviceAddress address = 0;

  // A view of bytes [offset, offset + size) of the caller's buffer; looks up its address.
  // invalid_argument for a null buffer or one without a device address. The range is not
  // checked against the buffer's size, nor the buffer's usage: Vulkan has no query for either,
  // and asking the address of a buffer created without
  // VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT is itself invalid usage (the validation layer
  // reports it). The form below checks both.
  static Result<BufferView> of(const Context& ctx, VkBuffer buffer, VkDeviceSize offset,
                               VkDeviceSize size);
  // The same, given the VkBufferCreateInfo the buffer was created with: invalid_argument,
  // before the address is asked, where its usage lacks VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT
  // or [offset, offset + size) passes its size.
  static Result<BufferView> of(const Context& ctx, VkBuffer buffer, const VkBufferCreateInfo& created,
                               VkDeviceSize offset, VkDeviceSize size);
  // A view from a device address alone (e.g. from the caller's own allocator).
  static BufferView from_address(VkDeviceAddress address, VkDeviceSize size) {
    return BufferView{VK_NULL_HANDLE, 0, size, address};
  }

  bool empty() const { return size == 0; }
  // Bytes [offset, offset + size) of this view; clamped to the view.
  BufferView sub(VkDeviceSize byte_offset, VkDeviceSize byte_size) const;
  template <class T>
  uint64_t count() const { return size / sizeof(T); }
};

enum class MemoryUsage : int {
  device,    // device-local: where primitives should run
  upload,    // host-visible, host-coherent, written by the CPU
  readback,  // host-visible, preferably cached, read by the CPU
};

class Buffer {
 public:
  // Usage always includes storage, transfer src/dst, indirect and shader device address. One
  // dedicated allocation. limit_exceeded past the device's maxBufferSize; unsupported where no
  // memory type fits `usage`; out_of_device_memory where the allocation fails.
  static Result<Buffer> create(const Context& ctx, VkDeviceSize size,
                               MemoryUsage usage = MemoryUsage::device);

  Buffer() = default;
  Buffer(Buffer&&) noexcept;
  Buffer& operator=(Buffer&&) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  BufferView view() const { return BufferView{buffer_, 0, size_, address_}; }
  operator BufferView() const { return view(); }
  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  VkDeviceAddress address() const { return address_; }
  // Host pointer for upload/readback buffers (persistently mapped), nullptr otherwise.
  void* mapped() const { return mapped_; }
  // Makes host writes visible / device writes host-visible for non-coherent memory (no-ops on
  // coherent memory). The device-side barrier is still the caller's.
  Status flush() const;
  Status invalidate() const;

 private:
  friend Result<Buffer> detail::create_buffer(const detail::ContextImpl&, VkDeviceSize, MemoryUsage);
  void reset();
  const detail::ContextImpl* ctx_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  VkDeviceAddress address_ = 0;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

}  // namespace vkprim
