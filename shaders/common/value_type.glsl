// The value type T of a typed pass, chosen by exactly one -DVALUE_<t> define
// (u32 i32 f32 u64 i64 f64, listed in shaders/CMakeLists.txt). Scalars that the host passes in
// push constants arrive as raw 64-bit patterns and are turned into T by T_FROM_BITS.
#ifndef VKPRIM_VALUE_TYPE_GLSL
#define VKPRIM_VALUE_TYPE_GLSL

#if defined(VALUE_u32)
#define T uint
#define T_SIZE 4
#define T_FROM_BITS(b) uint(b)
#elif defined(VALUE_i32)
#define T int
#define T_SIZE 4
#define T_SIGNED 1
#define T_FROM_BITS(b) int(uint(b))
#elif defined(VALUE_f32)
#define T float
#define T_SIZE 4
#define T_FLOAT 1
#define T_SIGNED 1
#define T_FROM_BITS(b) uintBitsToFloat(uint(b))
#elif defined(VALUE_u64)
#define T uint64_t
#define T_SIZE 8
#define T_FROM_BITS(b) uint64_t(b)
#elif defined(VALUE_i64)
#define T int64_t
#define T_SIZE 8
#define T_SIGNED 1
#define T_FROM_BITS(b) int64_t(b)
#elif defined(VALUE_f64)
#define T double
#define T_SIZE 8
#define T_FLOAT 1
#define T_SIGNED 1
#define T_FROM_BITS(b) packDouble2x32(unpackUint2x32(b))
#else
#error "define one of VALUE_u32 VALUE_i32 VALUE_f32 VALUE_u64 VALUE_i64 VALUE_f64"
#endif

layout(buffer_reference, std430, buffer_reference_align = T_SIZE) buffer TBuf { T v[]; };

#endif
