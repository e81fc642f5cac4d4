// libFuzzer target for the gzip path of the Matrix Market reader (read_matrix_market on a
// stream: magic-byte detection, zlib inflation of one or more members, then the parser).
// Each input is used twice:
//  - as it is, through the stream reader: a gzip input (seeded with gzip files) exercises
//    corrupt and truncated streams; anything else must read as the text parser reads it;
//  - as a text, compressed here (one member, two members split at an input-chosen point,
//    and cut short): the members must read exactly as the text does, errors included, and
//    a cut stream must be an error about the gzip data.
#include <vkprim/sparse/matrix_market.hpp>

#include "fuzz_support.hpp"

#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>

using namespace vkprim;
using namespace vkprim::sparse;

namespace {

using fuzz::same;

bool same(const Result<CooMatrix>& a, const Result<CooMatrix>& b) {
  if (a.ok() != b.ok()) return false;
  return a.ok() ? same(a.value(), b.value()) : a.error().message == b.error().message;
}

// One gzip member holding `text`.
std::string gzip(std::string_view text, int level) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::string out(deflateBound(&z, uLong(text.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = uInt(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

Result<CooMatrix> read_stream(const std::string& bytes) {
  std::istringstream in(bytes);
  MatrixMarketReadOptions o;
  o.threads = 1;
  return read_matrix_market(in, "fuzz.mtx", o);
}

bool has_magic(std::string_view s) {
  return s.substr(0, 2) == "\x1f\x8b" || s.substr(0, 3) == "BZh" || s.substr(0, 5) == "\xFD" "7zXZ" ||
         s.substr(0, 4) == "\x28\xB5\x2F\xFD";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  MatrixMarketReadOptions whole;
  whole.threads = 1;
  const auto expected = parse_matrix_market(text, "fuzz.mtx", whole);

  auto raw = read_stream(text);
  if (!has_magic(text) && !same(raw, expected)) std::abort();
  if (!raw.ok() && raw.error().message.rfind("fuzz.mtx", 0) != 0) std::abort();
  if (has_magic(text)) return 0;

  const std::string one = gzip(text, int(size % 10));
  if (!same(read_stream(one), expected)) std::abort();
  const size_t split = size ? data[0] % (size + 1) : 0;
  const std::string two =
      gzip(std::string_view(text).substr(0, split), 6) + gzip(std::string_view(text).substr(split), 1);
  if (!same(read_stream(two), expected)) std::abort();
  const auto cut = read_stream(one.substr(0, one.size() - 1 - size % 8));
  if (cut.ok() || cut.error().message.find("gzip") == std::string::npos) std::abort();
  return 0;
}
