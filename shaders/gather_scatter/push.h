// Push constants of gather and scatter, for their shaders and engine/gather_scatter/pass.hpp
// (common/push_block.h: one definition, offsets and sizes checked on both sides).
#include "../common/push_block.h"
#ifdef __cplusplus
namespace vkprim::detail {
#endif

#if defined(__cplusplus) || defined(PUSH_GATHER)
VKPRIM_PUSH_BEGIN(GatherPush)       // gather.comp
  VKPRIM_PUSH_U64(src, 0)           // src_n ELEMs
  VKPRIM_PUSH_U64(idx, 8)           // n u32
  VKPRIM_PUSH_U64(dst, 16)          // n ELEMs
  VKPRIM_PUSH_U64(src_n, 24)
  VKPRIM_PUSH_UVEC2(fallback, 32)   // the ELEM an index past src_n gathers
  VKPRIM_PUSH_U32(n, 40)
VKPRIM_PUSH_END(GatherPush, 48)
#endif

#if defined(__cplusplus) || defined(PUSH_SCATTER)
VKPRIM_PUSH_BEGIN(ScatterPush)      // scatter.comp
  VKPRIM_PUSH_U64(src, 0)           // n ELEMs
  VKPRIM_PUSH_U64(idx, 8)           // n u32
  VKPRIM_PUSH_U64(dst, 16)          // dst_n ELEMs
  VKPRIM_PUSH_U64(dst_n, 24)
  VKPRIM_PUSH_U32(n, 32)
VKPRIM_PUSH_END(ScatterPush, 40)
#endif

#ifdef __cplusplus
}  // namespace vkprim::detail
#endif
