// Element value types shared by the typed primitives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace vkprim {

enum class ValueType { u32, i32, f32, u64, i64, f64 };

constexpr size_t size_of(ValueType t) {
  return (t == ValueType::u32 || t == ValueType::i32 || t == ValueType::f32) ? 4 : 8;
}
const char* to_string(ValueType t) noexcept;

template <class T>
constexpr ValueType value_type_of() {
  if constexpr (std::is_same_v<T, uint32_t>) return ValueType::u32;
  else if constexpr (std::is_same_v<T, int32_t>) return ValueType::i32;
  else if constexpr (std::is_same_v<T, float>) return ValueType::f32;
  else if constexpr (std::is_same_v<T, uint64_t>) return ValueType::u64;
  else if constexpr (std::is_same_v<T, int64_t>) return ValueType::i64;
  else {
    static_assert(std::is_same_v<T, double>, "vkprim value types: u32 i32 f32 u64 i64 f64");
    return ValueType::f64;
  }
}

template <class T>
concept Value = std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> ||
                std::is_same_v<T, float> || std::is_same_v<T, uint64_t> ||
                std::is_same_v<T, int64_t> || std::is_same_v<T, double>;

}  // namespace vkprim
