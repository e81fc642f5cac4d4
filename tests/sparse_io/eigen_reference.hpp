// CPU reference CSR for the sparse tests: Eigen's SparseMatrix::setFromTriplets, whose rules
// (any order; duplicates summed in input order; explicit zeros kept; columns sorted) define
// vkprim's CSR semantics (shared/design/NOTES.md §6). Header-only; needs Eigen3.
#pragma once

#include <vkprim/sparse/coo.hpp>

#include <Eigen/SparseCore>

#include <cstdint>
#include <vector>

namespace vkprim::test {

using EigenCsr = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// The matrix of m's stored entries (no symmetry expansion; call sparse::expand_symmetry
// first for the full matrix), built by setFromTriplets in m's entry order. Pattern entries
// are 1. Requires dimensions and entry count that fit Eigen's int indices.
inline EigenCsr eigen_reference(const sparse::CooMatrix& m) {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(size_t(m.nnz()));
  for (int64_t k = 0; k < m.nnz(); ++k)
    triplets.emplace_back(int(m.row_indices[size_t(k)]), int(m.col_indices[size_t(k)]), m.value(k));
  EigenCsr a(Eigen::Index(m.rows), Eigen::Index(m.cols));
  a.setFromTriplets(triplets.begin(), triplets.end());
  a.makeCompressed();
  return a;
}

// The same matrix as a vkprim CsrMatrix of real values (for element-wise comparison).
inline sparse::CsrMatrix to_csr_matrix(const EigenCsr& a) {
  sparse::CsrMatrix csr;
  csr.rows = a.rows();
  csr.cols = a.cols();
  csr.field = sparse::Field::real;
  csr.row_offsets.assign(a.outerIndexPtr(), a.outerIndexPtr() + a.rows() + 1);
  csr.col_indices.assign(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
  csr.real_values.assign(a.valuePtr(), a.valuePtr() + a.nonZeros());
  return csr;
}

}  // namespace vkprim::test
