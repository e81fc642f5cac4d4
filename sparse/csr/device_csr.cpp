// DeviceCsr: allocation, upload from host CSR arrays (checked), download to a host CsrMatrix.
#include <cstring>
#include <string>
#include <vector>
#include <vkprim/sparse/device_csr.hpp>

namespace vkprim::sparse {

namespace {
Error bad(const std::string& what) {
  return make_error(Errc::invalid_argument, "DeviceCsr: " + what);
}
}  // namespace

Result<DeviceCsr> DeviceCsr::allocate(const Context& ctx, uint64_t rows, uint64_t cols,
                                      uint64_t nnz, const DeviceCsrOptions& o) {
  if (rows >= (uint64_t(1) << 32) || cols >= (uint64_t(1) << 32))
    return bad("rows and cols must be < 2^32 (" + std::to_string(rows) + " x " +
               std::to_string(cols) + ")");
  if (o.values != ValueType::f32 && o.values != ValueType::f64)
    return bad(std::string("values must be f32 or f64, not ") + to_string(o.values));
  DeviceCsr m;
  m.rows_ = rows;
  m.cols_ = cols;
  m.nnz_ = nnz;
  m.capacity_ = nnz;
  m.type_ = o.values;
  m.complex_ = o.complex;
  m.row_ptr_64_ = needs_row_ptr_64(nnz, o.force_row_ptr_64);
  auto rp = Buffer::create(ctx, (rows + 1) * (m.row_ptr_64_ ? 8 : 4));
  if (!rp) return rp.error();
  auto ci = Buffer::create(ctx, nnz * 4);
  if (!ci) return ci.error();
  auto v = Buffer::create(ctx, nnz * value_bytes(o.values, o.complex));
  if (!v) return v.error();
  m.row_ptr_ = std::move(*rp);
  m.col_idx_ = std::move(*ci);
  m.values_ = std::move(*v);
  return m;
}

Status DeviceCsr::set_nnz(uint64_t nnz) {
  if (nnz > capacity_)
    return bad("set_nnz(" + std::to_string(nnz) + ") exceeds the capacity " +
               std::to_string(capacity_));
  if (nnz >= (uint64_t(1) << 32) && !row_ptr_64_)
    return bad("nnz >= 2^32 needs a 64-bit row pointer");
  nnz_ = nnz;
  return {};
}

CsrView DeviceCsr::view() const {
  CsrView v;
  v.rows = rows_;
  v.cols = cols_;
  v.nnz = nnz_;
  v.value_type = type_;
  v.complex = complex_;
  v.row_ptr_64 = row_ptr_64_;
  v.row_ptr = row_ptr_.view().sub(0, (rows_ + 1) * (row_ptr_64_ ? 8 : 4));
  v.col_idx = col_idx_.view().sub(0, nnz_ * 4);
  v.values = values_.view().sub(0, nnz_ * value_bytes(type_, complex_));
  return v;
}

Result<DeviceCsr> DeviceCsr::upload_device_layout(Runtime& rt, uint64_t rows, uint64_t cols,
                                                  std::span<const uint64_t> row_ptr,
                                                  std::span<const uint32_t> col_idx,
                                                  std::span<const double> values,
                                                  const DeviceCsrOptions& o) {
  const uint64_t nnz = col_idx.size();
  if (row_ptr.size() != rows + 1 || values.size() != nnz * (o.complex ? 2 : 1))
    return bad("row_ptr must hold rows + 1 entries and values nnz");
  if (row_ptr[0] != 0 || row_ptr[rows] != nnz)
    return bad("row_ptr must start at 0 and end at nnz (" + std::to_string(nnz) + "), found " +
               std::to_string(row_ptr[0]) + " and " + std::to_string(row_ptr[rows]));
  for (uint64_t r = 0; r < rows; ++r)
    if (row_ptr[r + 1] < row_ptr[r]) return bad("row_ptr decreases at row " + std::to_string(r));
  for (uint64_t k = 0; k < nnz; ++k)
    if (col_idx[k] >= cols)
      return bad("column index " + std::to_string(col_idx[k]) + " of entry " + std::to_string(k) +
                 " outside [0, " + std::to_string(cols) + ")");
  auto m = allocate(rt.context(), rows, cols, nnz, o);
  if (!m) return m.error();
  if (m->row_ptr_64_) {
    VKPRIM_TRY(rt.upload(m->row_ptr_.view(), row_ptr.data(), row_ptr.size_bytes()));
  } else {
    std::vector<uint32_t> rp(row_ptr.begin(), row_ptr.end());
    VKPRIM_TRY(rt.upload(m->row_ptr_.view(), rp.data(), rp.size() * 4));
  }
  VKPRIM_TRY(rt.upload(m->col_idx_.view(), col_idx.data(), col_idx.size_bytes()));
  if (o.values == ValueType::f64) {
    VKPRIM_TRY(rt.upload(m->values_.view(), values.data(), values.size_bytes()));
  } else {
    std::vector<float> v(values.begin(), values.end());
    VKPRIM_TRY(rt.upload(m->values_.view(), v.data(), v.size() * 4));
  }
  return m;
}

Result<DeviceCsr> DeviceCsr::upload(Runtime& rt, const CsrMatrix& host, const DeviceCsrOptions& o) {
  if (host.rows < 0 || host.cols < 0) return bad("negative dimensions");
  const size_t nnz = size_t(host.nnz());
  if (host.row_offsets.size() != size_t(host.rows) + 1)
    return bad("row_offsets must hold rows + 1 entries");
  std::vector<uint64_t> rp(host.row_offsets.size());
  for (size_t i = 0; i < rp.size(); ++i) {
    if (host.row_offsets[i] < 0) return bad("negative row offset");
    rp[i] = uint64_t(host.row_offsets[i]);
  }
  std::vector<uint32_t> ci(nnz);
  for (size_t k = 0; k < nnz; ++k) {
    const int64_t c = host.col_indices[k];
    if (c < 0 || c >= host.cols)
      return bad("column index " + std::to_string(c) + " outside [0, " + std::to_string(host.cols) +
                 ")");
    ci[k] = uint32_t(c);
  }
  DeviceCsrOptions opts = o;
  if (host.field == Field::complex) opts.complex = true;
  std::vector<double> v(nnz, 1.0);  // pattern: every stored entry is 1
  if (host.field == Field::complex) {
    if (host.complex_values.size() != nnz) return bad("complex_values must hold nnz entries");
    v.resize(2 * nnz);
    for (size_t k = 0; k < nnz; ++k) {
      v[2 * k] = host.complex_values[k].real();
      v[2 * k + 1] = host.complex_values[k].imag();
    }
    return upload_device_layout(rt, uint64_t(host.rows), uint64_t(host.cols), rp, ci, v, opts);
  }
  if (host.field == Field::real) {
    if (host.real_values.size() != nnz) return bad("real_values must hold nnz entries");
    v = host.real_values;
  } else if (host.field == Field::integer) {
    if (host.integer_values.size() != nnz) return bad("integer_values must hold nnz entries");
    for (size_t k = 0; k < nnz; ++k) v[k] = double(host.integer_values[k]);
  }
  if (opts.complex) {  // a real matrix as complex: zero imaginary parts
    std::vector<double> c(2 * nnz, 0.0);
    for (size_t k = 0; k < nnz; ++k) c[2 * k] = v[k];
    v = std::move(c);
  }
  return upload_device_layout(rt, uint64_t(host.rows), uint64_t(host.cols), rp, ci, v, opts);
}

Result<CsrMatrix> DeviceCsr::download(Runtime& rt) const {
  CsrMatrix m;
  m.rows = int64_t(rows_);
  m.cols = int64_t(cols_);
  m.field = Field::real;
  m.row_offsets.resize(rows_ + 1);
  if (row_ptr_64_) {
    std::vector<uint64_t> rp(rows_ + 1);
    VKPRIM_TRY(rt.download(row_ptr_.view(), rp.data(), rp.size() * 8));
    for (size_t i = 0; i < rp.size(); ++i) m.row_offsets[i] = int64_t(rp[i]);
  } else {
    std::vector<uint32_t> rp(rows_ + 1);
    VKPRIM_TRY(rt.download(row_ptr_.view(), rp.data(), rp.size() * 4));
    for (size_t i = 0; i < rp.size(); ++i) m.row_offsets[i] = int64_t(rp[i]);
  }
  std::vector<uint32_t> ci(nnz_);
  VKPRIM_TRY(rt.download(col_idx_.view(), ci.data(), ci.size() * 4));
  m.col_indices.assign(ci.begin(), ci.end());
  if (complex_) {
    m.field = Field::complex;
    std::vector<double> parts(2 * nnz_);
    if (type_ == ValueType::f64) {
      VKPRIM_TRY(rt.download(values_.view(), parts.data(), parts.size() * 8));
    } else {
      std::vector<float> f(2 * nnz_);
      VKPRIM_TRY(rt.download(values_.view(), f.data(), f.size() * 4));
      parts.assign(f.begin(), f.end());
    }
    m.complex_values.resize(nnz_);
    for (size_t k = 0; k < nnz_; ++k) m.complex_values[k] = {parts[2 * k], parts[2 * k + 1]};
  } else if (type_ == ValueType::f64) {
    m.real_values.resize(nnz_);
    VKPRIM_TRY(rt.download(values_.view(), m.real_values.data(), nnz_ * 8));
  } else {
    std::vector<float> v(nnz_);
    VKPRIM_TRY(rt.download(values_.view(), v.data(), nnz_ * 4));
    m.real_values.assign(v.begin(), v.end());
  }
  return m;
}

}  // namespace vkprim::sparse
