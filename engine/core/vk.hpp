// vkprim's private view of Vulkan: volk's function tables, under names of vkprim's own.
//
// volk.c defines a global function pointer for every Vulkan command (vkCreateInstance, ...) and
// volk* entry points; linked as-is they would clash with the host's loader or the host's own
// volk. vkprim_volk_names.h, generated at configure time from volk.h, renames every one of them
// into vkprim_* so vkprim's copy of volk is invisible to the host. Library code never calls a
// global vk* symbol: it goes through ContextImpl::vk (a VolkDeviceTable) and ContextImpl::vki.
#pragma once

#include "vkprim_volk_names.h"
#include <volk.h>
