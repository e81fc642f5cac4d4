// What vkprim reads from and changes in its embedded SPIR-V modules before it creates a
// pipeline from one (engine/core/pipeline.cpp). No Vulkan here: the modules are words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vkprim::detail {

// The end of the shader's push-constant block in bytes (its last member's offset plus size), read
// from the SPIR-V: 0 for a shader without one, nullopt where a member's type is not one vkprim's
// blocks use (32- and 64-bit scalars and their vectors).
std::optional<uint32_t> push_block_end(const uint32_t* code, size_t words);

// `code` (a SPIR-V module of `words` words) with its workgroup size declared the way SPIR-V 1.6
// and maintenance4 prefer: the WorkgroupSize built-in's decoration removed (its constant stays,
// so gl_WorkGroupSize keeps its value) and `LocalSize x y z` replaced by `LocalSizeId` of that
// constant's constituents (the specialization constants the pipeline sets). Empty where the
// module decorates no WorkgroupSize built-in, or where it is not shaped as glslang writes it
// (then the module is used unchanged). LocalSizeId is valid only on a device with maintenance4
// enabled.
std::vector<uint32_t> with_local_size_id(const uint32_t* code, size_t words);

}  // namespace vkprim::detail
