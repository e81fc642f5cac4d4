// Radix sort keys (shaders/radix_*.comp): the key as 32 or 64 bits (-DKEY_WORDS=1|2) and the
// order-preserving bit transformation that turns signed and float keys into unsigned ones
// (Merrill & Grimshaw 2011, §4: "bit twiddling"):
//   unsigned: the bits as they are
//   signed:   the sign bit flipped
//   float:    negatives inverted, positives with the sign bit set, giving IEEE total order
//             -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN
//   descending: the transformed key inverted (equal keys keep their order: still stable).
// Digits are taken from the transformed key: bits [shift, shift + bits) with bits <= 8.
#ifndef VKPRIM_RADIX_GLSL
#define VKPRIM_RADIX_GLSL

#define RADIX_DIGITS 256u
// Sorts of 2^32 keys and more (the RADIX_WIDE builds of the reduce-then-scan passes): the key
// count, the digit offsets and the output positions in 64 bits; the other builds keep 32.
#if defined(RADIX_WIDE)
#define RADIX_POS uint64_t
#else
#define RADIX_POS uint
#endif
#define RADIX_KIND_MASK 3u      // flags bits 0-1: 0 unsigned, 1 signed, 2 float
#define RADIX_DESCENDING 4u     // flags bit 2
// The sort's key flags, fixed when its pipelines are created (a RadixSort object has one key
// type and order), so that the compiler folds radix_transform: with the flags read from push
// constants the transformation costs every key its branches in the ranking loop. csr_keys.comp,
// which includes this file for the transformation alone, takes its flags by push constant.
layout(constant_id = 3) const uint RADIX_FLAGS = 0u;

#if KEY_WORDS == 1
#define Key uint
#define KEY_SIZE 4
#define KEY_SIGN 0x80000000u
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyBuf { uint v[]; };
#elif KEY_WORDS == 2
#define Key uint64_t
#define KEY_SIZE 8
#define KEY_SIGN 0x8000000000000000ul
layout(buffer_reference, std430, buffer_reference_align = 8) buffer KeyBuf { uint64_t v[]; };
#else
#error "define KEY_WORDS=1 or KEY_WORDS=2"
#endif

Key radix_transform(Key k, uint flags) {
  const uint kind = flags & RADIX_KIND_MASK;
  if (kind == 1u) k ^= KEY_SIGN;
  else if (kind == 2u) k = (k & KEY_SIGN) != Key(0) ? ~k : (k | KEY_SIGN);
  if ((flags & RADIX_DESCENDING) != 0u) k = ~k;
  return k;
}

uint radix_digit(Key transformed, uint shift, uint bits) {
  return uint(transformed >> shift) & ((1u << bits) - 1u);
}

#endif
