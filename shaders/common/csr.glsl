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

// Streaming loads of data that a pass reads exactly once (column indices and values of the
// matrix): with -DSPMV_NT they carry SPIR-V's Nontemporal memory operand (through
// GL_EXT_spirv_intrinsics: OpLoad with Aligned|Nontemporal), a hint that lets a driver keep
// them from displacing data that is reused from the cache (x, which SpMV gathers at random);
// without it they are plain loads. LOAD_STREAM_*(lvalue) take the buffer element itself.
#if defined(SPMV_NT)
#extension GL_EXT_spirv_intrinsics : require
spirv_instruction(id = 61) uint vkprim_nt_load_u32(spirv_by_reference uint p,
                                                   spirv_literal int mask, spirv_literal int align);
#define LOAD_STREAM_U32(lv) vkprim_nt_load_u32(lv, 6, 4)
#if defined(T_SIZE)
spirv_instruction(id = 61) T vkprim_nt_load_t(spirv_by_reference T p, spirv_literal int mask,
                                              spirv_literal int align);
#define LOAD_STREAM_T(lv) vkprim_nt_load_t(lv, 6, T_SIZE)
#endif
#else
#define LOAD_STREAM_U32(lv) (lv)
#define LOAD_STREAM_T(lv) (lv)
#endif

#endif
