// Private: the Binsparse v0.1 JSON descriptor, as read from / written to the root attribute.
#pragma once

#include <vkprim/error.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace vkprim::sparse::detail {

// One entry of "data_types": a scalar type, possibly wrapped as iso[...] or complex[...].
struct BinsparseType {
  std::string scalar;  // "int8".."int64", "uint8".."uint64", "float32", "float64", "bint8"
  bool iso = false;
  bool complex = false;

  bool is_float() const { return scalar == "float32" || scalar == "float64"; }
  bool is_integer() const { return !is_float(); }
};

struct BinsparseDescriptor {
  std::string format;                 // upper case, as written ("CSR", "COOR", "DMATC", ...)
  std::vector<int64_t> shape;         // rank 1 (vectors) or 2
  int64_t stored = 0;                 // number_of_stored_values
  std::map<std::string, BinsparseType> data_types;
  std::string structure;              // "" when absent
  bool finch_tensor = false;          // carries Finch.jl's own "tensor" key
};

// Parses and checks the descriptor JSON (wrapped in {"binsparse": {...}} or bare).
// `where` prefixes messages. Unknown keys are ignored.
Result<BinsparseDescriptor> parse_binsparse_descriptor(std::string_view json, const std::string& where);

// The JSON text for `d`, wrapped in {"binsparse": {...}}, version "0.1".
std::string make_binsparse_descriptor(const BinsparseDescriptor& d);

}  // namespace vkprim::sparse::detail
