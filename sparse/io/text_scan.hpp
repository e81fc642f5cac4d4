// Private: byte-level helpers shared by the Matrix Market header and data parsers.
// Line ends are "\n", "\r\n" or a lone "\r" (classic Mac files).
#pragma once

#include <vkprim/error.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace vkprim::sparse::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
inline bool is_eol(char c) { return c == '\n' || c == '\r'; }

// Advances p over spaces and tabs (not line ends).
inline const char* skip_blanks(const char* p, const char* end) {
  while (p != end && is_blank(*p)) ++p;
  return p;
}

// Advances p past the current line and its line end.
inline const char* next_line(const char* p, const char* end) {
  while (p != end && !is_eol(*p)) ++p;
  if (p == end) return p;
  if (*p++ == '\r' && p != end && *p == '\n') ++p;  // "\r\n" is one line end
  return p;
}

// True when p ends a token: a blank, a line end or the end of the text.
inline bool at_delimiter(const char* p, const char* end) {
  return p == end || is_blank(*p) || is_eol(*p);
}

// Parses a decimal int64 (optional sign, '+' allowed) ending at a delimiter. Returns the
// end of the token, or nullptr when the token is not such a number or does not fit.
inline const char* parse_int64(const char* p, const char* end, int64_t& out) {
  if (p != end && *p == '+' && p + 1 != end && *(p + 1) != '-') ++p;
  auto [q, ec] = std::from_chars(p, end, out);
  if (ec != std::errc() || !at_delimiter(q, end)) return nullptr;
  return q;
}

// 1-based line number of byte `pos` in `text`.
int64_t line_of(std::string_view text, size_t pos);

// The token starting at pos, quoted and shortened for a message ("'abc'", "end of line",
// "end of file").
std::string describe_token(std::string_view text, size_t pos);

// Errc::parse_error "<name>:<line>: <message>" for byte `pos` of `text`.
Error error_at(std::string_view name, std::string_view text, size_t pos, std::string_view message);

// Errc::parse_error "<name>:<line>: expected <what>, found <token at pos>".
Error expected_at(std::string_view name, std::string_view text, size_t pos, std::string_view what);

}  // namespace vkprim::sparse::detail
