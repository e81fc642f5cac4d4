// Binsparse v0.1 over HDF5 (GraphBLAS/binsparse-specification): a JSON descriptor in the
// root group's string attribute "binsparse" and one dataset per array ("pointers_to_1",
// "indices_0", "indices_1", "values"). What is read, written and refused is listed in
// docs/matrix-files.md.
//
// Errors: Errc::io_error when the file cannot be opened, read or written; Errc::parse_error
// for malformed descriptors or arrays and for corrupt HDF5 files (message names the file and
// the key, dataset or byte offset); Errc::unsupported for valid files vkprim does not handle
// (tensors of rank > 2, the HDF5 features listed in docs/matrix-files.md);
// Errc::limit_exceeded for a dense matrix above BinsparseReadOptions::max_dense_entries;
// Errc::invalid_argument when a matrix does not fit the requested index type.
//
// Reading never crashes on a corrupt file: the reader decodes the HDF5 structures and data
// it needs itself, with bounds checks, and leaves libhdf5 only the chunk indexes of the HDF5
// 1.10 format, read through a driver that checks every range. Memory follows the file's
// bytes: a dataset must store its elements (at most zlib's 1032:1 when deflated).
#pragma once

#include <vkprim/error.hpp>
#include <vkprim/sparse/coo.hpp>
#include <vkprim/sparse/matrix_market.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

namespace vkprim::sparse {

struct BinsparseReadOptions {
  bool expand_symmetry = false;  // as MatrixMarketReadOptions
  bool sum_duplicates = false;
  // Dense formats (DMAT, DMATR, DMATC, DVEC) store no indices, and with an iso value one
  // value for every cell, so a tiny file can describe any number of entries. A dense matrix
  // of more entries than this is refused (Errc::limit_exceeded); raise it to read one. The
  // default, 2^26, is an 8192 x 8192 matrix: 1.5 GiB of CooMatrix arrays.
  int64_t max_dense_entries = int64_t(1) << 26;
};

// Reads COO/COOR/COOC, CSR, CSC, DCSR, DCSC, DMAT/DMATR/DMATC (every value becomes a stored
// entry) and CVEC/VEC/DVEC (an n x 1 matrix). Index arrays of any integer type; values of
// any integer or float type, `iso[...]` values, complex[float32|float64] values (a `values`
// dataset of 2n floats: value k's real part at 2k, its imaginary part at 2k + 1, as the
// Binsparse v0.1 spec stores them; read as Field::complex), and `structure` symmetric_*,
// skew_symmetric_*, hermitian_* (the stored triangle is mirrored into the lower one if
// needed, negated for skew and conjugated for hermitian complex values, so the result keeps
// the Matrix Market convention). `iso[bint8]` with value 1
// reads as a pattern matrix. Unknown descriptor keys are ignored.
Result<CooMatrix> read_binsparse(const std::filesystem::path& path,
                                 const BinsparseReadOptions& options = {});

// As read_binsparse, from a whole HDF5 file held in memory; `name` names it in errors.
Result<CooMatrix> parse_binsparse(std::span<const std::byte> image, std::string_view name,
                                  const BinsparseReadOptions& options = {});

enum class BinsparseFormat : uint8_t { coo, csr, csc };
enum class IndexWidth : uint8_t { i32, i64 };

struct BinsparseWriteOptions {
  BinsparseFormat format = BinsparseFormat::csr;
  IndexWidth index = IndexWidth::i64;            // dtype of indices and pointers
  RealPrecision precision = RealPrecision::f64;  // dtype of real values
};

// Writes `m` (validate(m).ok() required). COO keeps m's entry order; CSR/CSC sort it
// (duplicates kept). Integer values are int64, pattern matrices are `iso[bint8]` = 1, complex
// values complex[float64] (or complex[float32] with RealPrecision::f32) as 2n floats, and a
// non-general matrix gets `structure` *_lower or *_upper, whichever triangle holds its
// entries (invalid_argument if it stores both: expand it first). Replaces `path` only once
// complete, as write_matrix_market.
Status write_binsparse(const CooMatrix& m, const std::filesystem::path& path,
                       const BinsparseWriteOptions& options = {});

}  // namespace vkprim::sparse
