// The SpMV value V of a pass: the value type T (value_type.glsl), or with -DCOMPLEX a complex
// value of two T (vec2 / dvec2: real part, then imaginary part; 8 or 16 bytes, std::complex's
// layout). V_MUL is the product of two values (complex: (a.x b.x - a.y b.y, a.x b.y + a.y b.x));
// sums are V's own + (per part). A real scalar times V scales both parts.
#ifndef VKPRIM_SPMV_VALUE_GLSL
#define VKPRIM_SPMV_VALUE_GLSL

#if defined(COMPLEX)
#if T_SIZE == 4
#define V vec2
#else
#define V dvec2
#endif
#define V_SIZE (2 * T_SIZE)
#define V_MUL(a, b) V((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x)
#else
#define V T
#define V_SIZE T_SIZE
#define V_MUL(a, b) ((a) * (b))
#endif

// Aligned to one part: a complex value needs only its parts' alignment.
layout(buffer_reference, std430, buffer_reference_align = T_SIZE) buffer VBuf { V v[]; };

#endif
