// A real scalar as the bit pattern a shader reads from a 64-bit push constant: an f32's 4 bytes
// in the low word, an f64's 8 bytes.
#pragma once

#include <cstdint>
#include <cstring>

#include <vkprim/types.hpp>

namespace vkprim::detail {

inline uint64_t value_bits(double v, ValueType t) {
  uint64_t bits = 0;
  if (t == ValueType::f32) {
    const float f = float(v);
    std::memcpy(&bits, &f, 4);
  } else {
    std::memcpy(&bits, &v, 8);
  }
  return bits;
}

}  // namespace vkprim::detail
