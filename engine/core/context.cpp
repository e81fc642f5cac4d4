// Context adoption and creation (docs/api.md#context).
#include "core/context_impl.hpp"
#include "core/device_class.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace vkprim {
namespace detail {
namespace {

// volk's loader state is process-global (renamed, so private to vkprim); this mutex guards it.
std::mutex& volk_mutex() {
  static std::mutex m;
  return m;
}

// The system loader's vkGetInstanceProcAddr, found by volk (dlopen of libvulkan.so.1).
Result<PFN_vkGetInstanceProcAddr> system_loader() {
  std::lock_guard lock(volk_mutex());
  static PFN_vkGetInstanceProcAddr gipa = nullptr;
  if (!gipa) {
    if (volkInitialize() != VK_SUCCESS)
      return make_error(Errc::unsupported,
                        "no Vulkan loader found (libvulkan.so.1); install libvulkan1");
    gipa = vkGetInstanceProcAddr;  // volk's (renamed) global, private to vkprim
  }
  return gipa;
}

void load_device_table(VolkDeviceTable& table, PFN_vkGetInstanceProcAddr gipa,
                       VkInstance instance, VkDevice device) {
  std::lock_guard lock(volk_mutex());
  volkInitializeCustom(gipa);
  volkLoadInstanceOnly(instance);
  volkLoadDeviceTable(&table, device);
}

template <class T>
const T* find_in_chain(const void* chain, VkStructureType type) {
  for (auto* p = static_cast<const VkBaseInStructure*>(chain); p; p = p->pNext)
    if (p->sType == type) return reinterpret_cast<const T*>(p);
  return nullptr;
}

// Reduces an enabled-features chain to the flags vkprim cares about.
struct FeatureSet {
  bool bda = false, int64 = false, float64 = false, int64_atomics = false, memory_model = false;
  bool timeline = false, host_query_reset = false, subgroup_size_control = false,
       full_subgroups = false, subgroup_extended_types = false, maintenance4 = false;
  // vulkanMemoryModel enabled without vulkanMemoryModelDeviceScope: then no shader may use the
  // Device memory scope, which every atomic and barrier of vkprim's passes (and glslang's
  // atomics in general) use.
  bool memory_model_without_device_scope = false;

  static FeatureSet from_chain(const VkPhysicalDeviceFeatures2* f) {
    FeatureSet s;
    if (!f) return s;
    s.int64 = f->features.shaderInt64;
    s.float64 = f->features.shaderFloat64;
    if (auto* v = find_in_chain<VkPhysicalDeviceVulkan12Features>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
      s.bda = v->bufferDeviceAddress;
      s.int64_atomics = v->shaderBufferInt64Atomics;
      s.memory_model = v->vulkanMemoryModel && v->vulkanMemoryModelDeviceScope;
      s.memory_model_without_device_scope = v->vulkanMemoryModel && !v->vulkanMemoryModelDeviceScope;
      s.timeline = v->timelineSemaphore;
      s.host_query_reset = v->hostQueryReset;
      s.subgroup_extended_types = v->shaderSubgroupExtendedTypes;
    }
    if (auto* v = find_in_chain<VkPhysicalDeviceVulkan13Features>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)) {
      s.subgroup_size_control = v->subgroupSizeControl;
      s.full_subgroups = v->computeFullSubgroups;
      s.maintenance4 = v->maintenance4;
    }
    if (auto* v = find_in_chain<VkPhysicalDeviceMaintenance4Features>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES))
      s.maintenance4 = s.maintenance4 || v->maintenance4;
    if (auto* v = find_in_chain<VkPhysicalDeviceBufferDeviceAddressFeatures>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES))
      s.bda = s.bda || v->bufferDeviceAddress;
    if (auto* v = find_in_chain<VkPhysicalDeviceShaderAtomicInt64Features>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES))
      s.int64_atomics = s.int64_atomics || v->shaderBufferInt64Atomics;
    if (auto* v = find_in_chain<VkPhysicalDeviceTimelineSemaphoreFeatures>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES))
      s.timeline = s.timeline || v->timelineSemaphore;
    if (auto* v = find_in_chain<VkPhysicalDeviceHostQueryResetFeatures>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES))
      s.host_query_reset = s.host_query_reset || v->hostQueryReset;
    if (auto* v = find_in_chain<VkPhysicalDeviceVulkanMemoryModelFeatures>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES)) {
      s.memory_model = s.memory_model || (v->vulkanMemoryModel && v->vulkanMemoryModelDeviceScope);
      s.memory_model_without_device_scope =
          s.memory_model_without_device_scope || (v->vulkanMemoryModel && !v->vulkanMemoryModelDeviceScope);
    }
    if (auto* v = find_in_chain<VkPhysicalDeviceSubgroupSizeControlFeatures>(f->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES)) {
      s.subgroup_size_control = s.subgroup_size_control || v->subgroupSizeControl;
      s.full_subgroups = s.full_subgroups || v->computeFullSubgroups;
    }
    return s;
  }
};

// The features a device supports, as a chain vkprim can both read and pass to vkCreateDevice.
struct FeatureChain {
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};

  void link(uint32_t api) {
    f2.pNext = &v12;
    v12.pNext = api >= VK_API_VERSION_1_3 ? &v13 : nullptr;
    v13.pNext = nullptr;
  }
};

const char* missing_requirement(const DeviceCaps& c) {
  if (c.api_version < VK_API_VERSION_1_2) return "Vulkan 1.2 is required";
  if (!c.buffer_device_address) return "bufferDeviceAddress is required";
  if (!c.shader_int64) return "shaderInt64 is required";
  return nullptr;
}

VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user) {
  auto* impl = static_cast<ContextImpl*>(user);
  if (impl && impl->on_message) {
    MessageSeverity s = MessageSeverity::verbose;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) s = MessageSeverity::error;
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) s = MessageSeverity::warning;
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) s = MessageSeverity::info;
    impl->on_message(s, data && data->pMessage ? data->pMessage : "");
  }
  return VK_FALSE;
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

std::string lower(std::string s) {
  for (auto& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

int type_rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

// The compute-capable queue family vkprim submits on: prefer one with timestamps, then the
// lowest index (usually the universal graphics+compute family).
std::optional<uint32_t> pick_queue_family(const InstanceFns& vki, VkPhysicalDevice pd) {
  uint32_t n = 0;
  vki.GetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vki.GetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
  std::optional<uint32_t> best;
  for (uint32_t i = 0; i < n; ++i) {
    if (!(fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    if (!best || (fams[i].timestampValidBits > 0 && fams[*best].timestampValidBits == 0)) best = i;
  }
  return best;
}

Result<std::vector<VkPhysicalDevice>> enumerate(const InstanceFns& vki, VkInstance instance) {
  uint32_t n = 0;
  VKPRIM_VK(vki.EnumeratePhysicalDevices(instance, &n, nullptr));
  std::vector<VkPhysicalDevice> pds(n);
  VKPRIM_VK(vki.EnumeratePhysicalDevices(instance, &n, pds.data()));
  pds.resize(n);
  return pds;
}

bool has_device_extension(const InstanceFns& vki, VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  if (vki.EnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> exts(n);
  if (vki.EnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data()) != VK_SUCCESS) return false;
  return std::any_of(exts.begin(), exts.begin() + n,
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

struct OwnedInstance {
  VkInstance instance = VK_NULL_HANDLE;
  InstanceFns vki;
  bool debug_utils = false;
};

Result<OwnedInstance> create_instance(PFN_vkGetInstanceProcAddr gipa, bool validation,
                                      ContextImpl* messenger_user) {
  auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  auto enum_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      gipa(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  auto enum_ext = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
      gipa(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties"));
  auto enum_layers = reinterpret_cast<PFN_vkEnumerateInstanceLayerProperties>(
      gipa(VK_NULL_HANDLE, "vkEnumerateInstanceLayerProperties"));
  if (!create || !enum_ext || !enum_layers)
    return make_error(Errc::unsupported, "the Vulkan loader lacks vkCreateInstance");
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (enum_version) enum_version(&loader_version);
  if (loader_version < VK_API_VERSION_1_2)
    return make_error(Errc::unsupported, "the Vulkan loader is older than 1.2");

  uint32_t n = 0;
  enum_ext(nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  enum_ext(nullptr, &n, exts.data());
  auto has_ext = [&](const char* name) {
    return std::any_of(exts.begin(), exts.end(),
                       [&](auto& e) { return std::strcmp(e.extensionName, name) == 0; });
  };
  std::vector<const char*> extensions;
  std::vector<const char*> layers;
  bool debug_utils = has_ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
                     (validation || (messenger_user && messenger_user->on_message));
  if (debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (has_ext(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME))
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
  if (validation) {
    uint32_t nl = 0;
    enum_layers(&nl, nullptr);
    std::vector<VkLayerProperties> ls(nl);
    enum_layers(&nl, ls.data());
    bool found = std::any_of(ls.begin(), ls.end(), [](auto& l) {
      return std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0;
    });
    if (!found)
      return make_error(Errc::unsupported,
                        "validation requested but VK_LAYER_KHRONOS_validation is not installed "
                        "(Debian: vulkan-validationlayers)");
    layers.push_back("VK_LAYER_KHRONOS_validation");
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vkprim";
  app.pEngineName = "vkprim";
  app.apiVersion = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);

  VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT vfeatures{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  vfeatures.enabledValidationFeatureCount = 1;
  vfeatures.pEnabledValidationFeatures = enables;

  VkDebugUtilsMessengerCreateInfoEXT dbg{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  dbg.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  dbg.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  dbg.pfnUserCallback = debug_callback;
  dbg.pUserData = messenger_user;

  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  const void* chain = nullptr;
  if (validation) {
    vfeatures.pNext = chain;
    chain = &vfeatures;
  }
  if (debug_utils) {
    dbg.pNext = chain;
    chain = &dbg;
  }
  ci.pNext = chain;
  if (has_ext(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME))
    ci.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = uint32_t(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = uint32_t(extensions.size());
  ci.ppEnabledExtensionNames = extensions.data();

  OwnedInstance out;
  VKPRIM_VK(create(&ci, nullptr, &out.instance));
  out.vki.load(gipa, out.instance);
  out.debug_utils = debug_utils;
  return out;
}

// A selector of digits only is a device index: parsed without overflow (a number past 64 bits
// is as out of range as any other index past the last device).
std::optional<uint64_t> selector_index(const std::string& sel) {
  if (sel.empty() || !std::all_of(sel.begin(), sel.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(sel.data(), sel.data() + sel.size(), v);
  return ec == std::errc() && end == sel.data() + sel.size() ? v : std::numeric_limits<uint64_t>::max();
}

Status check_selector(const std::string& sel, size_t count) {
  const auto index = selector_index(sel);
  if (index && *index >= count)
    return make_error(Errc::invalid_argument, "VKPRIM_DEVICE=" + sel + ": only " +
                                                  std::to_string(count) + " device(s)");
  return {};
}

}  // namespace

void InstanceFns::load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance) {
  GetInstanceProcAddr = gipa;
#define VKPRIM_LOAD(name) name = reinterpret_cast<PFN_vk##name>(gipa(instance, "vk" #name))
  VKPRIM_LOAD(GetDeviceProcAddr);
  VKPRIM_LOAD(DestroyInstance);
  VKPRIM_LOAD(EnumeratePhysicalDevices);
  VKPRIM_LOAD(GetPhysicalDeviceProperties);
  VKPRIM_LOAD(GetPhysicalDeviceProperties2);
  VKPRIM_LOAD(GetPhysicalDeviceFeatures2);
  VKPRIM_LOAD(GetPhysicalDeviceMemoryProperties);
  VKPRIM_LOAD(GetPhysicalDeviceQueueFamilyProperties);
  VKPRIM_LOAD(EnumerateDeviceExtensionProperties);
  VKPRIM_LOAD(CreateDevice);
  VKPRIM_LOAD(CreateDebugUtilsMessengerEXT);
  VKPRIM_LOAD(DestroyDebugUtilsMessengerEXT);
#undef VKPRIM_LOAD
}

void DebugUtilsFns::load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance) {
  begin_label = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(gipa(instance, "vkCmdBeginDebugUtilsLabelEXT"));
  end_label = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(gipa(instance, "vkCmdEndDebugUtilsLabelEXT"));
  set_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(gipa(instance, "vkSetDebugUtilsObjectNameEXT"));
  if (!on()) *this = {};
}

DeviceCaps query_caps(const InstanceFns& vki, VkPhysicalDevice pd, uint32_t queue_family,
                      const VkPhysicalDeviceFeatures2* enabled) {
  DeviceCaps c;
  VkPhysicalDeviceProperties base{};
  vki.GetPhysicalDeviceProperties(pd, &base);
  c.api_version = base.apiVersion;
  const bool v13 = base.apiVersion >= VK_API_VERSION_1_3;

  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  VkPhysicalDeviceSubgroupProperties sg{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties sgc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties m3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceMaintenance4Properties m4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  VkPhysicalDeviceDriverProperties drv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  p2.pNext = &sg;
  sg.pNext = &m3;
  m3.pNext = &drv;
  drv.pNext = v13 ? static_cast<void*>(&sgc) : nullptr;
  sgc.pNext = v13 ? &m4 : nullptr;
  vki.GetPhysicalDeviceProperties2(pd, &p2);

  c.device_name = base.deviceName;
  c.driver_name = drv.driverName;
  c.driver_info = drv.driverInfo;
  c.driver_id = drv.driverID;
  c.device_type = base.deviceType;
  c.vendor_id = base.vendorID;
  c.subgroup_size = sg.subgroupSize;
  c.subgroup_ops = (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ? sg.supportedOperations : 0;
  c.min_subgroup_size = v13 ? sgc.minSubgroupSize : sg.subgroupSize;
  c.max_subgroup_size = v13 ? sgc.maxSubgroupSize : sg.subgroupSize;
  const bool sgc_compute = v13 && (sgc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  c.max_storage_buffer_range = base.limits.maxStorageBufferRange;
  c.max_memory_allocation_size = m3.maxMemoryAllocationSize;
  c.max_buffer_size = v13 ? m4.maxBufferSize : m3.maxMemoryAllocationSize;
  c.max_shared_memory = base.limits.maxComputeSharedMemorySize;
  c.max_workgroup_invocations = std::min(base.limits.maxComputeWorkGroupInvocations,
                                         base.limits.maxComputeWorkGroupSize[0]);
  for (int i = 0; i < 3; ++i) c.max_workgroup_count[i] = base.limits.maxComputeWorkGroupCount[i];
  c.max_push_constants = base.limits.maxPushConstantsSize;

  uint32_t nq = 0;
  vki.GetPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> fams(nq);
  vki.GetPhysicalDeviceQueueFamilyProperties(pd, &nq, fams.data());
  if (queue_family < nq && fams[queue_family].timestampValidBits > 0) {
    c.timestamp_valid_bits = fams[queue_family].timestampValidBits;
    c.timestamp_period_ns = base.limits.timestampPeriod;
  }

  FeatureSet fs;
  if (enabled) {
    fs = FeatureSet::from_chain(enabled);
  } else {
    FeatureChain sup;
    sup.link(base.apiVersion);
    vki.GetPhysicalDeviceFeatures2(pd, &sup.f2);
    fs = FeatureSet::from_chain(&sup.f2);
  }
  c.buffer_device_address = fs.bda;
  c.shader_int64 = fs.int64;
  c.shader_float64 = fs.float64;
  c.shader_int64_atomics = fs.int64_atomics;
  c.vulkan_memory_model = fs.memory_model;
  c.timeline_semaphore = fs.timeline;
  c.host_query_reset = fs.host_query_reset;
  c.subgroup_size_control = fs.subgroup_size_control && sgc_compute;
  c.compute_full_subgroups = fs.full_subgroups;
  c.subgroup_extended_types = fs.subgroup_extended_types;
  c.maintenance4 = fs.maintenance4;
  return c;
}

ContextImpl::~ContextImpl() {
  if (device && pipeline_cache && owns_pipeline_cache) {
    (void)save_pipeline_cache();
    vk.vkDestroyPipelineCache(device, pipeline_cache, alloc);
  }
  if (owns_device && device) {
    vk.vkDeviceWaitIdle(device);
    vk.vkDestroyDevice(device, alloc);
  }
  if (messenger && vki.DestroyDebugUtilsMessengerEXT)
    vki.DestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  if (owns_instance && instance) vki.DestroyInstance(instance, nullptr);
}

Status ContextImpl::save_pipeline_cache() const {
  if (pipeline_cache_path.empty() || !pipeline_cache) return {};
  size_t size = 0;
  VKPRIM_VK(vk.vkGetPipelineCacheData(device, pipeline_cache, &size, nullptr));
  std::vector<char> data(size);
  VKPRIM_VK(vk.vkGetPipelineCacheData(device, pipeline_cache, &size, data.data()));
  std::ofstream out(pipeline_cache_path, std::ios::binary);
  out.write(data.data(), std::streamsize(size));
  if (!out)
    return make_error(Errc::io_error, "cannot write pipeline cache " + pipeline_cache_path);
  return {};
}

namespace {
Status finish_setup(ContextImpl& impl, const std::string& cache_path) {
  impl.vki.GetPhysicalDeviceMemoryProperties(impl.physical_device, &impl.memory);
  if (impl.pipeline_cache) return {};
  std::vector<char> initial;
  if (!cache_path.empty()) {
    std::ifstream in(cache_path, std::ios::binary);
    if (in) initial.assign(std::istreambuf_iterator<char>(in), {});
  }
  VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  pci.initialDataSize = initial.size();
  pci.pInitialData = initial.empty() ? nullptr : initial.data();
  VkResult r = impl.vk.vkCreatePipelineCache(impl.device, &pci, impl.alloc, &impl.pipeline_cache);
  if (r != VK_SUCCESS && !initial.empty()) {  // a stale or foreign cache file: start empty
    pci.initialDataSize = 0;
    pci.pInitialData = nullptr;
    r = impl.vk.vkCreatePipelineCache(impl.device, &pci, impl.alloc, &impl.pipeline_cache);
  }
  if (r != VK_SUCCESS) return vk_error(r, "vkCreatePipelineCache");
  impl.owns_pipeline_cache = true;
  impl.pipeline_cache_path = cache_path;
  return {};
}
}  // namespace

}  // namespace detail

using detail::ContextImpl;

Context::Context(std::unique_ptr<ContextImpl> impl) : impl_(std::move(impl)) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;

const DeviceCaps& Context::caps() const { return impl_->caps; }
const DeviceClass& Context::device_class() const { return impl_->device_class; }
VkInstance Context::instance() const { return impl_->instance; }
VkPhysicalDevice Context::physical_device() const { return impl_->physical_device; }
VkDevice Context::device() const { return impl_->device; }
uint32_t Context::queue_family() const { return impl_->queue_family; }
bool Context::owns_device() const { return impl_->owns_device; }
PFN_vkGetInstanceProcAddr Context::get_instance_proc_addr() const {
  return impl_->vki.GetInstanceProcAddr;
}
Status Context::save_pipeline_cache() const { return impl_->save_pipeline_cache(); }

std::vector<PipelineStatistics> Context::pipeline_statistics() const {
  std::lock_guard lock(impl_->statistics_mutex);
  return impl_->statistics;
}

Result<Context> Context::adopt(const AdoptInfo& info) {
  if (!info.instance || !info.physical_device || !info.device || !info.get_instance_proc_addr)
    return make_error(Errc::invalid_argument,
                      "AdoptInfo needs instance, physical_device, device and get_instance_proc_addr");
  if (!info.enabled_features)
    return make_error(Errc::invalid_argument,
                      "AdoptInfo::enabled_features must point at the VkPhysicalDeviceFeatures2 "
                      "chain the device was created with");
  if (info.api_version < VK_API_VERSION_1_2)
    return make_error(Errc::unsupported, "vkprim needs a Vulkan 1.2 instance and device");
  auto impl = std::make_unique<ContextImpl>();
  impl->vki.load(info.get_instance_proc_addr, info.instance);
  if (!impl->vki.GetDeviceProcAddr || !impl->vki.GetPhysicalDeviceProperties2)
    return make_error(Errc::unsupported, "vkGetInstanceProcAddr did not return core 1.1 commands");
  impl->instance = info.instance;
  impl->physical_device = info.physical_device;
  impl->device = info.device;
  impl->queue_family = info.queue_family;
  impl->pipeline_cache = info.pipeline_cache;
  impl->alloc = info.allocation_callbacks;
  impl->caps = detail::query_caps(impl->vki, info.physical_device, info.queue_family,
                                  info.enabled_features);
  impl->caps.api_version = std::min(impl->caps.api_version, info.api_version);
  if (const char* why = detail::missing_requirement(impl->caps))
    return make_error(Errc::unsupported, std::string("cannot adopt device: ") + why);
  if (detail::FeatureSet::from_chain(info.enabled_features).memory_model_without_device_scope)
    return make_error(Errc::unsupported,
                      "cannot adopt device: vulkanMemoryModel is enabled without "
                      "vulkanMemoryModelDeviceScope, so no shader may use the Device memory scope, "
                      "which vkprim's atomics and barriers use: enable both, or neither");
  detail::load_device_table(impl->vk, info.get_instance_proc_addr, info.instance, info.device);
  if (info.debug_utils) impl->debug.load(info.get_instance_proc_addr, info.instance);
  VKPRIM_TRY(detail::finish_setup(*impl, {}));
  // The caller's queue stays the caller's: nothing is measured on an adopted device.
  auto device_class = detail::classify_device(*impl, info.bandwidth_class, false);
  if (!device_class) return device_class.error();
  impl->device_class = *device_class;
  return Context(std::move(impl));
}

Result<Context> Context::create(const CreateInfo& info) {
  auto gipa = detail::system_loader();
  if (!gipa) return gipa.error();
  auto impl = std::make_unique<ContextImpl>();
  impl->on_message = info.on_message;
  if (info.max_items_per_dispatch)
    impl->max_items_per_dispatch = std::min(info.max_items_per_dispatch, impl->max_items_per_dispatch);
  const bool validation = info.validation || detail::env_flag("VKPRIM_VALIDATION");
  auto inst = detail::create_instance(*gipa, validation, impl.get());
  if (!inst) return inst.error();
  impl->instance = inst->instance;
  impl->owns_instance = true;
  impl->vki = inst->vki;
  if (inst->debug_utils && impl->vki.CreateDebugUtilsMessengerEXT) {
    VkDebugUtilsMessengerCreateInfoEXT dbg{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    dbg.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    dbg.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    dbg.pfnUserCallback = detail::debug_callback;
    dbg.pUserData = impl.get();
    VKPRIM_VK(impl->vki.CreateDebugUtilsMessengerEXT(impl->instance, &dbg, nullptr, &impl->messenger));
  }
  if (inst->debug_utils) impl->debug.load(impl->vki.GetInstanceProcAddr, impl->instance);

  auto pds = detail::enumerate(impl->vki, impl->instance);
  if (!pds) return pds.error();
  if (pds->empty()) return make_error(Errc::unsupported, "no Vulkan device found");

  std::string sel = info.device_selector;
  if (sel.empty())
    if (const char* env = std::getenv("VKPRIM_DEVICE")) sel = env;
  VKPRIM_TRY(detail::check_selector(sel, pds->size()));

  // Rank the candidates; the selector, if any, narrows them first.
  VkPhysicalDevice chosen = VK_NULL_HANDLE;
  uint32_t chosen_family = 0;
  int best_rank = 1 << 30;
  std::string rejected;
  for (size_t i = 0; i < pds->size(); ++i) {
    auto caps = detail::query_caps(impl->vki, (*pds)[i], 0, nullptr);
    if (!sel.empty()) {
      const auto index = detail::selector_index(sel);
      if (index ? *index != i : detail::lower(caps.device_name).find(detail::lower(sel)) == std::string::npos)
        continue;
    }
    auto family = detail::pick_queue_family(impl->vki, (*pds)[i]);
    const char* why = detail::missing_requirement(caps);
    if (!why && !family) why = "no compute queue";
    if (why) {
      rejected += "\n  " + caps.device_name + ": " + why;
      continue;
    }
    int rank = detail::type_rank(caps.device_type);
    if (rank < best_rank) {
      best_rank = rank;
      chosen = (*pds)[i];
      chosen_family = *family;
    }
  }
  if (!chosen)
    return make_error(Errc::unsupported,
                      (sel.empty() ? std::string("no usable Vulkan device")
                                   : "no usable Vulkan device matches '" + sel + "'") + rejected);

  // Enable what vkprim can use among what the device supports.
  VkPhysicalDeviceProperties props{};
  impl->vki.GetPhysicalDeviceProperties(chosen, &props);
  detail::FeatureChain sup;
  sup.link(props.apiVersion);
  impl->vki.GetPhysicalDeviceFeatures2(chosen, &sup.f2);
  detail::FeatureChain en;
  en.link(props.apiVersion);
  en.f2.features.shaderInt64 = sup.f2.features.shaderInt64;
  en.f2.features.shaderFloat64 = sup.f2.features.shaderFloat64;
  en.f2.features.shaderInt16 = sup.f2.features.shaderInt16;
  en.v12.bufferDeviceAddress = sup.v12.bufferDeviceAddress;
  en.v12.timelineSemaphore = sup.v12.timelineSemaphore;
  en.v12.hostQueryReset = sup.v12.hostQueryReset;
  en.v12.shaderBufferInt64Atomics = sup.v12.shaderBufferInt64Atomics;
  en.v12.vulkanMemoryModel = sup.v12.vulkanMemoryModel;
  en.v12.vulkanMemoryModelDeviceScope = sup.v12.vulkanMemoryModelDeviceScope;
  en.v12.storageBuffer8BitAccess = sup.v12.storageBuffer8BitAccess;
  en.v12.shaderInt8 = sup.v12.shaderInt8;
  en.v12.shaderSubgroupExtendedTypes = sup.v12.shaderSubgroupExtendedTypes;
  en.v13.subgroupSizeControl = sup.v13.subgroupSizeControl;
  en.v13.computeFullSubgroups = sup.v13.computeFullSubgroups;
  en.v13.maintenance4 = sup.v13.maintenance4;

  // Optional: pipeline statistics (CreateInfo::pipeline_statistics).
  std::vector<const char*> extensions;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  if (info.pipeline_statistics &&
      detail::has_device_extension(impl->vki, chosen, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 probe{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &exec};
    impl->vki.GetPhysicalDeviceFeatures2(chosen, &probe);
    if (exec.pipelineExecutableInfo) {
      exec.pNext = en.f2.pNext;
      en.f2.pNext = &exec;
      extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
      impl->capture_statistics = true;
    }
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = chosen_family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &en.f2;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = uint32_t(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  VKPRIM_VK(impl->vki.CreateDevice(chosen, &dci, nullptr, &impl->device));
  impl->owns_device = true;
  impl->physical_device = chosen;
  impl->queue_family = chosen_family;
  impl->caps = detail::query_caps(impl->vki, chosen, chosen_family, &en.f2);
  detail::load_device_table(impl->vk, *gipa, impl->instance, impl->device);
  VKPRIM_TRY(detail::finish_setup(*impl, info.pipeline_cache_path));
  // The device and its queue are vkprim's alone until this returns: the bandwidth class may be
  // measured on it. Its copy pipeline is no pipeline of the caller's (no statistics).
  const bool statistics = std::exchange(impl->capture_statistics, false);
  auto device_class = detail::classify_device(*impl, info.bandwidth_class, true);
  impl->capture_statistics = statistics;
  if (!device_class) return device_class.error();
  impl->device_class = *device_class;
  return Context(std::move(impl));
}

Result<std::vector<DeviceListing>> list_devices() {
  auto gipa = detail::system_loader();
  if (!gipa) return gipa.error();
  auto inst = detail::create_instance(*gipa, false, nullptr);
  if (!inst) return inst.error();
  struct Guard {
    detail::OwnedInstance& i;
    ~Guard() { i.vki.DestroyInstance(i.instance, nullptr); }
  } guard{*inst};
  auto pds = detail::enumerate(inst->vki, inst->instance);
  if (!pds) return pds.error();
  std::vector<DeviceListing> out;
  for (uint32_t i = 0; i < pds->size(); ++i) {
    auto family = detail::pick_queue_family(inst->vki, (*pds)[i]);
    DeviceListing d;
    d.index = i;
    d.caps = detail::query_caps(inst->vki, (*pds)[i], family.value_or(0), nullptr);
    const auto uuid = detail::device_uuid(inst->vki, (*pds)[i]);
    auto device_class = detail::classify(d.caps, uuid.data(), std::nullopt);
    if (!device_class) return device_class.error();
    d.device_class = *device_class;
    const char* why = detail::missing_requirement(d.caps);
    if (!why && !family) why = "no compute queue";
    d.usable = why == nullptr;
    if (why) d.why_not = why;
    out.push_back(std::move(d));
  }
  return out;
}

VkSubgroupFeatureFlags DeviceCaps::usable_subgroup_ops() const {
  const uint32_t lo = std::min(subgroup_size, min_subgroup_size ? min_subgroup_size : subgroup_size);
  const uint32_t hi = std::max(subgroup_size, max_subgroup_size);
  return lo >= 4 && hi <= 128 && !subgroup_defect() ? subgroup_ops : 0;
}

const char* DeviceCaps::subgroup_defect() const {
  // llvmpipe compiles compute shaders for min(LP_NATIVE_VECTOR_WIDTH / 32, 16) lanes while
  // lavapipe reports LP_NATIVE_VECTOR_WIDTH / 32 as the subgroup size: above 512 bits its
  // subgroups hold 16 invocations, gl_SubgroupSize says 32 to 128, and full subgroups, when
  // required, are not full (tests/lavapipe/subgroup_width.c shows it without vkprim).
  if (driver_id == VK_DRIVER_ID_MESA_LLVMPIPE && std::max(subgroup_size, max_subgroup_size) > 16)
    return "lavapipe runs compute subgroups of 16 invocations while it reports more "
           "(LP_NATIVE_VECTOR_WIDTH above 512)";
  return nullptr;
}

std::string DeviceCaps::subgroup_ops_string() const {
  static const std::pair<VkSubgroupFeatureFlagBits, const char*> names[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"}};
  std::string s;
  for (auto& [bit, name] : names) {
    if (!(subgroup_ops & bit)) continue;
    if (!s.empty()) s += ' ';
    s += name;
  }
  return s.empty() ? "none" : s;
}

const char* DeviceCaps::device_type_string() const {
  switch (device_type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

}  // namespace vkprim
