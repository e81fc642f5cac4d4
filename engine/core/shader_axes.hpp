// The library's own types as the axes of the shader families (the generated
// vkprim_shader_ids.hpp: the Shader ids, the axis enums and variants::<family>(axes...)).
// A plan names a variant only through these: a variant the build does not declare, or an axis
// value it does not list, is a compile error. An axis exists where a family of this build
// (VKPRIM_PRIMITIVES) has it: VKPRIM_SHADER_AXIS_<Axis> says so.
#pragma once

#include <vkprim/types.hpp>

#include "vkprim_shader_ids.hpp"

namespace vkprim::detail::variants {

#if defined(VKPRIM_SHADER_AXIS_Value)
constexpr Value value_axis(ValueType t) {
  switch (t) {
    case ValueType::u32: return Value::u32;
    case ValueType::i32: return Value::i32;
    case ValueType::f32: return Value::f32;
    case ValueType::u64: return Value::u64;
    case ValueType::i64: return Value::i64;
    case ValueType::f64: return Value::f64;
  }
  return Value::u32;
}
#endif
#if defined(VKPRIM_SHADER_AXIS_Real)
// f32 or f64 (the caller has refused other types).
constexpr Real real_axis(ValueType t) { return t == ValueType::f64 ? Real::f64 : Real::f32; }
#endif
#if defined(VKPRIM_SHADER_AXIS_Layer)
constexpr Layer layer_axis(bool subgroup) { return subgroup ? Layer::sg : Layer::wg; }
#endif
#if defined(VKPRIM_SHADER_AXIS_Offsets)
constexpr Offsets offsets_axis(bool wide) { return wide ? Offsets::wide : Offsets::narrow; }
#endif
#if defined(VKPRIM_SHADER_AXIS_RowPtr)
constexpr RowPtr row_ptr_axis(bool wide) { return wide ? RowPtr::r64 : RowPtr::r32; }
#endif

}  // namespace vkprim::detail::variants
