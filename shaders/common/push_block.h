// Push-constant blocks written once for the GLSL and the C++ that fills them (as FidelityFX
// Parallel Sort shares its constant buffer between HLSL and C++). A family's push.h
// (shaders/<family>/push.h) declares each of its passes' blocks with these macros; a shader
// includes it after defining its pass's selector (PUSH_<PASS>, one block per shader), and the
// family's engine pass.hpp includes it for all of them.
//
//   VKPRIM_PUSH_BEGIN(Name)
//     VKPRIM_PUSH_U64(field, offset)      uint64_t (addresses, 64-bit counts, value bits)
//     VKPRIM_PUSH_U32(field, offset)      uint
//     VKPRIM_PUSH_UVEC2(field, offset)    uvec2 / uint32_t[2]
//     VKPRIM_PUSH_UVEC4(field, offset)    uvec4 / uint32_t[4]
//     VKPRIM_PUSH_U64S(field, count, offset)  uint64_t[count] (addresses by role)
//   VKPRIM_PUSH_END(Name, bytes)
//
// GLSL: `layout(push_constant) uniform Name { layout(offset = N) ... } pc;`. glslang refuses an
// offset that is not a multiple of its member's alignment, and spirv-val (run on every variant
// at build time) one that overlaps the member before it.
// C++: `struct Name` with the same members in the same order; each member's offsetof and the
// struct's sizeof are static_asserts, so the natural C++ layout is the block's, member by member.
// `bytes` is the C++ struct's size, the block's end rounded up to 8 (its 64-bit members'
// alignment): what a pass pushes. It is at most 128, the maxPushConstantsSize every device has;
// Pipeline::create checks it against the device's limit, and the compiled block's end (read from
// the SPIR-V) against it, so a pipeline never pushes a range that misses part of its block.
#ifndef VKPRIM_PUSH_BLOCK_H
#define VKPRIM_PUSH_BLOCK_H

#ifdef __cplusplus

#include <cstddef>
#include <cstdint>
#include <type_traits>

// Each member's offset is checked in a static member function: its body is a complete-class
// context, where offsetof may name the struct being defined.
#define VKPRIM_PUSH_BEGIN(Name) \
  struct Name {                 \
    using vkprim_push_block = Name;
#define VKPRIM_PUSH_MEMBER_(type, field, extent, at)                                      \
  type field extent;                                                                      \
  static constexpr void vkprim_push_at_##field() {                                        \
    static_assert(offsetof(vkprim_push_block, field) == (at),                             \
                  "push constant " #field ": the C++ member's offset is not the block's"); \
  }
#define VKPRIM_PUSH_U64(field, at) VKPRIM_PUSH_MEMBER_(std::uint64_t, field, , at)
#define VKPRIM_PUSH_U32(field, at) VKPRIM_PUSH_MEMBER_(std::uint32_t, field, , at)
#define VKPRIM_PUSH_UVEC2(field, at) VKPRIM_PUSH_MEMBER_(std::uint32_t, field, [2], at)
#define VKPRIM_PUSH_UVEC4(field, at) VKPRIM_PUSH_MEMBER_(std::uint32_t, field, [4], at)
#define VKPRIM_PUSH_U64S(field, count, at) VKPRIM_PUSH_MEMBER_(std::uint64_t, field, [count], at)
#define VKPRIM_PUSH_END(Name, bytes)                                                   \
  }                                                                                    \
  ;                                                                                    \
  static_assert(std::is_standard_layout_v<Name>, #Name ": offsetof needs a standard layout"); \
  static_assert(sizeof(Name) == (bytes), #Name ": the C++ struct's size is not the block's"); \
  static_assert((bytes) <= 128, #Name ": more than the 128 bytes of push constants every device has");

#else  // GLSL

#define VKPRIM_PUSH_BEGIN(Name) layout(push_constant) uniform Name {
#define VKPRIM_PUSH_U64(field, at) layout(offset = at) uint64_t field;
#define VKPRIM_PUSH_U32(field, at) layout(offset = at) uint field;
#define VKPRIM_PUSH_UVEC2(field, at) layout(offset = at) uvec2 field;
#define VKPRIM_PUSH_UVEC4(field, at) layout(offset = at) uvec4 field;
#define VKPRIM_PUSH_U64S(field, count, at) layout(offset = at) uint64_t field[count];
#define VKPRIM_PUSH_END(Name, bytes) } pc;

#endif
#endif
