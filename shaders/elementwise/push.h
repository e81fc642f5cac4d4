// Push constants of the element-wise passes, for their shaders and engine/elementwise/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_COPY)
VKPRIM_PUSH_BEGIN(CopyPush)         // copy.comp
  VKPRIM_PUSH_U64(src, 0)           // n WORDs
  VKPRIM_PUSH_U64(dst, 8)
  VKPRIM_PUSH_U32(n, 16)
VKPRIM_PUSH_END(CopyPush, 24)
#endif

#if defined(__cplusplus) || defined(PUSH_FILL)
VKPRIM_PUSH_BEGIN(FillPush)         // fill.comp
  VKPRIM_PUSH_U64(dst, 0)           // n WORDs
  VKPRIM_PUSH_U64(pad, 8)           // unused: `value` is 16-byte aligned
  VKPRIM_PUSH_UVEC4(value, 16)      // the first components that WORD holds are used
  VKPRIM_PUSH_U32(n, 32)
VKPRIM_PUSH_END(FillPush, 40)
#endif

#if defined(__cplusplus) || defined(PUSH_MAP)
VKPRIM_PUSH_BEGIN(MapPush)          // map.comp
  VKPRIM_PUSH_U64(x, 0)             // n T each
  VKPRIM_PUSH_U64(y, 8)
  VKPRIM_PUSH_U64(z, 16)
  VKPRIM_PUSH_U64(a, 24)            // T's bit patterns
  VKPRIM_PUSH_U64(b, 32)
  VKPRIM_PUSH_U32(n, 40)
VKPRIM_PUSH_END(MapPush, 48)
#endif

#ifdef __cplusplus
}  // namespace vkprim::detail
#endif
