// Element-wise primitives: fill, copy, maps. Each is an object created once (its pipelines are
// built then) whose record() calls write commands into the caller's command buffer. Recording
// never allocates, submits or waits.
//
// Synchronization owed by the caller around every record() call in this header (and, unless a
// call says otherwise, every vkprim primitive):
//   before: the producer of the inputs -> VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT /
//           VK_ACCESS_SHADER_READ_BIT, and prior users of the outputs ->
//           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_WRITE_BIT;
//   after:  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT / VK_ACCESS_SHADER_WRITE_BIT -> the consumer.
// Leading barrier: the calls of several passes (scan, reduce and segmented scan, compaction,
// sort, histogram, SpMV, the CSR build) also record one compute-to-compute memory barrier before their first
// pass, so that earlier work on their outputs and temporary storage (their own earlier calls on
// reserved storage included) is done; their options' `leading_barrier = false` leaves it out
// where the caller has recorded one, or knows the calls independent, so that they may overlap.
// Single-pass calls (fill, copy, maps, gather, scatter) record no barrier.
// State overwritten in the command buffer: the bound compute pipeline and push constants.
// All buffers are addressed by device address (see buffer.hpp); counts may exceed 2^32.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/types.hpp>

#include <bit>
#include <cstring>
#include <memory>

namespace vkprim {

// dst[i] = value for every element of dst; elements of 4 or 8 bytes.
class Fill {
 public:
  static Result<Fill> create(const Context& ctx);
  // Requires dst.address and dst.size aligned to element_size (4 or 8), else invalid_argument
  // (nothing recorded). `bits` holds the element's bit pattern in its low element_size bytes.
  // Writes all of dst.
  Status record(VkCommandBuffer cmd, BufferView dst, uint64_t bits, uint32_t element_size) const;
  template <Value T>
  Status record(VkCommandBuffer cmd, BufferView dst, T value) const {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return record(cmd, dst, bits, sizeof(T));
  }

  Fill(Fill&&) noexcept;
  Fill& operator=(Fill&&) noexcept;
  ~Fill();

 private:
  struct Impl;
  explicit Fill(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

// dst[0, bytes) = src[0, bytes) by a compute shader (16 bytes per load where both addresses
// allow it). This copy is the bandwidth yardstick of `vkprim bench`. Requires 4-byte aligned
// addresses and size and views of at least `bytes` (else invalid_argument, nothing recorded);
// the ranges must not overlap (not checked). Writes dst[0, bytes) only.
class Copy {
 public:
  static Result<Copy> create(const Context& ctx);
  Status record(VkCommandBuffer cmd, BufferView src, BufferView dst, uint64_t bytes) const;

  Copy(Copy&&) noexcept;
  Copy& operator=(Copy&&) noexcept;
  ~Copy();

 private:
  struct Impl;
  explicit Copy(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

// Element-wise maps over one value type, for i < n. Integer arithmetic wraps; z may alias x or y.
//   affine: z[i] = a * x[i] + b
//   abs:    z[i] = |x[i]|   (identity for unsigned types)
//   axpby:  z[i] = a * x[i] + b * y[i]
// create() fails with Errc::unsupported for f64 on a device without shaderFloat64. The calls
// write z[0, n) only; invalid_argument (nothing recorded) for scalars of another type than the
// map's, or x, y (axpby) or z too small for n elements, without a device address, or not
// aligned to the element.
class Map {
 public:
  static Result<Map> create(const Context& ctx, ValueType type);
  ValueType type() const;

  template <Value T>
  Status affine(VkCommandBuffer cmd, BufferView x, BufferView z, T a, T b, uint64_t n) const {
    return record(cmd, Op::affine, value_type_of<T>(), x, {}, z, bits(a), bits(b), n);
  }
  Status abs(VkCommandBuffer cmd, BufferView x, BufferView z, uint64_t n) const {
    return record(cmd, Op::abs, type(), x, {}, z, 0, 0, n);
  }
  template <Value T>
  Status axpby(VkCommandBuffer cmd, BufferView x, BufferView y, BufferView z, T a, T b,
               uint64_t n) const {
    return record(cmd, Op::axpby, value_type_of<T>(), x, y, z, bits(a), bits(b), n);
  }

  Map(Map&&) noexcept;
  Map& operator=(Map&&) noexcept;
  ~Map();

 private:
  enum class Op { affine, abs, axpby };
  template <class T>
  static uint64_t bits(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
  }
  Status record(VkCommandBuffer cmd, Op op, ValueType t, BufferView x, BufferView y,
                BufferView z, uint64_t a, uint64_t b, uint64_t n) const;
  struct Impl;
  explicit Map(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vkprim
