// Summed-area table: the 2-D inclusive scan of an image of width x height elements, rows
// contiguous (element (x, y) at index y * width + x):
//   out(x, y) = the sum of in(i, j) over i <= x, j <= y.
// A box of any size then sums in O(1): S(x1, y1) - S(x0 - 1, y1) - S(x1, y0 - 1) + S(x0 - 1, y0 - 1).
// Element and sum types (SummedAreaTable::create):
//   f32 images, f32 sums (each sum rounded as it is added: large images of large values lose
//     precision; the order of additions is fixed, so results are the same run to run);
//   u32 images, u32 sums modulo 2^32, or u64 sums (SatOptions::wide_sums) where they may pass it.
//
// Algorithm: every row scanned (a workgroup per row at a time, in chunks of a workgroup's
// tile), then every column scanned in place (the rows cut into chunks: each chunk's column
// sums, their scan down each column, each chunk's columns scanned from the sum above). A table
// of one row or one column is one 1-D scan (vkprim::Scan). It reads the image once and the
// sums twice, and writes the sums twice: two and a half copies of the image (u32 sums).
//
// Temporary storage: temp_bytes(width, height) bytes, 16-byte aligned (or reserve()).
// Synchronization owed by the caller: as for elementwise.hpp (the image; out and temp), with
// the leading barrier SatOptions::leading_barrier describes. State overwritten: compute
// pipeline and push constants.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/types.hpp>

#include <cstdint>
#include <memory>

namespace vkprim {

namespace detail {
struct SatPlan;
}

struct SatOptions {
  // u32 images: u64 sums (out holds 8-byte elements) instead of u32 sums modulo 2^32.
  bool wide_sums = false;
  // Whether each call records its own compute-to-compute barrier before its first pass
  // (elementwise.hpp: "Leading barrier"). false: the caller orders what came before the call,
  // the earlier calls on this object's reserved storage included.
  bool leading_barrier = true;
};

class SummedAreaTable {
 public:
  // `type`: f32 or u32 (else Errc::unsupported); wide_sums with u32 only (else
  // Errc::invalid_argument).
  static Result<SummedAreaTable> create(const Context& ctx, ValueType type, const SatOptions& options = {});
  ValueType type() const;
  // The sums' type: the image's, or u64 with wide_sums.
  ValueType sum_type() const;

  // Bytes of temporary storage a table of width x height needs (at least 16).
  uint64_t temp_bytes(uint64_t width, uint64_t height) const;
  // Allocates owned temporary storage for tables of up to width x height (outside recording;
  // grows only). out_of_device_memory where the allocation fails.
  Status reserve(uint64_t width, uint64_t height);

  // out = the summed-area table of the width x height image `in` (elements of type()), as
  // sum_type() values; width or height 0 writes nothing. In place (out == in) where the sums
  // are the elements' size. Writes out[0, width * height) and temp.
  // invalid_argument (nothing recorded) where in or out does not hold width * height aligned
  // elements, out overlaps in without being it (or is it, with wide sums), or temp is missing,
  // short or not 16-byte aligned; limit_exceeded where width * height elements pass 2^64
  // bytes, or the columns more than the device's dispatch limits cover.
  Status record(VkCommandBuffer cmd, BufferView in, BufferView out, uint64_t width, uint64_t height,
                BufferView temp = {}) const;

  SummedAreaTable(SummedAreaTable&&) noexcept;
  SummedAreaTable& operator=(SummedAreaTable&&) noexcept;
  ~SummedAreaTable();

 private:
  explicit SummedAreaTable(std::unique_ptr<detail::SatPlan>);
  std::unique_ptr<detail::SatPlan> plan_;
};

}  // namespace vkprim
