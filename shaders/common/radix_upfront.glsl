// Radix sort's upfront count, shared by radix_histogram.comp (the sort's own pass over its keys)
// and csr_keys.comp (the CSR build's keys pass, which counts the keys as it makes them, so the
// sort need not read them again): the key bits that vary and, unless VARYING_ONLY, the global
// histogram of every digit pass (radix_histogram.comp's header describes both).
// Per workgroup: upfront_begin() zeroes the shared counters; each invocation ORs its transformed
// keys into two registers and adds their digits to the shared bins (upfront_count); then
// upfront_end() adds the workgroup's nonzero words and bins to the zeroed global ones, one
// atomic each (so the producer runs a bounded grid, grid-stride).
#ifndef VKPRIM_RADIX_UPFRONT_GLSL
#define VKPRIM_RADIX_UPFRONT_GLSL

#if !defined(VARYING_ONLY)
shared uint s_hist[8u * RADIX_DIGITS];
#endif
shared uint s_varying[2u * KEY_WORDS];

struct Upfront {
  Key ones, zeros;  // OR(t), OR(~t) over this invocation's keys
};

Upfront upfront_begin(uint passes) {
#if !defined(VARYING_ONLY)
  for (uint i = gl_LocalInvocationID.x; i < passes * RADIX_DIGITS; i += WG_SIZE) s_hist[i] = 0u;
#endif
  if (gl_LocalInvocationID.x < 2u * KEY_WORDS) s_varying[gl_LocalInvocationID.x] = 0u;
  barrier();
  return Upfront(Key(0), Key(0));
}

// Counts one transformed key t of passes digits from begin_bit (the last may be narrower,
// up to end_bit).
void upfront_count(inout Upfront u, Key t, uint begin_bit, uint end_bit, uint passes) {
  u.ones |= t;
  u.zeros |= ~t;
#if !defined(VARYING_ONLY)
  for (uint p = 0u; p < passes; ++p) {
    const uint shift = begin_bit + 8u * p;
    atomicAdd(s_hist[p * RADIX_DIGITS + radix_digit(t, shift, min(8u, end_bit - shift))], 1u);
  }
#endif
}

// This invocation's words into the workgroup's (shared memory).
void upfront_or_shared(Upfront u) {
#if KEY_WORDS == 1
  atomicOr(s_varying[0], u.ones);
  atomicOr(s_varying[1], u.zeros);
#else
  atomicOr(s_varying[0], uint(u.ones));
  atomicOr(s_varying[1], uint(u.ones >> 32));
  atomicOr(s_varying[2], uint(u.zeros));
  atomicOr(s_varying[3], uint(u.zeros >> 32));
#endif
}

// Whether the keys counted so far by the whole workgroup differ in every bit of `window`, in
// every invocation (uniform control flow; before upfront_end).
bool upfront_varies(Upfront u, Key window) {
  upfront_or_shared(u);
  barrier();
#if KEY_WORDS == 1
  const Key v = s_varying[0] & s_varying[1];
#else
  const Key v = (Key(s_varying[0]) | Key(s_varying[1]) << 32) & (Key(s_varying[2]) | Key(s_varying[3]) << 32);
#endif
  barrier();  // every invocation has read the words before any adds to them again
  return (v & window) == window;
}

void upfront_end(Upfront u, uint passes, uint64_t hist_addr, uint64_t varying_addr) {
  upfront_or_shared(u);
  barrier();
  const uint lid = gl_LocalInvocationID.x;
  if (lid < 2u * KEY_WORDS && s_varying[lid] != 0u)
    atomicOr(U32Buf(varying_addr).v[lid], s_varying[lid]);
#if !defined(VARYING_ONLY)
  for (uint i = lid; i < passes * RADIX_DIGITS; i += WG_SIZE)
    if (s_hist[i] != 0u) atomicAdd(U32Buf(hist_addr).v[i], s_hist[i]);
#endif
}

#endif
