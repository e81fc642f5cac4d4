// Sparse matrices in device memory: compressed sparse rows (CSR) with a 32-bit row pointer, or
// a 64-bit one when nnz >= 2^32 (or when asked for), u32 column indices and f32 or f64 values,
// real or complex (complex64: two f32, complex128: two f64, real part first).
// Semantics as on the host (coo.hpp): row r's entries are
// [row_ptr[r], row_ptr[r + 1]) of col_idx and values; the GPU CSR build keeps columns sorted
// within each row, an upload keeps the host's order.
//
// CsrView is the non-owning form every GPU sparse call takes (bring your own buffers);
// DeviceCsr owns its three buffers and hands out a CsrView.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>
#include <vkprim/buffer.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sparse/coo.hpp>
#include <vkprim/types.hpp>

namespace vkprim::sparse {

template <class T>
struct is_std_complex : std::false_type {};
template <class T>
struct is_std_complex<std::complex<T>> : std::true_type {};

// A CSR matrix in device memory, by device address. Requirements (checked by the calls that
// take one, except the contents): rows and cols < 2^32; value_type f32 or f64; row_ptr holds
// rows + 1 non-decreasing entries (u64 when row_ptr_64, else u32) from 0 to nnz; col_idx nnz
// u32 < cols; values nnz elements; every view aligned to its element (a complex element: to
// its value_type component).
// Complex matrices (`complex`): value_type is the type of each part, and a value is two of
// them, real part then imaginary part (std::complex's layout): 8 bytes for complex64 (f32),
// 16 for complex128 (f64). Only the calls that say so take complex matrices (Spmv with
// SpmvOptions::complex, DeviceCsr's uploads and download); the others refuse them with
// Errc::unsupported.
struct CsrView {
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t nnz = 0;
  ValueType value_type = ValueType::f32;
  bool complex = false;
  bool row_ptr_64 = false;
  BufferView row_ptr;
  BufferView col_idx;
  BufferView values;
};

struct DeviceCsrOptions {
  ValueType values = ValueType::f32;  // f32 or f64 (f64 needs shaderFloat64 for the kernels)
  // Complex values, each part of type `values` (complex64 / complex128). An upload of a host
  // matrix with Field::complex, or of std::complex values, is complex whatever this says; an
  // upload of a real matrix with this set gets zero imaginary parts.
  bool complex = false;
  // Testing aid / interoperability: a 64-bit row pointer even when nnz < 2^32.
  bool force_row_ptr_64 = false;
};

// Bytes of one stored value: size_of(type), twice that for a complex value.
constexpr uint64_t value_bytes(ValueType type, bool complex) {
  return size_of(type) * (complex ? 2 : 1);
}

// Whether a matrix of `nnz` entries gets a 64-bit row pointer.
constexpr bool needs_row_ptr_64(uint64_t nnz, bool force) {
  return force || nnz >= (uint64_t(1) << 32);
}

class DeviceCsr {
 public:
  // Device buffers for a rows x cols matrix of nnz entries, contents undefined (the GPU CSR
  // build and transpose write them). Errc::invalid_argument for dimensions >= 2^32 or a value
  // type other than f32/f64; out_of_device_memory / limit_exceeded from the allocation.
  static Result<DeviceCsr> allocate(const Context& ctx, uint64_t rows, uint64_t cols, uint64_t nnz,
                                    const DeviceCsrOptions& options = {});

  // Uploads a host CSR matrix (real, integer, pattern or complex field; values, or each part of
  // a complex value, converted to options.values; symmetry metadata is not expanded: call
  // expand_symmetry on the COO first). This is the path for complex matrices: the GPU CSR
  // build (csr_build.hpp) refuses them.
  // Checks the host matrix (offsets monotone from 0 to nnz, columns in range) and refuses a
  // malformed one with Errc::invalid_argument. Blocks until the upload completed.
  static Result<DeviceCsr> upload(Runtime& rt, const CsrMatrix& host,
                                  const DeviceCsrOptions& options = {});

  // Uploads raw CSR arrays (the form Eigen and most libraries hold; see sparse/eigen.hpp).
  // Same checks as above. Scalar std::complex<float|double> uploads a complex matrix.
  template <class Offset, class Index, class Scalar>
  static Result<DeviceCsr> upload(Runtime& rt, uint64_t rows, uint64_t cols,
                                  std::span<const Offset> row_ptr, std::span<const Index> col_idx,
                                  std::span<const Scalar> values,
                                  const DeviceCsrOptions& options = {});

  // Downloads to a host CSR matrix with real (double) values, or Field::complex values for a
  // complex matrix. Blocks until done; the caller owes the barrier from whatever wrote the
  // matrix to a transfer read (full_barrier does it).
  Result<CsrMatrix> download(Runtime& rt) const;

  CsrView view() const;
  operator CsrView() const { return view(); }
  uint64_t rows() const { return rows_; }
  uint64_t cols() const { return cols_; }
  uint64_t nnz() const { return nnz_; }
  ValueType value_type() const { return type_; }
  bool is_complex() const { return complex_; }
  bool row_ptr_64() const { return row_ptr_64_; }
  const Buffer& row_ptr_buffer() const { return row_ptr_; }
  const Buffer& col_idx_buffer() const { return col_idx_; }
  const Buffer& values_buffer() const { return values_; }

  DeviceCsr() = default;
  DeviceCsr(DeviceCsr&&) noexcept = default;
  DeviceCsr& operator=(DeviceCsr&&) noexcept = default;

  // Sets the entry count after a GPU build that found fewer entries than allocated (the
  // arrays keep their capacity). Requires nnz <= the allocated capacity.
  Status set_nnz(uint64_t nnz);

 private:
  // The common path of the uploads: arrays already in device layout (values: nnz doubles, or
  // 2 nnz interleaved parts when options.complex).
  static Result<DeviceCsr> upload_device_layout(Runtime& rt, uint64_t rows, uint64_t cols,
                                                std::span<const uint64_t> row_ptr,
                                                std::span<const uint32_t> col_idx,
                                                std::span<const double> values,
                                                const DeviceCsrOptions& options);
  uint64_t rows_ = 0, cols_ = 0, nnz_ = 0, capacity_ = 0;
  ValueType type_ = ValueType::f32;
  bool complex_ = false;
  bool row_ptr_64_ = false;
  Buffer row_ptr_, col_idx_, values_;
};

template <class Offset, class Index, class Scalar>
Result<DeviceCsr> DeviceCsr::upload(Runtime& rt, uint64_t rows, uint64_t cols,
                                    std::span<const Offset> row_ptr, std::span<const Index> col_idx,
                                    std::span<const Scalar> values,
                                    const DeviceCsrOptions& options) {
  if (row_ptr.size() != rows + 1 || col_idx.size() != values.size())
    return make_error(
        Errc::invalid_argument,
        "DeviceCsr::upload: row_ptr must hold rows + 1 entries and col_idx as many as values");
  std::vector<uint64_t> rp(row_ptr.size());
  std::vector<uint32_t> ci(col_idx.size());
  constexpr bool is_complex = is_std_complex<Scalar>::value;
  std::vector<double> v(values.size() * (is_complex ? 2 : 1));
  for (size_t i = 0; i < rp.size(); ++i) {
    if constexpr (std::is_signed_v<Offset>)
      if (row_ptr[i] < 0)
        return make_error(Errc::invalid_argument, "DeviceCsr::upload: negative row offset");
    rp[i] = uint64_t(row_ptr[i]);
  }
  for (size_t i = 0; i < ci.size(); ++i) {
    bool negative = false;
    if constexpr (std::is_signed_v<Index>) negative = col_idx[i] < 0;
    if (negative || uint64_t(col_idx[i]) >= cols)
      return make_error(Errc::invalid_argument, "DeviceCsr::upload: column index " +
                                                    std::to_string(int64_t(col_idx[i])) +
                                                    " outside [0, " + std::to_string(cols) + ")");
    ci[i] = uint32_t(col_idx[i]);
  }
  DeviceCsrOptions o = options;
  if constexpr (is_complex) {
    o.complex = true;
    for (size_t i = 0; i < values.size(); ++i) {
      v[2 * i] = double(values[i].real());
      v[2 * i + 1] = double(values[i].imag());
    }
  } else if (options.complex) {
    v.assign(values.size() * 2, 0.0);
    for (size_t i = 0; i < values.size(); ++i) v[2 * i] = double(values[i]);
  } else {
    for (size_t i = 0; i < v.size(); ++i) v[i] = double(values[i]);
  }
  return upload_device_layout(rt, rows, cols, rp, ci, v, o);
}

}  // namespace vkprim::sparse
