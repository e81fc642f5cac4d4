// Private: the Matrix Market banner and size line.
#pragma once

#include <vkprim/error.hpp>
#include <vkprim/sparse/coo.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace vkprim::sparse::detail {

struct MatrixMarketHeader {
  bool vector = false;      // object "vector": an n x 1 matrix, entries "i [value]"
  bool coordinate = true;   // format "coordinate"; false for "array" (dense, column-major)
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t entries = 0;      // entry lines the data section must hold
  size_t data_begin = 0;    // byte offset of the line after the size line
};

// Parses the banner, comments and size line at the start of `text`. Errors name `name`
// and the line.
Result<MatrixMarketHeader> parse_matrix_market_header(std::string_view text, std::string_view name);

}  // namespace vkprim::sparse::detail
