#include "gpu.hpp"
#include "core/device_class.hpp"  // detail: the bandwidth threshold, the measurement

#include <catch2/catch.hpp>
#include <vkprim/testing.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace vkprim;

TEST_CASE("context records the capabilities the primitives need", "[context]") {
  const auto& c = test::gpu().caps();
  CHECK(!c.device_name.empty());
  CHECK(c.api_version >= VK_API_VERSION_1_2);
  CHECK(c.buffer_device_address);
  CHECK(c.shader_int64);
  CHECK(c.subgroup_size >= 1);
  CHECK(c.min_subgroup_size <= c.subgroup_size);
  CHECK(c.subgroup_size <= c.max_subgroup_size);
  CHECK(c.max_storage_buffer_range > 0);
  CHECK(c.max_shared_memory >= 16384);  // Vulkan's guaranteed minimum
  CHECK(c.timestamp_period_ns > 0);
  CHECK(test::gpu().context().owns_device());
}

TEST_CASE("subgroup paths only where every subgroup size lies in [4, 128]", "[context]") {
  DeviceCaps c;
  c.subgroup_ops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT;
  struct R { uint32_t size, lo, hi; bool usable; };
  for (R r : {R{4, 4, 4, true}, R{32, 32, 32, true}, R{32, 8, 64, true}, R{128, 0, 0, true},
              R{2, 2, 2, false}, R{1, 1, 1, false}, R{32, 2, 64, false}, R{64, 32, 256, false}}) {
    INFO("size " << r.size << " range " << r.lo << "-" << r.hi);
    c.subgroup_size = r.size;
    c.min_subgroup_size = r.lo;
    c.max_subgroup_size = r.hi;
    CHECK(c.usable_subgroup_ops() == (r.usable ? c.subgroup_ops : 0u));
  }
}

TEST_CASE("subgroup paths off where a driver defect is known", "[context]") {
  DeviceCaps c;
  c.subgroup_ops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
  struct R { VkDriverId driver; uint32_t size; bool usable; };
  for (R r : {R{VK_DRIVER_ID_MESA_LLVMPIPE, 4, true}, R{VK_DRIVER_ID_MESA_LLVMPIPE, 16, true},
              R{VK_DRIVER_ID_MESA_LLVMPIPE, 32, false}, R{VK_DRIVER_ID_MESA_LLVMPIPE, 64, false},
              R{VK_DRIVER_ID_NVIDIA_PROPRIETARY, 32, true}, R{VK_DRIVER_ID_MESA_RADV, 64, true}}) {
    INFO("driver " << int(r.driver) << " size " << r.size);
    c.driver_id = r.driver;
    c.subgroup_size = c.min_subgroup_size = c.max_subgroup_size = r.size;
    CHECK((c.subgroup_defect() == nullptr) == r.usable);
    CHECK(c.usable_subgroup_ops() == (r.usable ? c.subgroup_ops : 0u));
  }
}

TEST_CASE("vkprim knows whether this device's subgroups are as reported", "[context]") {
  // tests/lavapipe/subgroup_width.c, a driver check without vkprim, runs one workgroup on this
  // device with full subgroups required: it finds the subgroups as reported exactly when
  // DeviceCaps::subgroup_defect() names no defect (at every subgroup size the tests run).
  const auto& c = test::gpu().caps();
  if (!(c.subgroup_ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT)) {
    WARN("the device has no subgroup arithmetic; skipped");
    return;
  }
  // The build's copy, or one named by the environment (a test binary run on another machine).
  const char* probe = std::getenv("VKPRIM_SUBGROUP_WIDTH_PROBE");
  const char* spv = std::getenv("VKPRIM_SUBGROUP_WIDTH_SPV");
  if (!probe) probe = VKPRIM_SUBGROUP_WIDTH_PROBE;
  if (!spv) spv = VKPRIM_SUBGROUP_WIDTH_SPV;
  if (!std::filesystem::exists(probe) || !std::filesystem::exists(spv)) {
    WARN("no driver check at " << probe << "; skipped");
    return;
  }
  const std::string cmd = std::string("'") + probe + "' '" + spv + "' '" + c.device_name + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = pclose(p);
  INFO(out);
  REQUIRE(WIFEXITED(status));
  const int rc = WEXITSTATUS(status);
  REQUIRE((rc == 0 || rc == 1));
  CHECK((rc == 1) == (c.subgroup_defect() != nullptr));
}

TEST_CASE("the device class is computed from the capabilities and a bandwidth class", "[context][device-class]") {
  const Context& ctx = test::gpu().context();
  const DeviceCaps& c = ctx.caps();
  const DeviceClass& d = ctx.device_class();
  CHECK(d.vendor_id == c.vendor_id);
  CHECK(d.device_type == c.device_type);
  CHECK(d.shared_memory == c.max_shared_memory);
  CHECK(d.subgroup_ops == c.usable_subgroup_ops());
  CHECK(d.min_subgroup_size <= c.subgroup_size);
  CHECK(c.subgroup_size <= d.max_subgroup_size);
  CHECK(d.cpu() == (c.device_type == VK_PHYSICAL_DEVICE_TYPE_CPU));
  INFO(to_string(d));
  const char* env = std::getenv("VKPRIM_BANDWIDTH_CLASS");
  if (env && *env) {
    CHECK(d.bandwidth_source == BandwidthSource::environment);
  } else if (d.cpu()) {
    // Lavapipe and other CPU devices: the host class, nothing measured.
    CHECK(d.bandwidth == BandwidthClass::host);
    CHECK(d.bandwidth_source == BandwidthSource::device_type);
    CHECK(d.copy_gbps == 0.0);
  } else if (d.bandwidth_source == BandwidthSource::measured) {
    CHECK(d.copy_gbps > 0.0);
    CHECK(d.bandwidth == detail::bandwidth_class_of(d.copy_gbps));
  } else {
    CHECK(d.bandwidth_source == BandwidthSource::assumed);
    CHECK(d.bandwidth == BandwidthClass::standard);
  }
  if (c.driver_id == VK_DRIVER_ID_MESA_LLVMPIPE && !(env && *env)) CHECK(d.bandwidth == BandwidthClass::host);
  // The listing classifies the device the same way, without measuring.
  const auto listed = list_devices().value();
  for (const auto& l : listed)
    if (l.caps.device_name == c.device_name && d.bandwidth_source != BandwidthSource::option) {
      CHECK(l.device_class.vendor_id == d.vendor_id);
      CHECK(l.device_class.bandwidth == d.bandwidth);
    }
}

TEST_CASE("the bandwidth class: the threshold, the option and the environment's names", "[context][device-class]") {
  // Device copies reach 85 to 90 % of a memory's peak: memories of 3.35 TB/s copy at about
  // 3.0 TB/s (read plus written), memories of 4.8 TB/s at 4.1 to 4.3.
  CHECK(detail::bandwidth_class_of(2900.0) == BandwidthClass::standard);
  CHECK(detail::bandwidth_class_of(3050.0) == BandwidthClass::standard);
  CHECK(detail::bandwidth_class_of(4050.0) == BandwidthClass::high);
  CHECK(detail::bandwidth_class_of(4300.0) == BandwidthClass::high);
  CHECK(detail::bandwidth_class_of(0.0) == BandwidthClass::standard);
  CHECK(detail::parse_bandwidth_class("host") == BandwidthClass::host);
  CHECK(detail::parse_bandwidth_class("standard") == BandwidthClass::standard);
  CHECK(detail::parse_bandwidth_class("high") == BandwidthClass::high);
  CHECK_FALSE(detail::parse_bandwidth_class("High").has_value());
  CHECK_FALSE(detail::parse_bandwidth_class("").has_value());
  CHECK_FALSE(detail::parse_bandwidth_class("fast").has_value());
  // From capabilities alone: CPU devices are host; a GPU not measured in this process is
  // assumed standard; an option wins over both.
  if (!std::getenv("VKPRIM_BANDWIDTH_CLASS")) {
    DeviceCaps caps;
    caps.vendor_id = kVendorNvidia;
    caps.device_type = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    const uint8_t unseen[VK_UUID_SIZE] = {0xFF, 0xFE};
    auto gpu = detail::classify(caps, unseen, std::nullopt).value();
    CHECK(gpu.bandwidth == BandwidthClass::standard);
    CHECK(gpu.bandwidth_source == BandwidthSource::assumed);
    caps.device_type = VK_PHYSICAL_DEVICE_TYPE_CPU;
    auto cpu = detail::classify(caps, nullptr, std::nullopt).value();
    CHECK(cpu.bandwidth == BandwidthClass::host);
    CHECK(cpu.bandwidth_source == BandwidthSource::device_type);
  }
  DeviceCaps caps;
  auto given = detail::classify(caps, nullptr, BandwidthClass::high).value();
  CHECK(given.bandwidth == BandwidthClass::high);
  CHECK(given.bandwidth_source == BandwidthSource::option);
  // CreateInfo::bandwidth_class reaches the Context.
  CreateInfo ci;
  ci.device_selector = test::gpu().caps().device_name;
  ci.bandwidth_class = BandwidthClass::high;
  auto ctx = Context::create(ci).value();
  CHECK(ctx.device_class().bandwidth == BandwidthClass::high);
  CHECK(ctx.device_class().bandwidth_source == BandwidthSource::option);
}

TEST_CASE("the bandwidth measurement times vkprim's copy on its own queue", "[context][device-class]") {
  // Context::create runs it on discrete GPUs; here it runs on any device, on a small buffer, on
  // a Context of its own (whose queue nobody else submits to) under the validation layer.
  CreateInfo ci;
  ci.device_selector = test::gpu().caps().device_name;
  ci.validation = true;
  ci.on_message = [](MessageSeverity, const char* m) { test::validation_messages().emplace_back(m); };
  auto ctx = Context::create(ci).value();
  auto gbps = detail::measure_copy_gbps(ctx.impl(), uint64_t(4) << 20);
  REQUIRE(gbps.ok());
  CHECK(*gbps > 0.0);
}

TEST_CASE("list_devices reports at least the device the tests run on", "[context]") {
  auto list = list_devices().value();
  REQUIRE(!list.empty());
  bool found = false;
  for (auto& d : list) found |= d.usable && d.caps.device_name == test::gpu().caps().device_name;
  CHECK(found);
}

TEST_CASE("a device selector that matches nothing is a clear error", "[context]") {
  CreateInfo ci;
  ci.device_selector = "no-such-device-xyz";
  auto ctx = Context::create(ci);
  REQUIRE_FALSE(ctx.ok());
  CHECK(ctx.error().code == Errc::unsupported);
  CHECK_THAT(ctx.error().message, Catch::Contains("no-such-device-xyz"));

  ci.device_selector = "99";
  auto by_index = Context::create(ci);
  REQUIRE_FALSE(by_index.ok());
  CHECK(by_index.error().code == Errc::invalid_argument);
  // An index past 64 bits is an error like any other index past the last device, not a throw.
  ci.device_selector = "99999999999999999999";
  auto huge = Context::create(ci);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().code == Errc::invalid_argument);
  CHECK_THAT(huge.error().message, Catch::Contains("99999999999999999999"));
}

TEST_CASE("adopting without the feature chain is refused", "[context]") {
  const auto& ctx = test::gpu().context();
  AdoptInfo ai;
  ai.instance = ctx.instance();
  ai.physical_device = ctx.physical_device();
  ai.device = ctx.device();
  ai.queue_family = ctx.queue_family();
  ai.get_instance_proc_addr = ctx.get_instance_proc_addr();
  auto adopted = Context::adopt(ai);
  REQUIRE_FALSE(adopted.ok());
  CHECK(adopted.error().code == Errc::invalid_argument);
}

TEST_CASE("buffers beyond the device's limits fail as errors, not crashes", "[buffer]") {
  auto& rt = test::gpu();
  auto huge = rt.alloc(VkDeviceSize(1) << 62);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().code == Errc::limit_exceeded);
  CHECK_THROWS_AS(huge.value(), Exception);
}

TEST_CASE("a persistent pipeline cache is written and reused", "[context]") {
  // One file per process (the suite's copies at other subgroup sizes run alongside), in the
  // temporary directory: a failed run leaves nothing in the working tree.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("vkprim-test-pipeline-cache-" + std::to_string(getpid()) + ".bin"))
                               .string();
  std::remove(path.c_str());
  {
    CreateInfo ci;
    ci.pipeline_cache_path = path;
    auto ctx = Context::create(ci).value();
    auto copy = Copy::create(ctx).value();
    REQUIRE(ctx.save_pipeline_cache().ok());
  }
  FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  std::fseek(f, 0, SEEK_END);
  CHECK(std::ftell(f) > 0);
  std::fclose(f);
  {
    CreateInfo ci;
    ci.pipeline_cache_path = path;
    auto again = Context::create(ci);
    CHECK(again.ok());
  }  // destroyed first: a context writes its cache file again when it goes
  std::remove(path.c_str());
}

TEST_CASE("pipeline statistics are captured where the device reports them", "[context]") {
  {
    auto plain = Context::create().value();
    auto copy = Copy::create(plain).value();
    CHECK(plain.pipeline_statistics().empty());  // not asked for
  }
  CreateInfo ci;
  ci.pipeline_statistics = true;
  auto ctx = Context::create(ci).value();
  auto copy = Copy::create(ctx).value();
  auto enumerate = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
      ctx.get_instance_proc_addr()(ctx.instance(), "vkEnumerateDeviceExtensionProperties"));
  uint32_t n = 0;
  REQUIRE(enumerate(ctx.physical_device(), nullptr, &n, nullptr) == VK_SUCCESS);
  std::vector<VkExtensionProperties> exts(n);
  REQUIRE(enumerate(ctx.physical_device(), nullptr, &n, exts.data()) == VK_SUCCESS);
  const bool reports = std::any_of(exts.begin(), exts.end(), [](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0;
  });
  const auto stats = ctx.pipeline_statistics();
  CHECK(stats.empty() == !reports);
  for (const auto& ps : stats) {
    CHECK(ps.pipeline.rfind("copy_", 0) == 0);
    CHECK_FALSE(ps.values.empty());
  }
}

TEST_CASE("a pipeline pushes exactly its shader's push-constant block", "[pipeline][push]") {
  auto& rt = test::gpu();
  // copy.comp's block (shaders/elementwise/push.h, CopyPush): two addresses and a u32 count,
  // ending at byte 20; the pass pushes its C++ size, 24.
  REQUIRE(testing::check_copy_pipeline(rt.context(), 24));
  // A range that misses the count, or another block's size, pairs the shader with another
  // pass's push constants.
  CHECK(testing::check_copy_pipeline(rt.context(), 16).error().code == Errc::invalid_argument);
  CHECK(testing::check_copy_pipeline(rt.context(), 48).error().code == Errc::invalid_argument);
  // More than the device has.
  const uint32_t over = rt.caps().max_push_constants + 8;
  CHECK(testing::check_copy_pipeline(rt.context(), over).error().code == Errc::limit_exceeded);
}

TEST_CASE("gpu timer measures recorded work", "[timing]") {
  auto& rt = test::gpu();
  auto timer = GpuTimer::create(rt.context(), 2).value();
  auto buf = rt.alloc(1 << 20).value();
  auto fill = Fill::create(rt.context()).value();
  rt.submit([&](VkCommandBuffer cmd) -> Status {
      timer.reset(cmd);
      timer.stamp(cmd, 0);
      VKPRIM_TRY(fill.record(cmd, buf, 1u));
      timer.stamp(cmd, 1);
      return {};
    }).value();
  auto ms = timer.read_ms(2).value();
  CHECK(ms[0] == 0.0);
  CHECK(ms[1] >= 0.0);
}

TEST_CASE("the pass profiler times each vkprim dispatch by name", "[timing]") {
  auto& rt = test::gpu();
  auto profiler = PassProfiler::create(rt.context(), 2).value();
  auto a = rt.alloc(1 << 20).value();
  auto b = rt.alloc(1 << 20).value();
  auto fill = Fill::create(rt.context()).value();
  auto copy = Copy::create(rt.context()).value();
  rt.submit([&](VkCommandBuffer cmd) -> Status {
      profiler.begin(cmd);
      VKPRIM_TRY(fill.record(cmd, a, 7u));
      full_barrier(rt.context(), cmd);
      VKPRIM_TRY(copy.record(cmd, a, b, 1 << 20));
      profiler.end();
      VKPRIM_TRY(fill.record(cmd, a, 1u));  // after end(): not timed
      return {};
    }).value();
  auto passes = profiler.read().value();
  REQUIRE(passes.size() == 2);
  CHECK(passes[0].name.rfind("fill_", 0) == 0);
  CHECK(passes[1].name.rfind("copy_", 0) == 0);
  CHECK(passes[0].ms >= 0.0);
  CHECK(passes[1].ms >= 0.0);
  CHECK(rt.download<uint32_t>(b, 4).value() == std::vector<uint32_t>(4, 7u));

  // More dispatches than the capacity: an error, not a wrong profile.
  rt.submit([&](VkCommandBuffer cmd) -> Status {
      profiler.begin(cmd);
      for (int i = 0; i < 3; ++i) VKPRIM_TRY(fill.record(cmd, a, 1u));
      profiler.end();
      return {};
    }).value();
  auto over = profiler.read();
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().code == Errc::limit_exceeded);
}

TEST_CASE("an error from the recording callback aborts the submission", "[runtime]") {
  auto& rt = test::gpu();
  auto s = rt.submit([](VkCommandBuffer) -> Status { return make_error(Errc::invalid_argument, "nope"); });
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "nope");
  CHECK(rt.submit([](VkCommandBuffer) -> Status { return {}; }).ok());  // still usable
}

TEST_CASE("validation messages reach vkprim's messenger", "[validation]") {
  // Writing a timestamp into a query that was never reset is a validation error; the message
  // must arrive through the messenger vkprim installs for CreateInfo::on_message.
  auto& rt = test::gpu();
  auto timer = GpuTimer::create(rt.context(), 1).value();
  test::validation_messages().clear();
  (void)rt.submit([&](VkCommandBuffer cmd) -> Status {
    timer.stamp(cmd, 0);
    return {};
  });
  REQUIRE_FALSE(test::validation_messages().empty());
  test::validation_messages().clear();  // expected here
}
