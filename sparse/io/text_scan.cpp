#include "text_scan.hpp"

#include <algorithm>

namespace vkprim::sparse::detail {

int64_t line_of(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  int64_t line = 1;
  for (size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') ++line;
    else if (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n')) ++line;
  }
  return line;
}

std::string describe_token(std::string_view text, size_t pos) {
  if (pos >= text.size()) return "end of file";
  if (is_eol(text[pos])) return "end of line";
  constexpr size_t kMax = 40;
  std::string token;
  size_t i = pos;
  for (; i < text.size() && !is_blank(text[i]) && !is_eol(text[i]) && token.size() < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      token += char(c);
    } else {
      static const char* hex = "0123456789abcdef";
      token += "\\x";
      token += hex[c >> 4];
      token += hex[c & 15];
    }
  }
  if (i < text.size() && !is_blank(text[i]) && !is_eol(text[i])) token += "...";
  return "'" + token + "'";
}

Error error_at(std::string_view name, std::string_view text, size_t pos, std::string_view message) {
  return make_error(Errc::parse_error, std::string(name) + ":" + std::to_string(line_of(text, pos)) +
                                           ": " + std::string(message));
}

Error expected_at(std::string_view name, std::string_view text, size_t pos, std::string_view what) {
  return error_at(name, text, pos,
                  "expected " + std::string(what) + ", found " + describe_token(text, pos));
}

}  // namespace vkprim::sparse::detail
