// Gather and scatter of 32- or 64-bit elements through 32-bit indices.
// Synchronization owed by the caller: as for elementwise.hpp (src and indices are the inputs,
// dst the output). State overwritten: compute pipeline and push constants.
// Both record() calls return invalid_argument, recording nothing, for an element_size other
// than 4 or 8, indices holding fewer than n u32, the side indexed by i < n (Gather's dst,
// Scatter's src) holding fewer than n elements, or addresses not aligned to their element.
#pragma once

#include <vkprim/buffer.hpp>

#include <memory>

namespace vkprim {

// dst[i] = src[indices[i]] for i < n. An index past the end of src (src.size / element_size
// elements) reads nothing and stores `fallback` (its low element_size bytes) instead. Writes
// dst[0, n) only.
class Gather {
 public:
  static Result<Gather> create(const Context& ctx);
  Status record(VkCommandBuffer cmd, BufferView src, BufferView indices, BufferView dst,
                uint64_t n, uint32_t element_size, uint64_t fallback = 0) const;

  Gather(Gather&&) noexcept;
  Gather& operator=(Gather&&) noexcept;
  ~Gather();

 private:
  struct Impl;
  explicit Gather(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

// dst[indices[i]] = src[i] for i < n. An index past the end of dst is skipped: nothing is
// written out of bounds. With repeated indices one of the writers wins, unspecified which.
// Writes only the elements of dst that indices name.
class Scatter {
 public:
  static Result<Scatter> create(const Context& ctx);
  Status record(VkCommandBuffer cmd, BufferView src, BufferView indices, BufferView dst,
                uint64_t n, uint32_t element_size) const;

  Scatter(Scatter&&) noexcept;
  Scatter& operator=(Scatter&&) noexcept;
  ~Scatter();

 private:
  struct Impl;
  explicit Scatter(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vkprim
