// A convenience for callers who chain vkprim calls without a finer dependency in mind.
#pragma once

#include <vkprim/context.hpp>

namespace vkprim {

// Records a full compute/transfer memory barrier: every earlier shader or transfer write is
// made available and visible to every later shader, transfer, indirect-argument or host access.
// vkprim places the barriers *between its own passes* itself; this one is for the caller's
// side of a call (between two vkprim calls, or vkprim and the caller's own dispatches).
void full_barrier(const Context& ctx, VkCommandBuffer cmd);

}  // namespace vkprim
