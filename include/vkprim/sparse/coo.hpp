// Host-side sparse matrices for file I/O and CPU references: coordinate (COO) and
// compressed-row (CSR) forms with 64-bit indices and counts.
//
// Semantics follow Eigen's SparseMatrix::setFromTriplets (docs/matrix-files.md):
// entries may come in any order, explicit zeros are stored entries, and duplicates are
// either kept in input order or summed in input order ((a + b) + c).
#pragma once

#include <vkprim/error.hpp>

#include <complex>
#include <cstdint>
#include <vector>

namespace vkprim::sparse {

// What a stored value is (docs/matrix-files.md).
enum class Field : uint8_t {
  real,     // values in CooMatrix::real_values (IEEE double)
  integer,  // values in CooMatrix::integer_values (exact 64-bit)
  pattern,  // no values: every stored entry means 1
  complex,  // values in CooMatrix::complex_values (two IEEE doubles: real, imaginary)
};

// Which part of the matrix is stored. For anything but `general` the matrix is square and
// each stored off-diagonal entry (i, j) also stands for (j, i): equal (symmetric, hermitian
// of a real matrix), negated (skew-symmetric) or conjugated (hermitian of a complex matrix:
// (i, j, a + bi) stands for (j, i, a - bi)). Diagonal entries stand only for themselves
// (a skew-symmetric file should store none; readers keep them as peers do).
enum class Symmetry : uint8_t { general, symmetric, skew_symmetric, hermitian };

// Matrix Market spellings: "real", "integer", "pattern", "complex"; "general", "symmetric",
// "skew-symmetric", "hermitian".
const char* to_string(Field f) noexcept;
const char* to_string(Symmetry s) noexcept;

// A matrix as a list of entries (0-based row, column, value). Order is meaningful: readers
// keep file order, and duplicate summation follows it.
struct CooMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  std::vector<int64_t> row_indices;     // nnz() entries, each in [0, rows)
  std::vector<int64_t> col_indices;     // nnz() entries, each in [0, cols)
  std::vector<double> real_values;      // nnz() entries when field == real, else empty
  std::vector<int64_t> integer_values;  // nnz() entries when field == integer, else empty
  // nnz() entries when field == complex, else empty
  std::vector<std::complex<double>> complex_values;

  int64_t nnz() const noexcept { return static_cast<int64_t>(row_indices.size()); }
  // Entry k's value as a double (1 for pattern; the real part for complex). Requires
  // 0 <= k < nnz().
  double value(int64_t k) const noexcept;
};

// A matrix in compressed sparse row form: row r's entries are
// [row_offsets[r], row_offsets[r + 1]) of col_indices and the value array of its field.
struct CsrMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  std::vector<int64_t> row_offsets;  // rows + 1 entries, non-decreasing, 0 first, nnz last
  std::vector<int64_t> col_indices;
  std::vector<double> real_values;
  std::vector<int64_t> integer_values;
  std::vector<std::complex<double>> complex_values;

  int64_t nnz() const noexcept { return static_cast<int64_t>(col_indices.size()); }
};

// Checks every invariant stated on CooMatrix (array sizes, index ranges, a square shape
// when symmetry != general). Errc::invalid_argument names the first violation.
Status validate(const CooMatrix& m);

// Makes a symmetric, skew-symmetric or hermitian matrix general: each stored off-diagonal
// entry is followed by its mirror (negated for skew-symmetric, conjugated for a hermitian
// complex matrix); diagonal entries are not
// duplicated. Entries stored in both triangles (allowed, if unusual) yield duplicates.
// No-op for general matrices. Requires validate(m).ok(). Errc::invalid_argument when a
// skew-symmetric integer entry holds -2^63 (its mirror does not fit int64_t);
// Errc::out_of_host_memory when the expanded arrays do not fit. On error m is unchanged.
Status expand_symmetry(CooMatrix& m);

// Sorts entries by (row, column) and merges duplicates, summing their values in input
// order (Eigen's setFromTriplets rule; pattern duplicates collapse to one entry).
// Requires validate(m).ok(). Errc::invalid_argument when an integer sum leaves the signed
// 64-bit range (never wraps); Errc::out_of_host_memory. On error m is unchanged.
Status sum_duplicates(CooMatrix& m);

// CSR of m: columns sorted within each row; duplicates kept in input order, or summed as
// sum_duplicates() does when `sum` is true (with its errors). Symmetry is carried over, not
// expanded. Requires validate(m).ok(); Errc::out_of_host_memory when rows + 1 offsets or
// the entries do not fit.
Result<CsrMatrix> to_csr(const CooMatrix& m, bool sum);

// The entries of a CSR matrix in row-major order. Requires a well-formed `m`;
// Errc::out_of_host_memory when they do not fit.
Result<CooMatrix> to_coo(const CsrMatrix& m);

// Exchanges rows and columns (entry order unchanged). A stored triangle moves to the
// other triangle; symmetry metadata is kept.
void transpose(CooMatrix& m);

}  // namespace vkprim::sparse
