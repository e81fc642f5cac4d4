// The device class and the bandwidth measurement (core/device_class.hpp).
#include "core/device_class.hpp"

#include "core/context_impl.hpp"
#include "elementwise/pass.hpp"
#include "elementwise/policy.hpp"

#include <vkprim/buffer.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace vkprim {

const char* to_string(BandwidthClass c) noexcept {
  switch (c) {
    case BandwidthClass::host: return "host";
    case BandwidthClass::standard: return "standard";
    case BandwidthClass::high: return "high";
  }
  return "?";
}

const char* to_string(BandwidthSource s) noexcept {
  switch (s) {
    case BandwidthSource::device_type: return "device type";
    case BandwidthSource::measured: return "measured";
    case BandwidthSource::option: return "option";
    case BandwidthSource::environment: return "VKPRIM_BANDWIDTH_CLASS";
    case BandwidthSource::assumed: return "assumed";
  }
  return "?";
}

std::string to_string(const DeviceClass& c) {
  DeviceCaps type_only;
  type_only.device_type = c.device_type;
  char vendor[16];
  std::snprintf(vendor, sizeof vendor, "0x%04x", c.vendor_id);
  DeviceCaps ops_only;
  ops_only.subgroup_ops = c.subgroup_ops;
  std::string s =
      std::string("vendor ") + vendor + ", " + type_only.device_type_string() + ", subgroups " +
      std::to_string(c.min_subgroup_size) + "-" + std::to_string(c.max_subgroup_size) + " (" +
      (c.subgroup_ops ? ops_only.subgroup_ops_string() : std::string("no usable operations")) +
      "), shared memory " + std::to_string(c.shared_memory >> 10) + " KiB, bandwidth " +
      to_string(c.bandwidth) + " (" + to_string(c.bandwidth_source);
  if (c.copy_gbps > 0) {
    char rate[32];
    std::snprintf(rate, sizeof rate, ": copy %.0f GB/s", c.copy_gbps);
    s += rate;
  }
  return s + ")";
}

namespace detail {
namespace {

using Uuid = std::array<uint8_t, VK_UUID_SIZE>;

// Device copy rates measured in this process, by device UUID.
struct MeasuredRates {
  std::mutex mutex;
  std::map<Uuid, double> gbps;
};
MeasuredRates& measured_rates() {
  static MeasuredRates r;
  return r;
}

std::optional<double> cached_rate(const uint8_t* uuid) {
  if (!uuid) return std::nullopt;
  Uuid key;
  std::copy(uuid, uuid + VK_UUID_SIZE, key.begin());
  auto& r = measured_rates();
  std::lock_guard lock(r.mutex);
  const auto it = r.gbps.find(key);
  if (it == r.gbps.end()) return std::nullopt;
  return it->second;
}

void cache_rate(const Uuid& uuid, double gbps) {
  auto& r = measured_rates();
  std::lock_guard lock(r.mutex);
  r.gbps[uuid] = gbps;
}

// Owns the Vulkan objects of one measurement.
struct MeasureObjects {
  const ContextImpl& ctx;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  explicit MeasureObjects(const ContextImpl& c) : ctx(c) {}
  ~MeasureObjects() {
    if (fence) ctx.vk.vkDestroyFence(ctx.device, fence, ctx.alloc);
    if (queries) ctx.vk.vkDestroyQueryPool(ctx.device, queries, ctx.alloc);
    if (pool) ctx.vk.vkDestroyCommandPool(ctx.device, pool, ctx.alloc);
  }
};

// Warm-up copies (the clocks rise from idle) and timed copies, each timed alone.
constexpr uint32_t kWarmupCopies = 16, kTimedCopies = 8;
constexpr uint64_t kMeasureBytes = uint64_t(512) << 20;

}  // namespace

std::optional<BandwidthClass> parse_bandwidth_class(std::string_view s) {
  if (s == "host") return BandwidthClass::host;
  if (s == "standard") return BandwidthClass::standard;
  if (s == "high") return BandwidthClass::high;
  return std::nullopt;
}

Uuid device_uuid(const InstanceFns& vki, VkPhysicalDevice pd) {
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &id};
  vki.GetPhysicalDeviceProperties2(pd, &p2);
  Uuid out;
  std::copy(id.deviceUUID, id.deviceUUID + VK_UUID_SIZE, out.begin());
  return out;
}

Result<DeviceClass> classify(const DeviceCaps& caps, const uint8_t* uuid,
                             std::optional<BandwidthClass> option) {
  DeviceClass c;
  c.vendor_id = caps.vendor_id;
  c.device_type = caps.device_type;
  const uint32_t sg = caps.subgroup_size;
  c.min_subgroup_size = caps.min_subgroup_size ? std::min(sg, caps.min_subgroup_size) : sg;
  c.max_subgroup_size = std::max(sg, caps.max_subgroup_size);
  c.subgroup_ops = caps.usable_subgroup_ops();
  c.shared_memory = caps.max_shared_memory;
  if (option) {
    c.bandwidth = *option;
    c.bandwidth_source = BandwidthSource::option;
  } else if (const char* env = std::getenv("VKPRIM_BANDWIDTH_CLASS"); env && *env) {
    const auto parsed = parse_bandwidth_class(env);
    if (!parsed)
      return make_error(Errc::invalid_argument, std::string("VKPRIM_BANDWIDTH_CLASS=") + env +
                                                    ": expected host, standard or high");
    c.bandwidth = *parsed;
    c.bandwidth_source = BandwidthSource::environment;
  } else if (c.cpu()) {
    c.bandwidth = BandwidthClass::host;
    c.bandwidth_source = BandwidthSource::device_type;
  } else if (const auto rate = cached_rate(uuid)) {
    c.bandwidth = bandwidth_class_of(*rate);
    c.bandwidth_source = BandwidthSource::measured;
    c.copy_gbps = *rate;
  } else {
    c.bandwidth = BandwidthClass::standard;
    c.bandwidth_source = BandwidthSource::assumed;
  }
  return c;
}

Result<DeviceClass> classify_device(const ContextImpl& ctx, std::optional<BandwidthClass> option,
                                    bool may_measure) {
  const Uuid uuid = device_uuid(ctx.vki, ctx.physical_device);
  auto c = classify(ctx.caps, uuid.data(), option);
  if (!c) return c;
  const bool measurable = may_measure && c->bandwidth_source == BandwidthSource::assumed &&
                          c->device_type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU &&
                          ctx.caps.timestamp_valid_bits > 0 && ctx.caps.timestamp_period_ns > 0;
  if (!measurable) return c;
  // A measurement that cannot run (memory, say) leaves the device assumed standard: the class
  // tunes, it never decides whether vkprim works.
  if (auto gbps = measure_copy_gbps(ctx)) {
    cache_rate(uuid, *gbps);
    c->bandwidth = bandwidth_class_of(*gbps);
    c->bandwidth_source = BandwidthSource::measured;
    c->copy_gbps = *gbps;
  }
  return c;
}

Result<double> measure_copy_gbps(const ContextImpl& ctx, uint64_t bytes) {
  if (ctx.caps.timestamp_valid_bits == 0 || ctx.caps.timestamp_period_ns <= 0)
    return make_error(Errc::unsupported, "the queue family has no timestamps");
  if (bytes == 0) {
    uint64_t heap = 0;
    for (uint32_t i = 0; i < ctx.memory.memoryHeapCount; ++i)
      if (ctx.memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
        heap = std::max<uint64_t>(heap, ctx.memory.memoryHeaps[i].size);
    const uint64_t buffer_limit =
        ctx.caps.max_buffer_size ? ctx.caps.max_buffer_size : kMeasureBytes;
    bytes = std::min<uint64_t>(
        {kMeasureBytes, heap / 8, ctx.caps.max_memory_allocation_size, buffer_limit});
  }
  bytes = std::min(bytes, kMeasureBytes) / 16 * 16;
  if (bytes == 0) return make_error(Errc::limit_exceeded, "no device-local memory to measure with");
  auto src = create_buffer(ctx, bytes, MemoryUsage::device);
  if (!src) return src.error();
  auto dst = create_buffer(ctx, bytes, MemoryUsage::device);
  if (!dst) return dst.error();
  const auto t = tuning::kCopyVec4;
  auto copy =
      Pipeline::create(ctx, Shader::copy_u32x4, push_size<CopyPush>(), t.workgroup_size, t.items);
  if (!copy) return copy.error();

  MeasureObjects o(ctx);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pci.queueFamilyIndex = ctx.queue_family;
  VKPRIM_VK(ctx.vk.vkCreateCommandPool(ctx.device, &pci, ctx.alloc, &o.pool));
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = o.pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VKPRIM_VK(ctx.vk.vkAllocateCommandBuffers(ctx.device, &ai, &cmd));
  VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qci.queryCount = 2 * kTimedCopies;
  VKPRIM_VK(ctx.vk.vkCreateQueryPool(ctx.device, &qci, ctx.alloc, &o.queries));
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VKPRIM_VK(ctx.vk.vkCreateFence(ctx.device, &fci, ctx.alloc, &o.fence));

  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VKPRIM_VK(ctx.vk.vkBeginCommandBuffer(cmd, &bi));
  ctx.vk.vkCmdResetQueryPool(cmd, o.queries, 0, 2 * kTimedCopies);
  // The source's contents do not matter to the timing; zeroed, it is defined.
  ctx.vk.vkCmdFillBuffer(cmd, src->handle(), 0, VK_WHOLE_SIZE, 0);
  VkMemoryBarrier fill_done{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  fill_done.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  fill_done.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  ctx.vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &fill_done, 0, nullptr, 0,
                              nullptr);
  // One grid-stride dispatch per copy (at most 2^28 16-byte words: the shader's 32-bit indices
  // hold them), whatever CreateInfo::max_items_per_dispatch says.
  const uint64_t words = bytes / 16;
  const auto record_copy = [&] {
    CopyPush p{src->address(), dst->address(), uint32_t(words)};
    copy->dispatch(cmd, &p, grid_groups(ctx, words, copy->tile_items()));
    compute_to_compute_barrier(ctx, cmd);
  };
  for (uint32_t i = 0; i < kWarmupCopies; ++i) record_copy();
  for (uint32_t i = 0; i < kTimedCopies; ++i) {
    // Each stamp waits for the work before it (bottom of pipe after a barrier): the pair
    // brackets one copy.
    ctx.vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, o.queries, 2 * i);
    record_copy();
    ctx.vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, o.queries, 2 * i + 1);
  }
  VKPRIM_VK(ctx.vk.vkEndCommandBuffer(cmd));
  VkQueue queue = VK_NULL_HANDLE;
  ctx.vk.vkGetDeviceQueue(ctx.device, ctx.queue_family, 0, &queue);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  VKPRIM_VK(ctx.vk.vkQueueSubmit(queue, 1, &si, o.fence));
  const VkResult waited =
      ctx.vk.vkWaitForFences(ctx.device, 1, &o.fence, VK_TRUE, uint64_t(60) * 1000000000ull);
  if (waited != VK_SUCCESS) {
    (void)ctx.vk.vkQueueWaitIdle(queue);  // nothing of this measurement outlives it in flight
    return vk_error(waited, "waiting for the bandwidth measurement");
  }
  std::vector<uint64_t> stamps(2 * kTimedCopies);
  VKPRIM_VK(ctx.vk.vkGetQueryPoolResults(ctx.device, o.queries, 0, 2 * kTimedCopies,
                                         stamps.size() * 8, stamps.data(), 8,
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  const uint64_t mask = ctx.caps.timestamp_valid_bits >= 64
                            ? ~uint64_t(0)
                            : (uint64_t(1) << ctx.caps.timestamp_valid_bits) - 1;
  double best_ns = 0;
  for (uint32_t i = 0; i < kTimedCopies; ++i) {
    const uint64_t ticks = (stamps[2 * i + 1] - stamps[2 * i]) & mask;
    const double ns = double(ticks) * ctx.caps.timestamp_period_ns;
    if (ns > 0 && (best_ns == 0 || ns < best_ns)) best_ns = ns;
  }
  if (best_ns <= 0)
    return make_error(Errc::unsupported, "the timestamps did not advance over a copy");
  return 2.0 * double(bytes) / best_ns;  // bytes per ns = GB/s
}

}  // namespace detail
}  // namespace vkprim
