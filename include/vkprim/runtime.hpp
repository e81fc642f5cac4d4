// vkprim::Runtime — the simple layer on top: a device vkprim owns, one queue, a command pool,
// a timeline semaphore and staging memory. For the tools, the tests and users who just want a
// result; the recording core never depends on it. Not thread-safe: one thread at a time.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/context.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace vkprim {

class Runtime {
 public:
  static Result<Runtime> create(const CreateInfo& info = {});

  Runtime(Runtime&&) noexcept;
  Runtime& operator=(Runtime&&) noexcept;
  ~Runtime();

  const Context& context() const;
  const DeviceCaps& caps() const { return context().caps(); }

  // Records `fn` into a fresh primary command buffer, submits it and waits for completion on
  // the timeline semaphore. An error from `fn` aborts the submission. The wait is bounded by
  // `timeout()`; device loss and timeouts come back as Errc::device_lost / Errc::timeout.
  Status submit(const std::function<Status(VkCommandBuffer)>& fn);

  // As Buffer::create on the runtime's context.
  Result<Buffer> alloc(VkDeviceSize bytes, MemoryUsage usage = MemoryUsage::device) const;
  // Host <-> device through a bounded staging buffer (at most 64 MiB at a time), one submission
  // per piece, each waited for, with full barriers before and after its copy (so earlier and
  // later submissions need no barrier for it). The view needs its VkBuffer and at least `bytes`
  // (invalid_argument otherwise); errors of submit() and of the staging allocation pass through.
  Status upload(BufferView dst, const void* data, size_t bytes);
  Status download(BufferView src, void* data, size_t bytes);

  template <class T>
  Result<Buffer> upload(std::span<const T> data) {
    auto b = alloc(data.size_bytes());
    if (!b) return b.error();
    if (auto s = upload(b->view(), data.data(), data.size_bytes()); !s) return s.error();
    return b;
  }
  template <class T>
  Result<Buffer> upload(const std::vector<T>& data) { return upload(std::span<const T>(data)); }
  template <class T>
  Result<std::vector<T>> download(BufferView src, size_t count) {
    std::vector<T> out(count);
    if (auto s = download(src, out.data(), count * sizeof(T)); !s) return s.error();
    return out;
  }

  std::chrono::milliseconds timeout() const;
  void set_timeout(std::chrono::milliseconds t);

 private:
  struct Impl;
  explicit Runtime(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vkprim
