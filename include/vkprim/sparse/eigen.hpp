// Eigen interoperability for device CSR matrices (header-only: include it where Eigen is
// available; vkprim itself does not depend on Eigen).
//   upload(rt, eigen_matrix, options)  any Eigen::SparseMatrix (row- or column-major, any index
//                                      type); column-major matrices are converted on the host.
//                                      Scalar std::complex<float|double> gives a complex
//                                      matrix (parts of type options.values).
//   to_eigen<Scalar>(rt, device_csr)   downloads into Eigen::SparseMatrix<Scalar, RowMajor>;
//                                      a complex matrix needs a std::complex Scalar, a real one
//                                      a real Scalar (Errc::invalid_argument otherwise).
#pragma once

#include <Eigen/SparseCore>
#include <span>
#include <string>
#include <vkprim/sparse/device_csr.hpp>

namespace vkprim::sparse {

template <class Scalar, int Options, class StorageIndex>
Result<DeviceCsr> upload(Runtime& rt, const Eigen::SparseMatrix<Scalar, Options, StorageIndex>& a,
                         const DeviceCsrOptions& options = {}) {
  Eigen::SparseMatrix<Scalar, Eigen::RowMajor, StorageIndex> r = a;  // copies or converts
  r.makeCompressed();
  const auto rows = uint64_t(r.rows()), nnz = uint64_t(r.nonZeros());
  return DeviceCsr::upload(rt, rows, uint64_t(r.cols()),
                           std::span<const StorageIndex>(r.outerIndexPtr(), rows + 1),
                           std::span<const StorageIndex>(r.innerIndexPtr(), nnz),
                           std::span<const Scalar>(r.valuePtr(), nnz), options);
}

// Requires dimensions and nnz that fit Eigen's default (int) index.
template <class Scalar = double>
Result<Eigen::SparseMatrix<Scalar, Eigen::RowMajor>> to_eigen(Runtime& rt, const DeviceCsr& a) {
  constexpr bool is_complex = is_std_complex<Scalar>::value;
  if (a.is_complex() != is_complex)
    return make_error(Errc::invalid_argument, std::string("to_eigen: the matrix is ") +
                                                  (a.is_complex() ? "complex" : "real") +
                                                  ", the Scalar is " +
                                                  (is_complex ? "complex" : "real"));
  auto host = a.download(rt);
  if (!host) return host.error();
  Eigen::SparseMatrix<Scalar, Eigen::RowMajor> m(Eigen::Index(host->rows),
                                                 Eigen::Index(host->cols));
  m.resizeNonZeros(Eigen::Index(host->nnz()));
  for (size_t i = 0; i < host->row_offsets.size(); ++i)
    m.outerIndexPtr()[i] = int(host->row_offsets[i]);
  for (size_t k = 0; k < size_t(host->nnz()); ++k) {
    m.innerIndexPtr()[k] = int(host->col_indices[k]);
    if constexpr (is_complex)
      m.valuePtr()[k] = Scalar(host->complex_values[k]);
    else
      m.valuePtr()[k] = Scalar(host->real_values[k]);
  }
  return m;
}

}  // namespace vkprim::sparse
