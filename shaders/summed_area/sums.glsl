// The summed-area table's value types (-DSUMS_f32, -DSUMS_u32, -DSUMS_wide): the image's
// elements (4 bytes, read as u32 bits) and their sums, S: f32 sums of f32, u32 sums of u32
// (modulo 2^32), u64 sums of u32 (wide).
#ifndef VKPRIM_SAT_SUMS_GLSL
#define VKPRIM_SAT_SUMS_GLSL

#if defined(SUMS_f32)
#define S float
#define S_SIZE 4
S sum_of_bits(uint bits) { return uintBitsToFloat(bits); }
S load_sum(uint64_t addr, uint64_t i) { return uintBitsToFloat(U32Buf(ELEM_ADDR(addr, i, 4)).v[0]); }
void store_sum(uint64_t addr, uint64_t i, S v) { U32Buf(ELEM_ADDR(addr, i, 4)).v[0] = floatBitsToUint(v); }
#elif defined(SUMS_u32)
#define S uint
#define S_SIZE 4
S sum_of_bits(uint bits) { return bits; }
S load_sum(uint64_t addr, uint64_t i) { return U32Buf(ELEM_ADDR(addr, i, 4)).v[0]; }
void store_sum(uint64_t addr, uint64_t i, S v) { U32Buf(ELEM_ADDR(addr, i, 4)).v[0] = v; }
#elif defined(SUMS_wide)
#define S uint64_t
#define S_SIZE 8
S sum_of_bits(uint bits) { return uint64_t(bits); }
S load_sum(uint64_t addr, uint64_t i) { return U64Buf(ELEM_ADDR(addr, i, 8)).v[0]; }
void store_sum(uint64_t addr, uint64_t i, S v) { U64Buf(ELEM_ADDR(addr, i, 8)).v[0] = v; }
#else
#error "sums.glsl: SUMS_f32, SUMS_u32 or SUMS_wide"
#endif

#endif
