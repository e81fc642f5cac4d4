// `vkprim devices`: every Vulkan device, the capabilities vkprim reads from it and its device
// class (what tuning chooses by), with the bandwidth class measured by a Context of vkprim's own
// on each usable device (discrete GPUs; CPU devices are host).
#include "commands.hpp"

#include <vkprim/context.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace vkprim::cli {

namespace {
std::string version_string(uint32_t v) {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                     VK_API_VERSION_PATCH(v));
}

nlohmann::json class_json(const DeviceClass& k) {
  return {{"vendor_id", k.vendor_id},
          {"subgroup_size_range", {k.min_subgroup_size, k.max_subgroup_size}},
          {"usable_subgroup_ops", k.subgroup_ops},
          {"shared_memory", k.shared_memory},
          {"bandwidth", to_string(k.bandwidth)},
          {"bandwidth_source", to_string(k.bandwidth_source)},
          {"copy_gbps", k.copy_gbps}};
}

// The device's class as a Context created on it sees it (the bandwidth measured where vkprim
// measures), else as listed.
DeviceClass class_of(const DeviceListing& d) {
  if (!d.usable) return d.device_class;
  CreateInfo ci;
  ci.device_selector = std::to_string(d.index);
  auto ctx = Context::create(ci);
  return ctx ? ctx->device_class() : d.device_class;
}

nlohmann::json to_json(const DeviceListing& d, const DeviceClass& k) {
  const auto& c = d.caps;
  return {{"index", d.index},
          {"name", c.device_name},
          {"type", c.device_type_string()},
          {"api", version_string(c.api_version)},
          {"driver", c.driver_name + " " + c.driver_info},
          {"usable", d.usable},
          {"why_not", d.why_not},
          {"subgroup_size", c.subgroup_size},
          {"subgroup_size_range", {c.min_subgroup_size, c.max_subgroup_size}},
          {"subgroup_ops", c.subgroup_ops_string()},
          {"subgroup_defect", c.subgroup_defect() ? c.subgroup_defect() : ""},
          {"subgroup_size_control", c.subgroup_size_control},
          {"max_storage_buffer_range", c.max_storage_buffer_range},
          {"max_buffer_size", c.max_buffer_size},
          {"max_shared_memory", c.max_shared_memory},
          {"buffer_device_address", c.buffer_device_address},
          {"shader_int64", c.shader_int64},
          {"shader_int64_atomics", c.shader_int64_atomics},
          {"shader_float64", c.shader_float64},
          {"timestamp_period_ns", c.timestamp_period_ns},
          {"device_class", class_json(k)}};
}
}  // namespace

void register_devices(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("devices", "List Vulkan devices and their capabilities");
  static bool json = false;
  cmd->add_flag("--json", json, "Print JSON instead of text");
  cmd->callback([&action] {
    action = [] {
      auto list = list_devices().value();
      if (json) {
        nlohmann::json arr = nlohmann::json::array();
        for (auto& d : list) arr.push_back(to_json(d, class_of(d)));
        fmt::print("{}\n", arr.dump(2));
        return kExitOk;
      }
      for (auto& d : list) {
        const auto& c = d.caps;
        fmt::print("[{}] {} ({}, Vulkan {}, {} {}){}\n", d.index, c.device_name,
                   c.device_type_string(), version_string(c.api_version), c.driver_name,
                   c.driver_info, d.usable ? "" : "  -- not usable: " + d.why_not);
        fmt::print("    subgroup size {} (range {}-{}{}), ops: {}\n", c.subgroup_size,
                   c.min_subgroup_size, c.max_subgroup_size,
                   c.subgroup_size_control ? ", size control" : "", c.subgroup_ops_string());
        if (const char* defect = c.subgroup_defect())
          fmt::print("    subgroup paths off: {}\n", defect);
        fmt::print("    maxStorageBufferRange {} MiB, max buffer {} MiB, shared memory {} KiB\n",
                   c.max_storage_buffer_range >> 20, c.max_buffer_size >> 20,
                   c.max_shared_memory >> 10);
        fmt::print("    buffer device address {}, int64 {}, int64 atomics {}, float64 {}\n",
                   c.buffer_device_address ? "yes" : "no", c.shader_int64 ? "yes" : "no",
                   c.shader_int64_atomics ? "yes" : "no", c.shader_float64 ? "yes" : "no");
        fmt::print("    timestamps: {}\n",
                   c.timestamp_period_ns > 0 ? fmt::format("{} ns/tick", c.timestamp_period_ns)
                                             : std::string("none"));
        fmt::print("    device class: {}\n", to_string(class_of(d)));
      }
      if (list.empty()) fmt::print("no Vulkan devices\n");
      return kExitOk;
    };
  });
}

}  // namespace vkprim::cli
