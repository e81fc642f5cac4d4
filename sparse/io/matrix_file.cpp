// Format dispatch by file name for the command line and other whole-file users.
#include <vkprim/sparse/matrix_file.hpp>

#include "reader_support.hpp"

#include <iostream>
#include <string>

namespace vkprim::sparse {
namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const std::string t = suffix;
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

}  // namespace

Result<FileFormat> format_of(const std::filesystem::path& path) {
  return detail::no_throw(path.native(), [&]() -> Result<FileFormat> {
    const std::string name = path.string();
    if (name == "-" || ends_with(name, ".mtx") || ends_with(name, ".mtx.gz")) return FileFormat::matrix_market;
    if (ends_with(name, ".bsp.h5") || ends_with(name, ".h5")) return FileFormat::binsparse;
    return make_error(Errc::invalid_argument,
                      name + ": unknown file type (expected .mtx, .mtx.gz, .bsp.h5, or - for stdin/stdout)");
  });
}

Result<CooMatrix> read_matrix_file(const std::filesystem::path& path, const MatrixMarketReadOptions& options) {
  auto format = format_of(path);
  if (!format) return format.error();
  if (*format == FileFormat::binsparse) {
    BinsparseReadOptions o;
    o.expand_symmetry = options.expand_symmetry;
    o.sum_duplicates = options.sum_duplicates;
    return read_binsparse(path, o);
  }
  if (path == "-") return read_matrix_market(std::cin, "<stdin>", options);
  return read_matrix_market(path, options);
}

Status write_matrix_file(const CooMatrix& m, const std::filesystem::path& path, const MatrixFileWriteOptions& options) {
  auto format = format_of(path);
  if (!format) return format.error();
  if (*format == FileFormat::binsparse) return write_binsparse(m, path, {options.format, options.index, options.precision});
  if (path == "-") return write_matrix_market(m, std::cout, {options.precision});
  return write_matrix_market(m, path, {options.precision});
}

}  // namespace vkprim::sparse
