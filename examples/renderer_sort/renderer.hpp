// The application's side of examples/renderer_sort: what a Vulkan renderer already has before
// it uses vkprim (an instance with the validation layer where installed, a device with the
// features vkprim needs, buffers with device addresses, its own compute pipelines). Nothing
// here is vkprim's.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(x)                                                              \
  do {                                                                        \
    if ((x) != VK_SUCCESS) {                                                  \
      std::fprintf(stderr, "renderer_sort: %s failed (line %d)\n", #x, __LINE__); \
      return 1;                                                               \
    }                                                                         \
  } while (0)


inline int g_messages = 0;  // validation warnings and errors

inline VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ++g_messages;
    std::fprintf(stderr, "validation: %s\n", data->pMessage);
  }
  return VK_FALSE;
}

struct App {  // what a renderer already has: instance, device, queue, a pool, its own pipelines
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
};

struct AppBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceAddress address = 0;
  uint32_t* host = nullptr;  // mapped (the example keeps every buffer host-visible to check it)
};

// A storage buffer with a device address, the way vkprim needs every buffer it touches.
inline bool make_buffer(const App& app, VkDeviceSize size, AppBuffer& b) {
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = size;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  if (vkCreateBuffer(app.device, &bi, nullptr, &b.buffer) != VK_SUCCESS) return false;
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(app.device, b.buffer, &req);
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(app.gpu, &mp);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (type < mp.memoryTypeCount && (!(req.memoryTypeBits & (1u << type)) ||
                                       (mp.memoryTypes[type].propertyFlags & want) != want))
    ++type;
  if (type == mp.memoryTypeCount) return false;
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags, req.size, type};
  if (vkAllocateMemory(app.device, &ai, nullptr, &b.memory) != VK_SUCCESS ||
      vkBindBufferMemory(app.device, b.buffer, b.memory, 0) != VK_SUCCESS ||
      vkMapMemory(app.device, b.memory, 0, size, 0, reinterpret_cast<void**>(&b.host)) != VK_SUCCESS)
    return false;
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, nullptr, b.buffer};
  b.address = vkGetBufferDeviceAddress(app.device, &info);
  return true;
}

// The barrier between two compute passes: the first's shader writes before the second's reads
// and writes (of any buffer: one global memory barrier).
inline void compute_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, src,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, src_stage, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
}

inline int create_app(App& app) {
  bool layer = false;
  uint32_t n = 0;
  vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> layers(n);
  vkEnumerateInstanceLayerProperties(&n, layers.data());
  for (const auto& l : layers) layer |= std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
  const char* layer_name = "VK_LAYER_KHRONOS_validation";
  const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  const VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
  VkValidationFeaturesEXT vf{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, nullptr, 1, &sync};
  VkApplicationInfo ai{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  ai.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, layer ? &vf : nullptr};
  ici.pApplicationInfo = &ai;
  ici.enabledLayerCount = layer ? 1 : 0;
  ici.ppEnabledLayerNames = &layer_name;
  ici.enabledExtensionCount = layer ? 1 : 0;
  ici.ppEnabledExtensionNames = &ext;
  CHECK(vkCreateInstance(&ici, nullptr, &app.instance));
  if (layer) {
    VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mi.pfnUserCallback = on_message;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(app.instance, "vkCreateDebugUtilsMessengerEXT"));
    CHECK(create(app.instance, &mi, nullptr, &app.messenger));
  }
  n = 1;  // the first device; a renderer picks its own
  if (vkEnumeratePhysicalDevices(app.instance, &n, &app.gpu) < 0 || n == 0) return 1;
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(app.gpu, &props);
  std::printf("device: %s (validation %s)\n", props.deviceName, layer ? "on" : "not installed");
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(app.gpu, &families, nullptr);
  std::vector<VkQueueFamilyProperties> qf(families);
  vkGetPhysicalDeviceQueueFamilyProperties(app.gpu, &families, qf.data());
  while (app.family < families && !(qf[app.family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++app.family;

  // The features vkprim requires (bufferDeviceAddress, shaderInt64) and those it uses where
  // enabled: the supported subset, and this exact chain is what AdoptInfo::enabled_features gets.
  VkPhysicalDeviceVulkan12Features s12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features s13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 s{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &s12};
  s12.pNext = &s13;
  vkGetPhysicalDeviceFeatures2(app.gpu, &s);
  if (!s12.bufferDeviceAddress || !s.features.shaderInt64) return std::fprintf(stderr, "no bufferDeviceAddress/shaderInt64\n"), 1;
  app.features.pNext = &app.f12;
  app.f12.pNext = &app.f13;
  app.features.features.shaderInt64 = VK_TRUE;
  app.f12.bufferDeviceAddress = VK_TRUE;
  app.f12.shaderSubgroupExtendedTypes = s12.shaderSubgroupExtendedTypes;
  app.f12.vulkanMemoryModel = app.f12.vulkanMemoryModelDeviceScope =  // both or neither
      s12.vulkanMemoryModel && s12.vulkanMemoryModelDeviceScope;
  app.f13.subgroupSizeControl = s13.subgroupSizeControl;
  app.f13.computeFullSubgroups = s13.computeFullSubgroups;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, app.family, 1, &priority};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &app.features};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  CHECK(vkCreateDevice(app.gpu, &dci, nullptr, &app.device));
  vkGetDeviceQueue(app.device, app.family, 0, &app.queue);
  return 0;
}

inline VkPipeline make_pipeline(const App& app, const uint32_t* code, size_t bytes, VkPipelineLayout layout) {
  VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, bytes, code};
  VkShaderModule module;
  if (vkCreateShaderModule(app.device, &mi, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  ci.layout = layout;
  VkPipeline p = VK_NULL_HANDLE;
  vkCreateComputePipelines(app.device, VK_NULL_HANDLE, 1, &ci, nullptr, &p);
  vkDestroyShaderModule(app.device, module, nullptr);
  return p;
}

// Everything create_app made, destroyed (vkprim's objects must be gone by then).
inline void destroy_app(App& app) {
  vkDestroyDevice(app.device, nullptr);
  if (app.messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(app.instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroy(app.instance, app.messenger, nullptr);
  }
  vkDestroyInstance(app.instance, nullptr);
}
