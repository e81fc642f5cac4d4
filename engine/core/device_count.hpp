// A count read from a GPU buffer (Count::on_device), as the passes take it: one address whose
// bit 0 says the count is a u64 (the buffer is 8-byte aligned, so the bit is free);
// device_count() in shaders/common/vkprim.glsl reads it.
#pragma once

#include <cstdint>
#include <string>
#include <vkprim/error.hpp>
#include <vkprim/scan.hpp>

namespace vkprim::detail {

// 0 for a count on the host.
inline uint64_t count_address(const Count& c) {
  if (!c.is_device()) return 0;
  return c.device.address | (c.device_type == ValueType::u64 ? 1u : 0u);
}

// Checks a count on the GPU (nothing for a host count): invalid_argument unless it is a u32 or
// a u64 that its buffer holds at its natural alignment. Its max must not pass the caller's
// limit for its type, most_u32 or most_u64 (where a pass would take the max, or read the
// count, as 32 bits; a u32's value is below 2^32 whatever its max): past the limit,
// invalid_argument where a u64 count would be taken, limit_exceeded otherwise.
inline Status check_device_count(const Count& c, const std::string& what, uint64_t most_u32,
                                 uint64_t most_u64) {
  if (!c.is_device()) return {};
  if (c.device_type != ValueType::u32 && c.device_type != ValueType::u64)
    return make_error(Errc::invalid_argument, what + ": a count on the GPU is a u32 or a u64, not a " +
                                                  to_string(c.device_type));
  const bool u64 = c.device_type == ValueType::u64;
  const uint64_t bytes = u64 ? 8 : 4;
  if (c.device.size < bytes || c.device.address % bytes)
    return make_error(Errc::invalid_argument, what + ": the count buffer must hold an aligned " +
                                                  to_string(c.device_type));
  const uint64_t most = u64 ? most_u64 : most_u32;
  if (c.n <= most) return {};
  if (!u64 && most_u64 > most_u32)
    return make_error(Errc::invalid_argument, what + ": a u32 count on the GPU needs max < 2^32 (got " +
                                                  std::to_string(c.n) + "): pass a u64 count");
  return make_error(Errc::limit_exceeded, what + ": a count on the GPU covers at most " +
                                              std::to_string(most) + " elements here (got a max of " +
                                              std::to_string(c.n) + ")");
}

}  // namespace vkprim::detail
