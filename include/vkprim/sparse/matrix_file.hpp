// Reading and writing a matrix file whose format follows from its name: ".bsp.h5" / ".h5"
// is Binsparse, anything else Matrix Market (gzip detected by content when reading, chosen
// by a ".gz" suffix when writing), and "-" is Matrix Market on stdin / stdout.
#pragma once

#include <vkprim/error.hpp>
#include <vkprim/sparse/binsparse.hpp>
#include <vkprim/sparse/coo.hpp>
#include <vkprim/sparse/matrix_market.hpp>

#include <filesystem>

namespace vkprim::sparse {

enum class FileFormat : uint8_t { matrix_market, binsparse };

// The format `path` names, or Errc::invalid_argument for a name ending in neither ".mtx",
// ".mtx.gz", ".bsp.h5", ".h5" nor being "-".
Result<FileFormat> format_of(const std::filesystem::path& path);

// Reads any supported file. Options beyond expand/sum/threads/progress apply to Matrix
// Market only; Binsparse files get BinsparseReadOptions' other defaults (call
// read_binsparse to raise max_dense_entries). Errors as read_matrix_market / read_binsparse.
Result<CooMatrix> read_matrix_file(const std::filesystem::path& path, const MatrixMarketReadOptions& options = {});

struct MatrixFileWriteOptions {
  RealPrecision precision = RealPrecision::f64;
  IndexWidth index = IndexWidth::i64;               // Binsparse only
  BinsparseFormat format = BinsparseFormat::csr;    // Binsparse only
};

// Writes `m` in the format `path` names (validate(m).ok() required).
Status write_matrix_file(const CooMatrix& m, const std::filesystem::path& path,
                         const MatrixFileWriteOptions& options = {});

}  // namespace vkprim::sparse
