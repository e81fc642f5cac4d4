// Device adoption as a renderer does it: the test creates its own instance and device through
// the system loader (global vk* symbols from libvulkan), with a graphics+compute queue, hands
// them to vkprim, and records vkprim's work between its own commands in one command buffer.
#include "gpu.hpp"
#if defined(VKPRIM_TEST_SPARSE)
#include <vkprim/sparse/spmv.hpp>
#endif

#include <catch2/catch.hpp>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <cstring>
#include <string>
#include <vector>

using namespace vkprim;

namespace {
#define CHECK_VK(x) REQUIRE((x) == VK_SUCCESS)

// The best-practices layer's advice (only a Renderer that asks for it gets any), kept apart
// from the validation messages that fail every test.
std::vector<std::string> best_practices;

VKAPI_ATTR VkBool32 VKAPI_CALL on_debug(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                        VkDebugUtilsMessageTypeFlagsEXT,
                                        const VkDebugUtilsMessengerCallbackDataEXT* d, void*) {
  if (d->pMessageIdName && std::strstr(d->pMessageIdName, "BestPractices"))
    best_practices.emplace_back(std::string(d->pMessageIdName) + ": " + d->pMessage);
  else
    test::validation_messages().emplace_back(d->pMessage);
  return VK_FALSE;
}

// What the renderer's instance and device are made with beyond the default (Vulkan 1.2, the
// validation layer with synchronization validation, vkprim's required features).
struct RendererOptions {
  bool best_practices = false;  // the layer's best-practices checks too
  bool maintenance4 = false;    // Vulkan 1.3 with maintenance4 enabled
};

struct Renderer {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  uint32_t api = VK_API_VERSION_1_2;

  explicit Renderer(const RendererOptions& options = {}) {
    if (options.maintenance4) api = VK_API_VERSION_1_3;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = api;
    const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char* exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    const VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
        VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT};
    VkValidationFeaturesEXT vf{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    vf.enabledValidationFeatureCount = options.best_practices ? 2 : 1;
    vf.pEnabledValidationFeatures = enables;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pNext = &vf;
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = layers;
    ici.enabledExtensionCount = 1;
    ici.ppEnabledExtensionNames = exts;
    CHECK_VK(vkCreateInstance(&ici, nullptr, &instance));
    VkDebugUtilsMessengerCreateInfoEXT dci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    dci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    dci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    dci.pfnUserCallback = on_debug;
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    CHECK_VK(create_messenger(instance, &dci, nullptr, &messenger));

    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    std::vector<VkPhysicalDevice> pds(n);
    vkEnumeratePhysicalDevices(instance, &n, pds.data());
    REQUIRE(n > 0);
    pd = pds[0];
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
    std::vector<VkQueueFamilyProperties> q(nq);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q.data());
    family = nq;
    for (uint32_t i = 0; i < nq; ++i)
      if ((q[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
          (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
        family = i;
        break;
      }
    REQUIRE(family < nq);

    // What a renderer enables: its own needs plus what vkprim requires.
    f2.pNext = &v12;
    f2.features.shaderInt64 = VK_TRUE;
    v12.bufferDeviceAddress = VK_TRUE;
    v12.timelineSemaphore = VK_TRUE;
    if (options.maintenance4) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(pd, &props);
      REQUIRE(props.apiVersion >= VK_API_VERSION_1_3);
      v12.pNext = &v13;
      v13.maintenance4 = VK_TRUE;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    VkDeviceCreateInfo dvi{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dvi.pNext = &f2;
    dvi.queueCreateInfoCount = 1;
    dvi.pQueueCreateInfos = &qci;
    CHECK_VK(vkCreateDevice(pd, &dvi, nullptr, &device));
    vkGetDeviceQueue(device, family, 0, &queue);
  }
  ~Renderer() {
    if (device) vkDestroyDevice(device, nullptr);
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (messenger) destroy(instance, messenger, nullptr);
    if (instance) vkDestroyInstance(instance, nullptr);
  }

  // A host-visible buffer with a device address: the renderer's own allocation.
  struct Buf {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void* map;
  };
  Buf make_buffer(VkDeviceSize size) {
    Buf b{};
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    CHECK_VK(vkCreateBuffer(device, &bci, nullptr, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    uint32_t type = 0;
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    while (type < mp.memoryTypeCount &&
           !((req.memoryTypeBits & (1u << type)) && (mp.memoryTypes[type].propertyFlags & want) == want))
      ++type;
    REQUIRE(type < mp.memoryTypeCount);
    VkMemoryAllocateFlagsInfo fi{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    fi.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.pNext = &fi;
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    CHECK_VK(vkAllocateMemory(device, &mai, nullptr, &b.memory));
    CHECK_VK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
    CHECK_VK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.map));
    return b;
  }
  // A command pool (the caller destroys it) and one of its command buffers, begun.
  VkCommandBuffer begin_commands(VkCommandPool& pool) {
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = family;
    CHECK_VK(vkCreateCommandPool(device, &pci, nullptr, &pool));
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = pool;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    CHECK_VK(vkAllocateCommandBuffers(device, &cai, &cmd));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
    return cmd;
  }
  // What a renderer hands vkprim: its handles and the feature chain it enabled (`features`,
  // f2 unless a test claims another).
  AdoptInfo adopt_info(const VkPhysicalDeviceFeatures2* features = nullptr) const {
    AdoptInfo ai;
    ai.instance = instance;
    ai.physical_device = pd;
    ai.device = device;
    ai.queue_family = family;
    ai.api_version = api;
    ai.get_instance_proc_addr = vkGetInstanceProcAddr;
    ai.enabled_features = features ? features : &f2;
    return ai;
  }
  // Ends `cmd` after a barrier that makes its compute-shader writes visible to the host.
  void end_for_host(VkCommandBuffer cmd) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
                         nullptr, 0, nullptr);
    CHECK_VK(vkEndCommandBuffer(cmd));
  }
  // Submits the ended `cmd` on the queue and waits for it.
  void submit_wait(VkCommandBuffer cmd) {
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK_VK(vkCreateFence(device, &fci, nullptr, &fence));
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    CHECK_VK(vkQueueSubmit(queue, 1, &si, fence));
    CHECK_VK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(device, fence, nullptr);
  }
  void free_buffer(Buf& b) {
    vkDestroyBuffer(device, b.buffer, nullptr);
    vkFreeMemory(device, b.memory, nullptr);
  }
};
}  // namespace

TEST_CASE("vkprim records into the renderer's command buffer on the renderer's device", "[adopt]") {
  Renderer r;
  AdoptInfo ai = r.adopt_info();
  {
    auto ctx = Context::adopt(ai).value();
    CHECK_FALSE(ctx.owns_device());
    auto map = Map::create(ctx, ValueType::u32).value();

    const uint32_t n = 10000;
    auto a = r.make_buffer(n * 4), b = r.make_buffer(n * 4);
    auto va = BufferView::of(ctx, a.buffer, 0, n * 4).value();
    auto vb = BufferView::of(ctx, b.buffer, 0, n * 4).value();

    VkCommandPool pool;
    VkCommandBuffer cmd = r.begin_commands(pool);

    // The renderer's own command: fill `a` with 7.
    vkCmdFillBuffer(cmd, a.buffer, 0, n * 4, 7u);
    // The barrier the caller owes before a vkprim call: transfer write -> compute read.
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb,
                         0, nullptr, 0, nullptr);
    // vkprim: b = 3 * a + 1.
    REQUIRE(map.affine(cmd, va, vb, 3u, 1u, n).ok());
    // The barrier owed after: compute write -> the renderer's next use (a transfer).
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb,
                         0, nullptr, 0, nullptr);
    // The renderer's own command after: overwrite the first element of b.
    vkCmdFillBuffer(cmd, b.buffer, 0, 4, 99u);
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr,
                         0, nullptr);
    CHECK_VK(vkEndCommandBuffer(cmd));

    r.submit_wait(cmd);

    std::vector<uint32_t> out(n);
    std::memcpy(out.data(), b.map, n * 4);
    CHECK(out[0] == 99u);
    for (uint32_t i = 1; i < n; ++i) REQUIRE(out[i] == 22u);

    vkDestroyCommandPool(r.device, pool, nullptr);
    r.free_buffer(a);
    r.free_buffer(b);
  }
}

TEST_CASE("an adopted device's class: nothing submitted to measure it, the option given", "[adopt][device-class]") {
  Renderer r;
  AdoptInfo ai = r.adopt_info();
  {
    auto ctx = Context::adopt(ai).value();
    const DeviceClass& d = ctx.device_class();
    CHECK(d.vendor_id == ctx.caps().vendor_id);
    CHECK(d.device_type == ctx.caps().device_type);
    if (!std::getenv("VKPRIM_BANDWIDTH_CLASS")) {
      // Never measured on the caller's queue: a CPU device is host; a GPU takes what a Context
      // of vkprim's own measured earlier in this process on the same device, else standard.
      if (d.cpu()) CHECK(d.bandwidth == BandwidthClass::host);
      else CHECK((d.bandwidth_source == BandwidthSource::assumed || d.bandwidth_source == BandwidthSource::measured));
    }
  }
  ai.bandwidth_class = BandwidthClass::high;
  auto given = Context::adopt(ai).value();
  CHECK(given.device_class().bandwidth == BandwidthClass::high);
  CHECK(given.device_class().bandwidth_source == BandwidthSource::option);
}

TEST_CASE("adoption refuses a device without bufferDeviceAddress", "[adopt]") {
  Renderer r;
  VkPhysicalDeviceFeatures2 without{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  without.features.shaderInt64 = VK_TRUE;
  AdoptInfo ai = r.adopt_info(&without);
  auto ctx = Context::adopt(ai);
  REQUIRE_FALSE(ctx.ok());
  CHECK(ctx.error().code == Errc::unsupported);
  CHECK_THAT(ctx.error().message, Catch::Contains("bufferDeviceAddress"));
}

// BufferView::of with the buffer's VkBufferCreateInfo refuses, before asking for an address, a
// buffer made without the device-address usage and a range past the buffer.
// On a device with maintenance4, which deprecates the WorkgroupSize built-in, vkprim's pipelines
// declare their workgroup size by LocalSizeId (engine/core/pipeline.hpp): the best-practices
// layer has nothing to say about it, and the rewritten pipelines compute what they did.
TEST_CASE("with maintenance4, no pipeline uses the deprecated WorkgroupSize built-in", "[adopt][spirv]") {
  best_practices.clear();
  Renderer r({/*best_practices=*/true, /*maintenance4=*/true});
  {
    auto ctx = Context::adopt(r.adopt_info()).value();
    REQUIRE(ctx.caps().maintenance4);
    // One object of each family: their pipelines are created with them.
    auto scan = Scan::create(ctx, ValueType::u32).value();
    REQUIRE(RadixSort::create(ctx, ValueType::u32).ok());
    REQUIRE(Select::create(ctx, ValueType::u32).ok());
    REQUIRE(Histogram::create_even(ctx, ValueType::u32, 64, 0.0, 64.0).ok());
    REQUIRE(SummedAreaTable::create(ctx, ValueType::f32).ok());
    REQUIRE(Gather::create(ctx).ok());
    REQUIRE(Fill::create(ctx).ok());

    const uint32_t n = 30001;
    REQUIRE(scan.reserve(n).ok());
    auto in = r.make_buffer(n * 4), out = r.make_buffer(n * 4);
    for (uint32_t i = 0; i < n; ++i) static_cast<uint32_t*>(in.map)[i] = i % 5;
    VkCommandPool pool;
    VkCommandBuffer cmd = r.begin_commands(pool);
    REQUIRE(scan.exclusive(cmd, BufferView::of(ctx, in.buffer, 0, n * 4).value(),
                           BufferView::of(ctx, out.buffer, 0, n * 4).value(), n)
                .ok());
    r.end_for_host(cmd);
    r.submit_wait(cmd);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) {
      REQUIRE(static_cast<uint32_t*>(out.map)[i] == sum);
      sum += i % 5;
    }
    vkDestroyCommandPool(r.device, pool, nullptr);
    r.free_buffer(in);
    r.free_buffer(out);
  }
  for (const auto& m : best_practices) CHECK_THAT(m, !Catch::Contains("SpirvDeprecated_WorkgroupSize"));
}

TEST_CASE("BufferView::of checks the usage and the range it is given", "[adopt][buffer]") {
  Renderer r;
  auto ctx = Context::adopt(r.adopt_info()).value();
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 256;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;  // no VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT
  VkBuffer plain = VK_NULL_HANDLE;
  CHECK_VK(vkCreateBuffer(r.device, &bci, nullptr, &plain));
  auto refused = BufferView::of(ctx, plain, bci, 0, 256);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == Errc::invalid_argument);
  CHECK_THAT(refused.error().message, Catch::Contains("VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT"));
  vkDestroyBuffer(r.device, plain, nullptr);

  auto b = r.make_buffer(256);
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  auto past = BufferView::of(ctx, b.buffer, bci, 128, 129);
  REQUIRE_FALSE(past.ok());
  CHECK_THAT(past.error().message, Catch::Contains("pass the buffer's 256 bytes"));
  auto view = BufferView::of(ctx, b.buffer, bci, 128, 128);
  REQUIRE(view.ok());
  CHECK(view->size == 128);
  CHECK(view->address == BufferView::of(ctx, b.buffer, 0, 256)->address + 128);
  r.free_buffer(b);
}

// The debug-utils commands vkprim calls, seen through the vkGetInstanceProcAddr it is given:
// each call counted and its label or name kept, then passed on to the real command.
namespace labels {
PFN_vkCmdBeginDebugUtilsLabelEXT real_begin = nullptr;
PFN_vkCmdEndDebugUtilsLabelEXT real_end = nullptr;
PFN_vkSetDebugUtilsObjectNameEXT real_name = nullptr;
std::vector<std::string> begun, named;
int ended = 0;
VKAPI_ATTR void VKAPI_CALL begin(VkCommandBuffer cmd, const VkDebugUtilsLabelEXT* l) {
  begun.emplace_back(l->pLabelName);
  real_begin(cmd, l);
}
VKAPI_ATTR void VKAPI_CALL end(VkCommandBuffer cmd) {
  ++ended;
  real_end(cmd);
}
VKAPI_ATTR VkResult VKAPI_CALL name(VkDevice d, const VkDebugUtilsObjectNameInfoEXT* n) {
  named.emplace_back(n->pObjectName);
  return real_name(d, n);
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gipa(VkInstance instance, const char* fn) {
  const std::string f = fn;
  if (f == "vkCmdBeginDebugUtilsLabelEXT") return reinterpret_cast<PFN_vkVoidFunction>(begin);
  if (f == "vkCmdEndDebugUtilsLabelEXT") return reinterpret_cast<PFN_vkVoidFunction>(end);
  if (f == "vkSetDebugUtilsObjectNameEXT") return reinterpret_cast<PFN_vkVoidFunction>(name);
  return vkGetInstanceProcAddr(instance, fn);
}
}  // namespace labels

TEST_CASE("with debug utils, every dispatch is labelled and every pipeline named", "[adopt][labels]") {
  Renderer r;
  labels::real_begin = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
      vkGetInstanceProcAddr(r.instance, "vkCmdBeginDebugUtilsLabelEXT"));
  labels::real_end = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
      vkGetInstanceProcAddr(r.instance, "vkCmdEndDebugUtilsLabelEXT"));
  labels::real_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
      vkGetInstanceProcAddr(r.instance, "vkSetDebugUtilsObjectNameEXT"));
  REQUIRE(labels::real_begin);
  AdoptInfo ai = r.adopt_info();
  ai.get_instance_proc_addr = labels::gipa;
  const uint32_t n = 100000;
  for (const bool on : {true, false}) {
    DYNAMIC_SECTION("debug_utils " << on) {
      labels::begun.clear(), labels::named.clear(), labels::ended = 0;
      ai.debug_utils = on;
      auto ctx = Context::adopt(ai).value();
      auto scan = Scan::create(ctx, ValueType::u32).value();
      REQUIRE(scan.reserve(n).ok());
      if (on) {
        REQUIRE(labels::named.size() >= 3);  // the scan's passes and the fill of its tile state
        for (const auto& s : labels::named) CHECK_THAT(s, Catch::StartsWith("vkprim "));
      }
      auto in = r.make_buffer(n * 4), out = r.make_buffer(n * 4);
      for (uint32_t i = 0; i < n; ++i) static_cast<uint32_t*>(in.map)[i] = i % 7;
      auto vin = BufferView::of(ctx, in.buffer, 0, n * 4).value();
      auto vout = BufferView::of(ctx, out.buffer, 0, n * 4).value();
      VkCommandPool pool;
      VkCommandBuffer cmd = r.begin_commands(pool);
      REQUIRE(scan.exclusive(cmd, vin, vout, n).ok());
      r.end_for_host(cmd);
      if (on) {
        CHECK(labels::begun.size() >= 2);  // a scan records two passes or more
        CHECK(int(labels::begun.size()) == labels::ended);
        for (const auto& s : labels::begun) CHECK_THAT(s, Catch::StartsWith("vkprim "));
      } else {
        CHECK(labels::begun.empty());
        CHECK(labels::ended == 0);
        CHECK(labels::named.empty());
      }
      r.submit_wait(cmd);
      uint32_t sum = 0;
      for (uint32_t i = 0; i < n; ++i) {
        REQUIRE(static_cast<uint32_t*>(out.map)[i] == sum);
        sum += i % 7;
      }
      vkDestroyCommandPool(r.device, pool, nullptr);
      r.free_buffer(in);
      r.free_buffer(out);
    }
  }
}

// The pipeline barriers vkprim records, counted through the vkGetInstanceProcAddr it is given
// (its device table comes from the vkGetDeviceProcAddr that returns).
namespace barriers {
PFN_vkGetDeviceProcAddr real_gdpa = nullptr;
PFN_vkCmdPipelineBarrier real_barrier = nullptr;
int recorded = 0;
VKAPI_ATTR void VKAPI_CALL barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                                   VkDependencyFlags dep, uint32_t nm, const VkMemoryBarrier* m, uint32_t nb,
                                   const VkBufferMemoryBarrier* b, uint32_t ni, const VkImageMemoryBarrier* i) {
  ++recorded;
  real_barrier(cmd, src, dst, dep, nm, m, nb, b, ni, i);
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gdpa(VkDevice device, const char* fn) {
  if (std::string(fn) == "vkCmdPipelineBarrier") return reinterpret_cast<PFN_vkVoidFunction>(barrier);
  return real_gdpa(device, fn);
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL gipa(VkInstance instance, const char* fn) {
  if (std::string(fn) == "vkGetDeviceProcAddr") return reinterpret_cast<PFN_vkVoidFunction>(gdpa);
  return vkGetInstanceProcAddr(instance, fn);
}
}  // namespace barriers

// Each call of several passes records one barrier before its first pass, and none with
// leading_barrier = false; with the caller's barrier in its place the results are the same.
TEST_CASE("leading_barrier = false leaves out the barrier before a call's first pass", "[adopt][barrier]") {
  Renderer r;
  barriers::real_gdpa = reinterpret_cast<PFN_vkGetDeviceProcAddr>(
      vkGetInstanceProcAddr(r.instance, "vkGetDeviceProcAddr"));
  barriers::real_barrier = reinterpret_cast<PFN_vkCmdPipelineBarrier>(
      vkGetDeviceProcAddr(r.device, "vkCmdPipelineBarrier"));
  AdoptInfo ai = r.adopt_info();
  ai.get_instance_proc_addr = barriers::gipa;
  auto ctx = Context::adopt(ai).value();
  const uint32_t n = 20000;
  auto in = r.make_buffer(n * 4), out = r.make_buffer(n * 4), aux = r.make_buffer(n * 4);
  for (uint32_t i = 0; i < n; ++i) static_cast<uint32_t*>(in.map)[i] = (i * 2654435761u) >> 8;
  const auto vin = BufferView::of(ctx, in.buffer, 0, n * 4).value();
  const auto vout = BufferView::of(ctx, out.buffer, 0, n * 4).value();
  const auto vaux = BufferView::of(ctx, aux.buffer, 0, n * 4).value();
  const std::vector<uint32_t> x(static_cast<uint32_t*>(in.map), static_cast<uint32_t*>(in.map) + n);
  const auto got = [&](uint64_t count) {
    return std::vector<uint32_t>(static_cast<uint32_t*>(out.map), static_cast<uint32_t*>(out.map) + count);
  };
  // Records `call` into a command buffer of its own, after the caller's barrier where the call
  // leaves its own out; returns the barriers vkprim recorded.
  const auto run = [&](bool leading, const std::function<Status(VkCommandBuffer)>& call) {
    VkCommandPool pool;
    VkCommandBuffer cmd = r.begin_commands(pool);
    if (!leading) full_barrier(ctx, cmd);
    barriers::recorded = 0;
    REQUIRE(call(cmd).ok());
    const int recorded = barriers::recorded;
    r.end_for_host(cmd);
    r.submit_wait(cmd);
    vkDestroyCommandPool(r.device, pool, nullptr);
    return recorded;
  };
  std::vector<uint32_t> scanned(n), sorted = x, hist(16, 0), selected;
  for (uint32_t i = 0, sum = 0; i < n; sum += x[i++]) scanned[i] = sum;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t v : x) ++hist[v >> 20];
  for (uint32_t v : x) if (v % 2 == 0) selected.push_back(v);
  int with[4] = {}, without[4] = {};
  for (const bool leading : {true, false}) {
    INFO("leading_barrier " << leading);
    int* counted = leading ? with : without;
    ScanOptions so;
    so.leading_barrier = leading;
    auto scan = Scan::create(ctx, ValueType::u32, ScanOp::sum, so).value();
    REQUIRE(scan.reserve(n).ok());
    counted[0] = run(leading, [&](VkCommandBuffer cmd) { return scan.exclusive(cmd, vin, vout, n); });
    CHECK(got(n) == scanned);
    SortOptions sort_options;
    sort_options.leading_barrier = leading;
    auto sort = RadixSort::create(ctx, ValueType::u32, sort_options).value();
    REQUIRE(sort.reserve(n).ok());
    counted[1] = run(leading, [&](VkCommandBuffer cmd) { return sort.sort_keys(cmd, vin, vout, n); });
    CHECK(got(n) == sorted);
    HistogramOptions ho;
    ho.leading_barrier = leading;
    auto h = Histogram::create_even(ctx, ValueType::u32, 16, 0, 16.0 * (1 << 20), ho).value();
    counted[2] = run(leading, [&](VkCommandBuffer cmd) { return h.record(cmd, vin, vout, n); });
    CHECK(got(16) == hist);
    SelectOptions se;
    se.leading_barrier = leading;
    auto sel = Select::create(ctx, ValueType::u32, se).value();
    REQUIRE(sel.reserve(n).ok());
    counted[3] = run(leading, [&](VkCommandBuffer cmd) {
      return sel.predicated(cmd, vin, Predicate::mask_equal(1u, 0u), vout, vaux.sub(0, 4), n);
    });
    REQUIRE(static_cast<uint32_t*>(aux.map)[0] == selected.size());
    CHECK(got(selected.size()) == selected);
  }
  for (int i = 0; i < 4; ++i) {
    INFO("call " << i << ": scan, sort, histogram, select");
    CHECK(without[i] == with[i] - 1);
  }
#if defined(VKPRIM_TEST_SPARSE)
  // SpMV's merge path (its temporary storage is reused call to call): y = A x for the
  // tridiagonal A = [-1 2 -1] and x = 1, 2, 3, ...
  {
    const uint32_t rows = 3000, nnz = 3 * rows - 2;
    auto row_ptr = r.make_buffer((rows + 1) * 4), col_idx = r.make_buffer(nnz * 4);
    auto values = r.make_buffer(nnz * 4), x_buf = r.make_buffer(rows * 4), y_buf = r.make_buffer(rows * 4);
    auto* rp = static_cast<uint32_t*>(row_ptr.map);
    auto* ci = static_cast<uint32_t*>(col_idx.map);
    auto* va = static_cast<float*>(values.map);
    uint32_t k = 0;
    for (uint32_t i = 0; i < rows; ++i) {
      rp[i] = k;
      for (int d = -1; d <= 1; ++d)
        if (int64_t(i) + d >= 0 && int64_t(i) + d < rows) ci[k] = i + d, va[k++] = d == 0 ? 2.0f : -1.0f;
      static_cast<float*>(x_buf.map)[i] = float(i + 1);
    }
    rp[rows] = k;
    sparse::CsrView a;
    a.rows = a.cols = rows;
    a.nnz = nnz;
    a.row_ptr = BufferView::of(ctx, row_ptr.buffer, 0, (rows + 1) * 4).value();
    a.col_idx = BufferView::of(ctx, col_idx.buffer, 0, nnz * 4).value();
    a.values = BufferView::of(ctx, values.buffer, 0, nnz * 4).value();
    const auto vx = BufferView::of(ctx, x_buf.buffer, 0, rows * 4).value();
    const auto vy = BufferView::of(ctx, y_buf.buffer, 0, rows * 4).value();
    int spmv_counted[2] = {};
    for (const bool leading : {true, false}) {
      INFO("SpMV, leading_barrier " << leading);
      sparse::SpmvOptions o;
      o.kernel = sparse::SpmvKernel::merge;
      o.leading_barrier = leading;
      auto spmv = sparse::Spmv::create(ctx, ValueType::f32, o).value();
      REQUIRE(spmv.reserve(rows, nnz).ok());
      spmv_counted[leading ? 0 : 1] = run(leading, [&](VkCommandBuffer cmd) { return spmv.record(cmd, a, vx, vy); });
      const auto* y = static_cast<const float*>(y_buf.map);
      CHECK(y[0] == 0.0f);  // 2 * 1 - 2
      CHECK(y[rows / 2] == 0.0f);
      CHECK(y[rows - 1] == float(rows + 1));  // -(rows - 1) + 2 rows
    }
    CHECK(spmv_counted[1] == spmv_counted[0] - 1);
    for (auto* b : {&row_ptr, &col_idx, &values, &x_buf, &y_buf}) r.free_buffer(*b);
  }
#endif
  r.free_buffer(in);
  r.free_buffer(out);
  r.free_buffer(aux);
}

TEST_CASE("adoption refuses vulkanMemoryModel without its device scope", "[adopt]") {
  // The chain as the caller claims it: vkprim's pipelines would use the Device scope, which
  // such a device forbids, so adoption says so before any pipeline exists.
  Renderer r;
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.bufferDeviceAddress = VK_TRUE;
  v12.vulkanMemoryModel = VK_TRUE;
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
  f.features.shaderInt64 = VK_TRUE;
  AdoptInfo ai = r.adopt_info(&f);
  auto ctx = Context::adopt(ai);
  REQUIRE_FALSE(ctx.ok());
  CHECK(ctx.error().code == Errc::unsupported);
  CHECK_THAT(ctx.error().message, Catch::Contains("vulkanMemoryModelDeviceScope"));
  v12.vulkanMemoryModelDeviceScope = VK_TRUE;  // both: accepted
  CHECK(Context::adopt(ai).ok());
}

TEST_CASE("the validation harness reports a synchronization hazard", "[validation]") {
  // Two transfer writes of one buffer with no barrier between them: synchronization validation
  // must report a write-after-write hazard through the messenger. Proves that the harness that
  // guards every other test case is live. (Shader accesses through buffer device addresses are
  // invisible to synchronization validation: docs/conventions.md#validation.)
  Renderer r;
  auto buf = r.make_buffer(4096);
  test::validation_messages().clear();
  VkCommandPool pool;
  VkCommandBuffer cmd = r.begin_commands(pool);
  vkCmdFillBuffer(cmd, buf.buffer, 0, 4096, 1u);
  vkCmdFillBuffer(cmd, buf.buffer, 0, 4096, 2u);
  CHECK_VK(vkEndCommandBuffer(cmd));
  REQUIRE_FALSE(test::validation_messages().empty());
  CHECK_THAT(test::validation_messages().front(), Catch::Contains("SYNC-HAZARD-WRITE-AFTER-WRITE"));
  test::validation_messages().clear();  // expected here: must not fail this test case
  vkDestroyCommandPool(r.device, pool, nullptr);
  r.free_buffer(buf);
}
