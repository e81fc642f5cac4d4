// The include orders a Vulkan application uses, compiled (the build is the test; README, "Using
// the library"). vkprim's headers include <vulkan/vulkan_core.h> only, as VMA's do, so:
//   - with volk, <volk.h> comes first, or VK_NO_PROTOTYPES is defined before any Vulkan header;
//   - with the loader's prototypes, <vulkan/vulkan.h> may come before or after vkprim.
// VKPRIM_ORDER selects one order per translation unit (tests/CMakeLists.txt compiles each).
#if VKPRIM_ORDER == 1
#include <volk.h>
#include <vkprim/vkprim.hpp>
int header_order_volk_first() { return volkGetInstanceVersion() != 0; }
#elif VKPRIM_ORDER == 2
#define VK_NO_PROTOTYPES
#include <vkprim/vkprim.hpp>
#include <volk.h>
int header_order_no_prototypes() { return volkGetInstanceVersion() != 0; }
#elif VKPRIM_ORDER == 3
#include <vkprim/vkprim.hpp>
#include <vulkan/vulkan.h>
int header_order_vulkan_after() {
  uint32_t v = 0;
  return vkEnumerateInstanceVersion(&v);
}
#else
#include <vulkan/vulkan.h>
#include <vkprim/vkprim.hpp>
int header_order_vulkan_first() {
  uint32_t v = 0;
  return vkEnumerateInstanceVersion(&v);
}
#endif
