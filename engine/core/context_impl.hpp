// The state behind vkprim::Context, shared by every layer of the engine.
#pragma once

#include "core/vk.hpp"

#include <vkprim/context.hpp>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace vkprim::detail {

// The instance-level commands vkprim uses, loaded through the caller's vkGetInstanceProcAddr.
struct InstanceFns {
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
  PFN_vkDestroyInstance DestroyInstance = nullptr;
  PFN_vkEnumeratePhysicalDevices EnumeratePhysicalDevices = nullptr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties = nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
  PFN_vkCreateDevice CreateDevice = nullptr;
  PFN_vkCreateDebugUtilsMessengerEXT CreateDebugUtilsMessengerEXT = nullptr;
  PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT = nullptr;

  void load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance);
};

// VK_EXT_debug_utils' commands for labels and names, set only where the instance has the
// extension enabled (CreateInfo::validation, AdoptInfo::debug_utils); null otherwise, which
// costs the recording one comparison per dispatch.
struct DebugUtilsFns {
  PFN_vkCmdBeginDebugUtilsLabelEXT begin_label = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT end_label = nullptr;
  PFN_vkSetDebugUtilsObjectNameEXT set_name = nullptr;

  void load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance);
  bool on() const { return begin_label && end_label && set_name; }
};

struct ContextImpl {
  InstanceFns vki;
  VolkDeviceTable vk{};  // every device-level command vkprim calls
  DebugUtilsFns debug;   // labels around every dispatch, names on every pipeline (when on)

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;
  const VkAllocationCallbacks* alloc = nullptr;
  VkPhysicalDeviceMemoryProperties memory{};
  DeviceCaps caps;
  // What tuning chooses by (core/device_class.hpp), computed once at creation or adoption.
  DeviceClass device_class;

  bool owns_instance = false;
  bool owns_device = false;
  bool owns_pipeline_cache = false;
  std::string pipeline_cache_path;
  uint64_t max_items_per_dispatch = uint64_t(1) << 31;  // CreateInfo::max_items_per_dispatch
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  MessageCallback on_message;
  // CreateInfo::pipeline_statistics, on a device with VK_KHR_pipeline_executable_properties:
  // Pipeline::create captures and appends here.
  bool capture_statistics = false;
  mutable std::mutex statistics_mutex;
  mutable std::vector<PipelineStatistics> statistics;
  // Set while a PassProfiler is attached (timing.hpp): called after every vkprim dispatch.
  mutable std::function<void(VkCommandBuffer, const char* pass)> on_dispatch;

  ContextImpl() = default;
  ContextImpl(const ContextImpl&) = delete;
  ContextImpl& operator=(const ContextImpl&) = delete;
  ~ContextImpl();

  Status save_pipeline_cache() const;
};

// Reads the capabilities of `pd`; `enabled` is the feature chain the device was created with
// (nullptr: report what the device supports).
DeviceCaps query_caps(const InstanceFns& vki, VkPhysicalDevice pd, uint32_t queue_family,
                      const VkPhysicalDeviceFeatures2* enabled);

}  // namespace vkprim::detail
