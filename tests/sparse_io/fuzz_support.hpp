// Shared by the fuzz targets: bit-exact comparison of two matrices (values by their bits, so
// NaNs compare equal to themselves).
#pragma once

#include <vkprim/sparse/coo.hpp>

#include <cstring>

namespace vkprim::sparse::fuzz {

inline bool same(const CooMatrix& a, const CooMatrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.field == b.field && a.symmetry == b.symmetry &&
         a.row_indices == b.row_indices && a.col_indices == b.col_indices &&
         a.integer_values == b.integer_values && a.real_values.size() == b.real_values.size() &&
         (a.real_values.empty() || std::memcmp(a.real_values.data(), b.real_values.data(),
                                               a.real_values.size() * sizeof(double)) == 0) &&
         a.complex_values.size() == b.complex_values.size() &&
         (a.complex_values.empty() ||
          std::memcmp(a.complex_values.data(), b.complex_values.data(),
                      a.complex_values.size() * sizeof(a.complex_values[0])) == 0);
}

}  // namespace vkprim::sparse::fuzz
