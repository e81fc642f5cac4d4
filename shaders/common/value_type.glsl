// The value type T of a typed pass, chosen by exactly one -DVALUE_<t> define
// (u32 i32 f32 u64 i64 f64, listed in shaders/CMakeLists.txt). Scalars that the host passes in
// push constants arrive as raw 64-bit patterns and are turned into T by T_FROM_BITS.
#ifndef VKPRIM_VALUE_TYPE_GLSL
#define VKPRIM_VALUE_TYPE_GLSL

// T_BITS(x) is the inverse (uint for 4-byte T, uint64_t for 8-byte T). T_MAX / T_LOWEST are
// the identities of min and max (+-inf for floats).
#if defined(VALUE_u32)
#define T uint
#define T_SIZE 4
#define T_FROM_BITS(b) uint(b)
#define T_BITS(x) (x)
#define T_MAX 0xFFFFFFFFu
#define T_LOWEST 0u
#elif defined(VALUE_i32)
#define T int
#define T_SIZE 4
#define T_SIGNED 1
#define T_FROM_BITS(b) int(uint(b))
#define T_BITS(x) uint(x)
#define T_MAX 0x7FFFFFFF
#define T_LOWEST (-0x7FFFFFFF - 1)
#elif defined(VALUE_f32)
#define T float
#define T_SIZE 4
#define T_FLOAT 1
#define T_SIGNED 1
#define T_FROM_BITS(b) uintBitsToFloat(uint(b))
#define T_BITS(x) floatBitsToUint(x)
#define T_MAX uintBitsToFloat(0x7F800000u)
#define T_LOWEST uintBitsToFloat(0xFF800000u)
#elif defined(VALUE_u64)
#define T uint64_t
#define T_SIZE 8
#define T_FROM_BITS(b) uint64_t(b)
#define T_BITS(x) (x)
#define T_MAX 0xFFFFFFFFFFFFFFFFul
#define T_LOWEST 0ul
#elif defined(VALUE_i64)
#define T int64_t
#define T_SIZE 8
#define T_SIGNED 1
#define T_FROM_BITS(b) int64_t(b)
#define T_BITS(x) uint64_t(x)
#define T_MAX 0x7FFFFFFFFFFFFFFFl
#define T_LOWEST (-0x7FFFFFFFFFFFFFFFl - 1l)
#elif defined(VALUE_f64)
#define T double
#define T_SIZE 8
#define T_FLOAT 1
#define T_SIGNED 1
#define T_FROM_BITS(b) packDouble2x32(unpackUint2x32(b))
#define T_BITS(x) packUint2x32(unpackDouble2x32(x))
#define T_MAX packDouble2x32(uvec2(0u, 0x7FF00000u))
#define T_LOWEST packDouble2x32(uvec2(0u, 0xFFF00000u))
#else
#error "define one of VALUE_u32 VALUE_i32 VALUE_f32 VALUE_u64 VALUE_i64 VALUE_f64"
#endif

layout(buffer_reference, std430, buffer_reference_align = T_SIZE) buffer TBuf { T v[]; };

// T as 32-bit words (T_WORDS of them) and back, for tile state and vector loads.
#if T_SIZE == 4
#define T_WORDS 1
#define T_PER_VEC4 4
uint t_word(T x, uint i) { return T_BITS(x); }
T t_from_words(uint w0, uint w1) { return T_FROM_BITS(w0); }
#else
#define T_WORDS 2
#define T_PER_VEC4 2
uint t_word(T x, uint i) {
  uvec2 u = unpackUint2x32(T_BITS(x));
  return i == 0 ? u.x : u.y;
}
T t_from_words(uint w0, uint w1) { return T_FROM_BITS(packUint2x32(uvec2(w0, w1))); }
#endif

// Element k (< T_PER_VEC4) of a 16-byte vector, and the reverse.
T t_from_vec4(uvec4 v, uint k) {
#if T_SIZE == 4
  return T_FROM_BITS(v[k]);
#else
  return t_from_words(v[2 * k], v[2 * k + 1]);
#endif
}
void t_into_vec4(inout uvec4 v, uint k, T x) {
#if T_SIZE == 4
  v[k] = T_BITS(x);
#else
  v[2 * k] = t_word(x, 0);
  v[2 * k + 1] = t_word(x, 1);
#endif
}

#endif
