// Banner: "%%MatrixMarket <object> <format> <field> <symmetry>", tokens case-insensitive.
// Tolerated deviations (fast_matrix_market reads them too): blanks before the banner, a
// single leading '%', and the field spelling "double" for "real".
#include "mm_header.hpp"

#include "text_scan.hpp"

#include <string>

namespace vkprim::sparse::detail {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// Reads one blank-separated token on the current line; empty at a line end.
std::string_view token(const char*& p, const char* end) {
  p = skip_blanks(p, end);
  const char* start = p;
  while (p != end && !is_blank(*p) && !is_eol(*p)) ++p;
  return {start, size_t(p - start)};
}

}  // namespace

Result<MatrixMarketHeader> parse_matrix_market_header(std::string_view text, std::string_view name) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  auto at = [&](const char* p) { return size_t(p - begin); };
  MatrixMarketHeader h;

  // Banner.
  const char* p = begin;
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") p += 3;  // UTF-8 byte order mark
  p = skip_blanks(p, end);
  const char* tok = p;
  std::string_view banner = token(p, end);
  if (!iequals(banner, "%%MatrixMarket") && !iequals(banner, "%MatrixMarket"))
    return expected_at(name, text, at(tok), "banner '%%MatrixMarket'");

  tok = skip_blanks(p, end);
  std::string_view object = token(p, end);
  if (iequals(object, "vector")) h.vector = true;
  else if (!iequals(object, "matrix")) return expected_at(name, text, at(tok), "object 'matrix' or 'vector'");

  tok = skip_blanks(p, end);
  std::string_view format = token(p, end);
  if (iequals(format, "array")) h.coordinate = false;
  else if (!iequals(format, "coordinate")) return expected_at(name, text, at(tok), "format 'coordinate' or 'array'");

  tok = skip_blanks(p, end);
  std::string_view field = token(p, end);
  if (iequals(field, "real") || iequals(field, "double")) h.field = Field::real;
  else if (iequals(field, "integer")) h.field = Field::integer;
  else if (iequals(field, "pattern")) h.field = Field::pattern;
  else if (iequals(field, "complex")) h.field = Field::complex;
  else return expected_at(name, text, at(tok), "field 'real', 'integer', 'pattern' or 'complex'");

  tok = skip_blanks(p, end);
  std::string_view symmetry = token(p, end);
  if (iequals(symmetry, "general")) h.symmetry = Symmetry::general;
  else if (iequals(symmetry, "symmetric")) h.symmetry = Symmetry::symmetric;
  else if (iequals(symmetry, "skew-symmetric")) h.symmetry = Symmetry::skew_symmetric;
  else if (iequals(symmetry, "hermitian")) h.symmetry = Symmetry::hermitian;
  else
    return expected_at(name, text, at(tok),
                       "symmetry 'general', 'symmetric', 'skew-symmetric' or 'hermitian'");

  tok = skip_blanks(p, end);
  if (!token(p, end).empty()) return expected_at(name, text, at(tok), "end of the banner line");

  if (h.vector && h.symmetry != Symmetry::general)
    return error_at(name, text, 0, "a vector must have symmetry 'general', not '" + std::string(symmetry) + "'");
  if (!h.coordinate && h.field == Field::pattern)
    return error_at(name, text, 0, "'array' format cannot have field 'pattern' (pattern needs coordinates)");
  if (h.field == Field::pattern && h.symmetry != Symmetry::general &&
      h.symmetry != Symmetry::symmetric)
    return error_at(name, text, 0, "field 'pattern' cannot be " + std::string(symmetry));

  // Comments and blank lines, then the size line.
  p = next_line(p, end);
  for (;;) {
    const char* q = skip_blanks(p, end);
    if (q == end) return expected_at(name, text, at(q), "the size line");
    if (is_eol(*q) || *q == '%') { p = next_line(q, end); continue; }
    p = q;
    break;
  }
  auto size_value = [&](const char* what, int64_t& out) -> Status {
    p = skip_blanks(p, end);
    const char* q = parse_int64(p, end, out);
    if (q == nullptr || out < 0)
      return expected_at(name, text, at(p), std::string(what) + " (an integer >= 0)");
    p = q;
    return {};
  };
  if (h.vector) {
    VKPRIM_TRY(size_value("vector length", h.rows));
    h.cols = 1;
  } else {
    VKPRIM_TRY(size_value("number of rows", h.rows));
    VKPRIM_TRY(size_value("number of columns", h.cols));
  }
  if (h.coordinate) VKPRIM_TRY(size_value("number of entries", h.entries));
  p = skip_blanks(p, end);
  if (p != end && !is_eol(*p)) return expected_at(name, text, at(p), "end of the size line");
  const size_t size_line = at(p);
  h.data_begin = at(next_line(p, end));

  if (h.symmetry != Symmetry::general && h.rows != h.cols)
    return error_at(name, text, size_line,
                    "expected a square matrix for symmetry '" + std::string(to_string(h.symmetry)) +
                        "', found " + std::to_string(h.rows) + " x " + std::to_string(h.cols));
  if (!h.coordinate) {
    // Dense: every value of the stored part is listed. n(n+1)/2 and n(n-1)/2 are formed
    // by halving the even factor first; any overflow past int64 is refused.
    const uint64_t r = uint64_t(h.rows), c = uint64_t(h.cols);
    uint64_t n = 0;
    bool overflow = false;
    if (h.symmetry == Symmetry::general) overflow = __builtin_mul_overflow(r, c, &n);
    else if (h.symmetry == Symmetry::skew_symmetric)
      overflow = r != 0 && (r % 2 == 0 ? __builtin_mul_overflow(r / 2, r - 1, &n)
                                       : __builtin_mul_overflow(r, (r - 1) / 2, &n));
    else
      overflow = r % 2 == 0 ? __builtin_mul_overflow(r / 2, r + 1, &n)
                            : __builtin_mul_overflow(r, (r + 1) / 2, &n);
    if (overflow || n > uint64_t(INT64_MAX))
      return error_at(name, text, size_line, "expected at most 2^63 - 1 array values, found a larger size");
    h.entries = int64_t(n);
  }
  return h;
}

}  // namespace vkprim::sparse::detail
