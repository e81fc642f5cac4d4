// vkprim::Context — the device vkprim records for: adopted from the caller (a renderer's
// instance, device and queue family) or created by vkprim. Holds vkprim's own per-device
// function table (volk's VolkDeviceTable, loaded privately: vkprim defines and uses no global
// vk* symbol) and the capabilities the primitives consult (DeviceCaps).
#pragma once

#include <vkprim/error.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vkprim {

namespace detail {
struct ContextImpl;
}

// What vkprim needs to know about a device; filled at adoption or creation.
struct DeviceCaps {
  std::string device_name;
  std::string driver_name;   // VkPhysicalDeviceDriverProperties::driverName
  std::string driver_info;
  VkDriverId driver_id = VkDriverId(0);  // VkPhysicalDeviceDriverProperties::driverID
  VkPhysicalDeviceType device_type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t vendor_id = 0;
  uint32_t api_version = 0;

  uint32_t subgroup_size = 0;        // default size compute shaders see
  uint32_t min_subgroup_size = 0;    // range selectable with subgroup size control
  uint32_t max_subgroup_size = 0;
  VkSubgroupFeatureFlags subgroup_ops = 0;  // VK_SUBGROUP_FEATURE_* supported in compute
  bool subgroup_size_control = false;       // feature enabled and compute stage supported
  bool compute_full_subgroups = false;
  bool subgroup_extended_types = false;     // subgroup operations on 64-bit types
  // maintenance4 enabled: pipelines declare their workgroup size by LocalSizeId rather than
  // the WorkgroupSize built-in, which it deprecates.
  bool maintenance4 = false;

  uint64_t max_storage_buffer_range = 0;
  uint64_t max_memory_allocation_size = 0;
  uint64_t max_buffer_size = 0;             // maintenance4, else max_memory_allocation_size
  uint32_t max_shared_memory = 0;           // maxComputeSharedMemorySize, bytes
  uint32_t max_workgroup_invocations = 0;   // of a 1-D workgroup (also maxComputeWorkGroupSize[0])
  uint32_t max_workgroup_count[3] = {0, 0, 0};
  uint32_t max_push_constants = 0;

  bool buffer_device_address = false;       // required
  bool shader_int64 = false;                // required
  bool shader_float64 = false;
  bool shader_int64_atomics = false;        // shaderBufferInt64Atomics
  bool vulkan_memory_model = false;
  bool timeline_semaphore = false;          // required by Runtime only
  bool host_query_reset = false;

  double timestamp_period_ns = 0.0;         // 0 when the queue family has no timestamps
  uint32_t timestamp_valid_bits = 0;

  // The subgroup operations vkprim's subgroup paths use: subgroup_ops where every size the
  // device may run lies in [4, 128] (what those paths are built for) and no known driver defect
  // breaks them (subgroup_defect()), else none, so that the shared-memory paths run instead.
  VkSubgroupFeatureFlags usable_subgroup_ops() const;
  // Why this device's subgroups cannot be trusted although it reports subgroup operations: a
  // known driver defect (docs/conventions.md, "Driver defects"), or nullptr. Today: lavapipe
  // reporting subgroups wider than 16 lanes, which it runs 16 lanes wide.
  const char* subgroup_defect() const;
  // Human-readable one-line summary of subgroup ops ("basic vote arithmetic ballot ...").
  std::string subgroup_ops_string() const;
  const char* device_type_string() const;
};

// PCI vendor ids (VkPhysicalDeviceProperties::vendorID) that tuning may key on.
inline constexpr uint32_t kVendorNvidia = 0x10DE;

// How fast a device moves its own memory, as tuning sees it (DeviceClass::bandwidth).
enum class BandwidthClass : uint32_t {
  host,      // a CPU device: its memory is the host's
  standard,  // a GPU whose device copy measures below the high class, or one not measured
  high,      // a GPU whose device copy measures at least 3.5 TB/s (bytes read and written)
};
// Where a device's bandwidth class comes from (DeviceClass::bandwidth_source).
enum class BandwidthSource : uint32_t {
  device_type,  // a CPU device: host, nothing measured
  measured,     // a copy timed on vkprim's own queue (once per device UUID and process)
  option,       // CreateInfo::bandwidth_class or AdoptInfo::bandwidth_class
  environment,  // the environment variable VKPRIM_BANDWIDTH_CLASS
  assumed,      // nothing to measure with (an adopted device, an integrated GPU, no timestamps)
};
const char* to_string(BandwidthClass c) noexcept;
const char* to_string(BandwidthSource s) noexcept;

// What tuning may choose by (docs/tuning.md, "Where tuning lives"): the device's vendor and
// type, the subgroup sizes it may run and the subgroup operations vkprim's subgroup paths may
// use, its shared memory per workgroup and its bandwidth class, which is measured or given,
// never inferred from a product name. Computed once when the Context is created or adopted.
struct DeviceClass {
  uint32_t vendor_id = 0;
  VkPhysicalDeviceType device_type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t min_subgroup_size = 0;           // the sizes compute subgroups may run at
  uint32_t max_subgroup_size = 0;
  VkSubgroupFeatureFlags subgroup_ops = 0;  // DeviceCaps::usable_subgroup_ops()
  uint32_t shared_memory = 0;               // bytes per workgroup
  BandwidthClass bandwidth = BandwidthClass::standard;
  BandwidthSource bandwidth_source = BandwidthSource::assumed;
  double copy_gbps = 0.0;  // the measured device copy (GB/s read + written); 0 unless measured

  constexpr bool cpu() const { return device_type == VK_PHYSICAL_DEVICE_TYPE_CPU; }
};
// One line: "vendor 0x10de, discrete GPU, subgroups 32-32, ..., bandwidth high (measured ...)".
std::string to_string(const DeviceClass& c);

// Everything vkprim needs to record on a device the caller owns. The caller keeps every
// handle alive for the Context's lifetime and passes, in `enabled_features`, the feature
// chain it gave vkCreateDevice (VkPhysicalDeviceFeatures2 with Vulkan11/12/13Features or the
// individual structs): vkprim cannot query what was enabled. vkprim needs Vulkan >= 1.2 with
// bufferDeviceAddress and shaderInt64 enabled, and vulkanMemoryModelDeviceScope wherever
// vulkanMemoryModel is enabled (its passes use the Device memory scope); everything else is
// optional and checked per call.
struct AdoptInfo {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queue_family = 0;                 // the family vkprim's commands will be submitted on
  uint32_t api_version = VK_API_VERSION_1_2; // apiVersion the instance/device were created with
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  const VkPhysicalDeviceFeatures2* enabled_features = nullptr;
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;              // optional, caller-owned
  const VkAllocationCallbacks* allocation_callbacks = nullptr;  // optional
  // The device's bandwidth class (DeviceClass). vkprim submits no work of its own to an adopted
  // device, so it does not measure one: unset, the class comes from VKPRIM_BANDWIDTH_CLASS,
  // else from a Context created earlier in this process on the same device (same
  // deviceUUID), else CPU devices are host and others standard.
  std::optional<BandwidthClass> bandwidth_class;
  // The instance has VK_EXT_debug_utils enabled: vkprim then names every pipeline it creates
  // ("vkprim <pass variant> (<workgroup> x <items>)") and wraps every dispatch it records in a
  // label ("vkprim <pass variant>"), so that RenderDoc, Nsight and the validation layer's
  // messages show which pass ran. Off (the default) records and names nothing.
  bool debug_utils = false;
};

enum class MessageSeverity { verbose, info, warning, error };
using MessageCallback = std::function<void(MessageSeverity, const char* message)>;

// How vkprim creates its own instance and device.
struct CreateInfo {
  // Device choice: discrete GPU first, then integrated, virtual, CPU. A non-empty selector
  // (an index into vkEnumeratePhysicalDevices or a case-insensitive name substring) overrides;
  // when empty, the environment variable VKPRIM_DEVICE is used if set.
  std::string device_selector;
  // Enable VK_LAYER_KHRONOS_validation with synchronization validation. Also turned on by the
  // environment variable VKPRIM_VALIDATION=1. With it VK_EXT_debug_utils: pipelines are named
  // and dispatches labelled as AdoptInfo::debug_utils describes.
  bool validation = false;
  // Receives debug-utils messages (validation layer output) when set.
  MessageCallback on_message;
  // Persistent pipeline cache: loaded at creation if the file exists, saved by
  // Context::save_pipeline_cache() and at destruction. Empty: in-memory cache only.
  std::string pipeline_cache_path;
  // Testing aid: the most items one dispatch of a grid-stride pass covers (0: 2^31). Set it
  // small to exercise on small data the chunking that counts past 2^31 and 2^32 rely on.
  uint64_t max_items_per_dispatch = 0;
  // Tuning aid: capture the driver's statistics of every pipeline vkprim creates
  // (VK_KHR_pipeline_executable_properties: registers per invocation on NVIDIA, for example),
  // read back with Context::pipeline_statistics(). Where the device lacks the extension the
  // list stays empty. Some drivers compile differently or skip their caches when asked.
  bool pipeline_statistics = false;
  // The device's bandwidth class (DeviceClass). Unset: VKPRIM_BANDWIDTH_CLASS (host, standard
  // or high) if set, else host for CPU devices, else measured on a discrete GPU with
  // timestamps (a device-local copy timed on the new device's queue before the Context is
  // returned, once per device and process), else standard.
  std::optional<BandwidthClass> bandwidth_class;
};

// What a driver reports about one compiled pipeline executable (Context::pipeline_statistics).
struct PipelineStatistics {
  std::string pipeline;    // shader variant with its workgroup size and items per invocation
  std::string executable;  // the driver's name for the executable (one per stage it compiled)
  struct Value {
    std::string name;
    std::string description;
    double value = 0.0;  // booleans as 0 / 1
  };
  std::vector<Value> values;
};

class Context {
 public:
  // Adopts the caller's device (the handles stay the caller's; vkprim creates a pipeline cache
  // of its own where AdoptInfo gives none). invalid_argument for a missing handle,
  // get_instance_proc_addr or enabled_features; unsupported below Vulkan 1.2 or without a
  // required feature.
  static Result<Context> adopt(const AdoptInfo& info);
  // Creates an instance and a device of vkprim's own (the first usable device by the order of
  // CreateInfo::device_selector). unsupported without a Vulkan loader, usable device, or the
  // validation layer that `validation` asks for; invalid_argument for a device index past the
  // last device, or for VKPRIM_BANDWIDTH_CLASS other than host, standard or high (adopt too).
  static Result<Context> create(const CreateInfo& info = {});

  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  ~Context();

  const DeviceCaps& caps() const;
  const DeviceClass& device_class() const;
  VkInstance instance() const;
  VkPhysicalDevice physical_device() const;
  VkDevice device() const;
  uint32_t queue_family() const;
  bool owns_device() const;  // true for Context::create
  PFN_vkGetInstanceProcAddr get_instance_proc_addr() const;

  // Statistics of every pipeline created so far, in creation order, when the Context was
  // created with CreateInfo::pipeline_statistics on a device that can report them; else empty.
  std::vector<PipelineStatistics> pipeline_statistics() const;
  // Writes the pipeline cache to CreateInfo::pipeline_cache_path (no-op without one); io_error
  // where the file cannot be written.
  Status save_pipeline_cache() const;

  // For the library's own layers; stable for the Context's lifetime, also across moves.
  const detail::ContextImpl& impl() const { return *impl_; }

 private:
  explicit Context(std::unique_ptr<detail::ContextImpl> impl);
  std::unique_ptr<detail::ContextImpl> impl_;
};

// Every physical device visible through the default loader, with its capabilities, for
// `vkprim devices`. Devices lacking a required feature are listed with `usable == false`.
// invalid_argument for VKPRIM_BANDWIDTH_CLASS other than host, standard or high.
struct DeviceListing {
  uint32_t index = 0;
  DeviceCaps caps;
  // Its class without a device of vkprim's: the bandwidth class as an adopted device gets it
  // (nothing is measured here; a Context created on the device measures).
  DeviceClass device_class;
  bool usable = false;
  std::string why_not;
};
Result<std::vector<DeviceListing>> list_devices();

}  // namespace vkprim
