// Matrix Market writer: coordinate format, 1-based indices (a complex value is its real and
// imaginary parts, blank-separated), values printed with
// std::to_chars (shortest round-trip text for doubles and floats, exact integers). Files are
// written through an AtomicFile: the target is replaced only by a complete file.
#include <vkprim/sparse/matrix_market.hpp>

#include "core/atomic_file.hpp"

#include <zlib.h>

#include <cerrno>
#include <charconv>
#include <complex>
#include <cstdio>
#include <functional>
#include <ostream>
#include <string>

#include <unistd.h>

namespace vkprim::sparse {
namespace {

using Sink = std::function<bool(std::string_view)>;

// Formats m into blocks of about 1 MiB and hands each to `sink`; false if a sink failed.
bool format(const CooMatrix& m, const MatrixMarketWriteOptions& options, const Sink& sink) {
  std::string head = std::string("%%MatrixMarket matrix coordinate ") + to_string(m.field) + " " +
                     to_string(m.symmetry) + "\n" + std::to_string(m.rows) + " " +
                     std::to_string(m.cols) + " " + std::to_string(m.nnz()) + "\n";
  if (!sink(head)) return false;

  constexpr size_t kBlock = size_t(1) << 20;
  constexpr size_t kMaxLine = 4 * 24 + 8;  // two int64, one or two value parts, blanks and '\n'
  std::string block(kBlock + kMaxLine, '\0');
  char* const base = block.data();
  char* p = base;
  const bool f32 = options.precision == RealPrecision::f32;
  for (int64_t k = 0; k < m.nnz(); ++k) {
    char* const line_end = base + block.size();
    p = std::to_chars(p, line_end, m.row_indices[size_t(k)] + 1).ptr;
    *p++ = ' ';
    p = std::to_chars(p, line_end, m.col_indices[size_t(k)] + 1).ptr;
    if (m.field == Field::real) {
      *p++ = ' ';
      const double v = m.real_values[size_t(k)];
      p = f32 ? std::to_chars(p, line_end, static_cast<float>(v)).ptr : std::to_chars(p, line_end, v).ptr;
    } else if (m.field == Field::integer) {
      *p++ = ' ';
      p = std::to_chars(p, line_end, m.integer_values[size_t(k)]).ptr;
    } else if (m.field == Field::complex) {
      const std::complex<double> v = m.complex_values[size_t(k)];
      for (const double part : {v.real(), v.imag()}) {
        *p++ = ' ';
        p = f32 ? std::to_chars(p, line_end, static_cast<float>(part)).ptr
                : std::to_chars(p, line_end, part).ptr;
      }
    }
    *p++ = '\n';
    if (size_t(p - base) >= kBlock) {
      if (!sink({base, size_t(p - base)})) return false;
      p = base;
    }
  }
  return p == base || sink({base, size_t(p - base)});
}

}  // namespace

Status write_matrix_market(const CooMatrix& m, std::ostream& out, const MatrixMarketWriteOptions& options) {
  VKPRIM_TRY(validate(m));
  const bool ok = format(m, options, [&](std::string_view s) {
    out.write(s.data(), std::streamsize(s.size()));
    return bool(out);
  });
  if (!ok || !out.flush()) return make_error(Errc::io_error, "writing Matrix Market output failed");
  return {};
}

Status write_matrix_market(const CooMatrix& m, const std::filesystem::path& path,
                           const MatrixMarketWriteOptions& options) {
  VKPRIM_TRY(validate(m));
  const std::string name = path.string();
  const bool gz = name.size() >= 3 && name.compare(name.size() - 3, 3, ".gz") == 0;
  auto file = vkprim::detail::AtomicFile::create(path);
  if (!file) return file.error();
  if (gz) {
    // zlib closes the descriptor it is given; the AtomicFile keeps its own to sync and close.
    const int fd = ::dup(file->descriptor());
    gzFile f = fd < 0 ? nullptr : gzdopen(fd, "wb6");
    if (f == nullptr) {
      const int err = errno;
      if (fd >= 0) ::close(fd);
      return vkprim::detail::file_error(name, "cannot start gzip output", err);
    }
    const bool ok = format(m, options, [&](std::string_view s) {
      return gzwrite(f, s.data(), unsigned(s.size())) == int(s.size());
    });
    const int write_err = errno;
    const int closed = gzclose(f);
    if (!ok || closed != Z_OK) return vkprim::detail::file_error(name, "write failed", ok ? errno : write_err);
    return file->commit();
  }
  auto f = file->stream();
  if (!f) return f.error();
  const bool ok = format(m, options, [&](std::string_view s) {
    return std::fwrite(s.data(), 1, s.size(), *f) == s.size();
  });
  if (!ok) return vkprim::detail::file_error(name, "write failed", errno);
  return file->commit();
}

}  // namespace vkprim::sparse
