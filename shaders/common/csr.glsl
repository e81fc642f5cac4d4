// CSR row pointers as seen by the sparse passes: u32 entries, or u64 when the shader is built
// with -DROWPTR_64 (matrices with nnz >= 2^32, or the testing knob that forces the wide form).
// Addresses are computed in 64 bits (never a 32-bit array index past 2^31).
#ifndef VKPRIM_CSR_GLSL
#define VKPRIM_CSR_GLSL

#if defined(ROWPTR_64)
layout(buffer_reference, std430, buffer_reference_align = 8) buffer RowPtrBuf { uint64_t v[]; };
#define ROWPTR_BYTES 8ul
#define ROWPTR_T uint64_t  // a row pointer's own width (for shared-memory copies)
uint64_t row_ptr_at(uint64_t base, uint64_t i) { return RowPtrBuf(base + i * ROWPTR_BYTES).v[0]; }
void row_ptr_store(uint64_t base, uint64_t i, uint64_t value) {
  RowPtrBuf(base + i * ROWPTR_BYTES).v[0] = value;
}
#else
layout(buffer_reference, std430, buffer_reference_align = 4) buffer RowPtrBuf { uint v[]; };
#define ROWPTR_BYTES 4ul
#define ROWPTR_T uint
uint64_t row_ptr_at(uint64_t base, uint64_t i) {
  return uint64_t(RowPtrBuf(base + i * ROWPTR_BYTES).v[0]);
}
void row_ptr_store(uint64_t base, uint64_t i, uint64_t value) {
  RowPtrBuf(base + i * ROWPTR_BYTES).v[0] = uint(value);
}
#endif

#endif
