// Shared by the CSR construction passes (csr_*.comp): sort keys (row, col) packed as
// row << col_bits | col into a u32, or a u64 with -DKEY64 (the radix sort's key types), and
// the 1-D grid-stride loop over `n` items (n < 2^31: the host splits larger counts into
// dispatches of at most max_items_per_dispatch). Element indices are 64-bit.
#ifndef VKPRIM_CSR_BUILD_GLSL
#define VKPRIM_CSR_BUILD_GLSL

#if defined(KEY64)
#define KEY_WORDS 2
#define KEY_BYTES 8ul
#else
#define KEY_WORDS 1
#define KEY_BYTES 4ul
#endif
#include "radix.glsl"  // Key and KeyBuf: the radix sort's keys
#define KEY Key
KEY key_at(uint64_t base, uint64_t i) { return KeyBuf(base + i * KEY_BYTES).v[0]; }

#define FOR_EACH_ITEM(i, n)                                                        \
  for (uint tile_ = gl_WorkGroupID.x; tile_ < ((n) + WG_SIZE * ITEMS - 1) / (WG_SIZE * ITEMS); \
       tile_ += gl_NumWorkGroups.x)                                                \
    [[unroll]] for (uint k_ = 0, i = tile_ * WG_SIZE * ITEMS + gl_LocalInvocationID.x; k_ < ITEMS; ++k_, i += WG_SIZE) \
      if (i < (n))

uint u32_at(uint64_t base, uint64_t i) { return U32Buf(base + i * 4ul).v[0]; }
void u32_store(uint64_t base, uint64_t i, uint v) { U32Buf(base + i * 4ul).v[0] = v; }

#endif
