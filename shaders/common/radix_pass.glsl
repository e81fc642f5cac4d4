// Radix sort: the skip decision of a digit pass, made on the GPU. A pass is trivial when one
// digit holds all n keys; the global histogram (radix_histogram.comp) tells, and the digit to
// look up is that of any key (all share it when the pass is trivial), here the first one.
#ifndef VKPRIM_RADIX_PASS_GLSL
#define VKPRIM_RADIX_PASS_GLSL

bool radix_pass_trivial(KeyBuf keys, uint64_t hist_addr, uint pass, uint n, uint flags, uint shift,
                        uint bits) {
  if (n == 0u) return true;
  const uint d = radix_digit(radix_transform(keys.v[0], flags), shift, bits);
  return U32Buf(hist_addr).v[pass * RADIX_DIGITS + d] == n;
}

#endif
