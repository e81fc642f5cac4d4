// The specialization constant ids that vkprim's passes share, for the GLSL and for the C++ that
// sets them (engine/core/pipeline.hpp: PipelineDesc::extra_spec holds ids 2 on).
//   0      the workgroup size (every pass)
//   1      items per invocation (passes without FIXED_ITEMS)
//   2, 3   a pass's own (radix passes: common/radix.glsl)
//   4 - 7  the decoupled look-back's (common/look_back.h)
//   8      HOST_COUNT_ONLY (common/vkprim.glsl): 1 in a pipeline that is only ever dispatched
//          with the count in its push constants, which then holds no code reading a count on
//          the GPU; 0 (the default) where a call may take either
#ifndef VKPRIM_SPEC_IDS_H
#define VKPRIM_SPEC_IDS_H

#define VKPRIM_SPEC_SPIN_LIMIT 4
#define VKPRIM_SPEC_STALL_PERIOD 5
#define VKPRIM_SPEC_STALL_COUNTS 6
#define VKPRIM_SPEC_GUESS_OFFSET 7
#define VKPRIM_SPEC_HOST_COUNT_ONLY 8

#endif
