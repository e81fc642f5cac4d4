// The device class (include/vkprim/context.hpp, DeviceClass): what the policies in
// engine/<family>/policy.hpp choose by. Computed once per Context from its capabilities and its
// bandwidth class, which is given (CreateInfo / AdoptInfo::bandwidth_class, then the
// environment variable VKPRIM_BANDWIDTH_CLASS), follows from the device type (CPU devices:
// host) or is measured: on a discrete GPU vkprim created, a device-local copy is timed with
// timestamps on the new device's queue before anyone else can submit to it, once per device
// UUID in the process (a later Context on the same device, adopted ones included, reuses the
// figure). Anything else is assumed standard.
#pragma once

#include <vkprim/context.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace vkprim::detail {

struct ContextImpl;
struct InstanceFns;

// The high class starts at this device copy rate (bytes read plus bytes written, per second
// / 1e9). Device copies reach 85 to 90 % of a memory's peak: about 3.0 TB/s on memories of
// 3.35 TB/s and 4.1 to 4.3 TB/s on memories of 4.8 TB/s, which this separates with margin on
// either side.
inline constexpr double kHighBandwidthGBps = 3500.0;

constexpr BandwidthClass bandwidth_class_of(double copy_gbps) {
  return copy_gbps >= kHighBandwidthGBps ? BandwidthClass::high : BandwidthClass::standard;
}

// "host", "standard" or "high" (VKPRIM_BANDWIDTH_CLASS's values); nullopt otherwise.
std::optional<BandwidthClass> parse_bandwidth_class(std::string_view s);

// The class of a device from its capabilities; the bandwidth from `option`, the environment,
// the device type or the process's earlier measurement of the device `uuid` (nullptr: none),
// else assumed standard. invalid_argument for an unknown VKPRIM_BANDWIDTH_CLASS.
Result<DeviceClass> classify(const DeviceCaps& caps, const uint8_t* uuid,
                             std::optional<BandwidthClass> option);

// The class of ctx's device. `may_measure`: vkprim created the device and no one else submits
// to its queue yet, so a discrete GPU with timestamps is measured (measure_copy_gbps) when
// nothing above decides; a failed measurement leaves it assumed standard.
Result<DeviceClass> classify_device(const ContextImpl& ctx, std::optional<BandwidthClass> option,
                                    bool may_measure);

// Times vkprim's copy pass (the 16-byte word copy of engine/elementwise) over a device-local
// buffer of `bytes` (at most 512 MiB; 0: as much of that as an eighth of the device-local heap
// and the allocation limits allow) on queue 0 of ctx.queue_family, after warm-up copies, and
// returns the best of several runs in GB/s read plus written. Submits and waits: only for a
// device whose queue is vkprim's alone.
Result<double> measure_copy_gbps(const ContextImpl& ctx, uint64_t bytes = 0);

// The deviceUUID of ctx's physical device (VkPhysicalDeviceIDProperties).
std::array<uint8_t, VK_UUID_SIZE> device_uuid(const InstanceFns& vki, VkPhysicalDevice pd);

}  // namespace vkprim::detail
