// Matrix Market (NIST) text files: reader and writer. Accepted and refused variants are
// listed in docs/matrix-files.md.
//
// Errors never throw. Malformed contents give Errc::parse_error with a message
// "<name>:<line>: expected <what>[, found '<token>']"; files that cannot be opened or read
// give Errc::io_error; compressed input other than gzip gives Errc::unsupported. Complex
// matrices (field `complex`: two reals per value, real part first) read into
// CooMatrix::complex_values and are written the same way.
#pragma once

#include <vkprim/error.hpp>
#include <vkprim/sparse/coo.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string_view>

namespace vkprim::sparse {

struct MatrixMarketReadOptions {
  // Mirror the stored triangle of symmetric/skew/hermitian files (expand_symmetry()).
  bool expand_symmetry = false;
  // Sort row-major and sum duplicate entries in file order (sum_duplicates()).
  bool sum_duplicates = false;
  // Parser threads; 0 means std::thread::hardware_concurrency().
  unsigned threads = 0;
  // Target size of one parse chunk in bytes; 0 picks a default (4 MiB). Small values are
  // for tests: the result does not depend on it.
  size_t chunk_bytes = 0;
  // Called with (bytes of data parsed, total bytes of data) as parsing advances; may be
  // called from any parser thread, never concurrently.
  std::function<void(uint64_t done, uint64_t total)> progress;
};

// Parses a whole Matrix Market text held in memory. `name` is used in error messages.
// Object `vector` is read as an n x 1 matrix. The reader allocates in proportion to the
// text, never to counts claimed by its header.
Result<CooMatrix> parse_matrix_market(std::string_view text, std::string_view name,
                                      const MatrixMarketReadOptions& options = {});

// Reads a file; gzip-compressed input (detected by its magic bytes) is inflated first.
Result<CooMatrix> read_matrix_market(const std::filesystem::path& path,
                                     const MatrixMarketReadOptions& options = {});

// Reads a whole stream (e.g. std::cin; gzip detected as above). `name` names it in errors.
Result<CooMatrix> read_matrix_market(std::istream& in, std::string_view name,
                                     const MatrixMarketReadOptions& options = {});

// How real values are printed: shortest text that reads back to the same double, or to
// the same float (values rounded to float first).
enum class RealPrecision : uint8_t { f64, f32 };

struct MatrixMarketWriteOptions {
  RealPrecision precision = RealPrecision::f64;
};

// Writes `m` as coordinate Matrix Market with its field and symmetry; indices 1-based,
// entries in m's order. Integer and pattern matrices round-trip exactly; real values, and
// each part of a complex value, are printed with std::to_chars' shortest round-trip form.
// Requires validate(m).ok().
Status write_matrix_market(const CooMatrix& m, std::ostream& out,
                           const MatrixMarketWriteOptions& options = {});

// As above, into a file; a path ending in ".gz" is written gzip-compressed. The file is
// replaced only once complete (docs/matrix-files.md, "Writing files"): on any failure the
// previous file is untouched and Errc::io_error names the file and the system's reason.
Status write_matrix_market(const CooMatrix& m, const std::filesystem::path& path,
                           const MatrixMarketWriteOptions& options = {});

}  // namespace vkprim::sparse
