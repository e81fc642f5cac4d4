// Getting Matrix Market text into memory: whole files and streams, gzip inflated.
#include <vkprim/sparse/matrix_market.hpp>

#include "reader_support.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <istream>
#include <memory>
#include <string>

namespace vkprim::sparse {
namespace {

// An uninitialised byte buffer (a 500 MB file is not zero-filled before being read).
struct Bytes {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  size_t capacity = 0;

  void reserve(size_t n) {
    if (n <= capacity) return;
    std::unique_ptr<char[]> bigger(new char[n]);
    if (size) std::memcpy(bigger.get(), data.get(), size);
    data = std::move(bigger);
    capacity = n;
  }
  std::string_view view() const { return {data.get(), size}; }
};

bool is_gzip(const Bytes& b) {
  return b.size >= 2 && static_cast<unsigned char>(b.data[0]) == 0x1f &&
         static_cast<unsigned char>(b.data[1]) == 0x8b;
}

// Inflates every gzip member of `in`. Memory grows with the output actually produced.
Result<Bytes> gunzip(const Bytes& in, std::string_view name) {
  Bytes out;
  out.reserve(std::max<size_t>(in.size * 4, 1 << 16));
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return make_error(Errc::io_error, std::string(name) + ": zlib init failed");
  size_t consumed = 0;
  int rc = Z_OK;
  for (;;) {
    if (out.size == out.capacity) out.reserve(out.capacity * 2);
    const size_t in_left = in.size - consumed;
    const size_t out_left = out.capacity - out.size;
    z.next_in = reinterpret_cast<Bytef*>(in.data.get() + consumed);
    z.avail_in = uInt(std::min<size_t>(in_left, 1u << 30));
    z.next_out = reinterpret_cast<Bytef*>(out.data.get() + out.size);
    z.avail_out = uInt(std::min<size_t>(out_left, 1u << 30));
    const uInt avail_in = z.avail_in, avail_out = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    consumed += avail_in - z.avail_in;
    out.size += avail_out - z.avail_out;
    if (rc == Z_STREAM_END) {
      if (consumed == in.size) break;
      inflateReset(&z);  // a further gzip member follows
      continue;
    }
    if (rc == Z_BUF_ERROR && z.avail_out != 0) break;  // input ran out: truncated
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;         // corrupt data
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END)
    return make_error(Errc::parse_error, std::string(name) + ": corrupt or truncated gzip data (" +
                                             (z.msg ? z.msg : "unexpected end of data") + ")");
  return out;
}

Result<CooMatrix> parse_bytes(Bytes bytes, std::string_view name, const MatrixMarketReadOptions& options) {
  if (bytes.view().substr(0, 3) == "BZh" || bytes.view().substr(0, 5) == "\xFD" "7zXZ" ||
      bytes.view().substr(0, 4) == "\x28\xB5\x2F\xFD")
    return make_error(Errc::unsupported, std::string(name) +
                                             ": bzip2/xz/zstd-compressed input is not supported "
                                             "(decompress it first; gzip is read directly)");
  if (is_gzip(bytes)) {
    auto inflated = gunzip(bytes, name);
    if (!inflated) return inflated.error();
    bytes = std::move(*inflated);
  }
  return parse_matrix_market(bytes.view(), name, options);
}

}  // namespace

Result<CooMatrix> read_matrix_market(const std::filesystem::path& path,
                                     const MatrixMarketReadOptions& options) {
  return detail::no_throw(path.native(), [&]() -> Result<CooMatrix> {
    const std::string name = path.string();
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(name.c_str(), "rb"), &std::fclose);
    if (!f) return make_error(Errc::io_error, name + ": cannot open (" + std::strerror(errno) + ")");
    Bytes bytes;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    bytes.reserve(ec ? size_t(1) << 20 : size_t(size) + 1);
    for (;;) {
      if (bytes.size == bytes.capacity) bytes.reserve(bytes.capacity * 2);
      const size_t got = std::fread(bytes.data.get() + bytes.size, 1, bytes.capacity - bytes.size, f.get());
      bytes.size += got;
      if (got == 0) break;
    }
    if (std::ferror(f.get())) return make_error(Errc::io_error, name + ": read failed");
    return parse_bytes(std::move(bytes), name, options);
  });
}

Result<CooMatrix> read_matrix_market(std::istream& in, std::string_view name,
                                     const MatrixMarketReadOptions& options) {
  return detail::no_throw(name, [&]() -> Result<CooMatrix> {
    Bytes bytes;
    bytes.reserve(size_t(1) << 20);
    while (in) {
      if (bytes.size == bytes.capacity) bytes.reserve(bytes.capacity * 2);
      in.read(bytes.data.get() + bytes.size, std::streamsize(bytes.capacity - bytes.size));
      bytes.size += size_t(in.gcount());
    }
    if (in.bad()) return make_error(Errc::io_error, std::string(name) + ": read failed");
    return parse_bytes(std::move(bytes), name, options);
  });
}

}  // namespace vkprim::sparse
