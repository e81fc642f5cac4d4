// Radix sort: the skip decision of a digit pass, made on the GPU. A pass is trivial (a copy)
// when every key has the same digit, that is when no bit of [shift, shift + bits) varies among
// the transformed keys t. varying_addr holds radix_histogram.comp's words, OR(t) then OR(~t)
// (as two Keys); their AND is the bits that vary: none for n <= 1, as the words stay zero.
#ifndef VKPRIM_RADIX_PASS_GLSL
#define VKPRIM_RADIX_PASS_GLSL

bool radix_pass_trivial(uint64_t varying_addr, uint shift, uint bits) {
  KeyBuf w = KeyBuf(varying_addr);
  return radix_digit(w.v[0] & w.v[1], shift, bits) == 0u;
}

#endif
