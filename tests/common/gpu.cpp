#include "gpu.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace vkprim::test {

std::vector<std::string>& validation_messages() {
  static std::vector<std::string> m;
  return m;
}

namespace {
// The subgroup size this run is for (--subgroup-size), 0: any.
uint32_t g_subgroup_size = 0;

CreateInfo test_create_info() {
  CreateInfo ci;
  if (const uint32_t want = g_subgroup_size) {
    // Lavapipe runs compute subgroups of LP_NATIVE_VECTOR_WIDTH / 32 lanes; it reads the
    // variable when the driver loads, which is after this.
    setenv("LP_NATIVE_VECTOR_WIDTH", std::to_string(32 * want).c_str(), 0);
    ci.device_selector = "llvmpipe";
  }
  ci.validation = true;
  ci.on_message = [](MessageSeverity, const char* msg) { validation_messages().emplace_back(msg); };
  return ci;
}

Runtime make_runtime(const CreateInfo& ci) {
  auto rt = Runtime::create(ci);
  const uint32_t want = g_subgroup_size;
  if (!rt && want) {
    std::fprintf(stderr, "vkprim tests: skipped: no lavapipe device for subgroups of %u lanes: %s\n",
                 want, rt.error().describe().c_str());
    std::exit(kSkipExitCode);
  }
  if (!rt) {
    std::fprintf(stderr, "vkprim tests: no usable Vulkan device: %s\n", rt.error().describe().c_str());
    std::exit(1);
  }
  if (want && rt->context().caps().subgroup_size != want) {
    std::fprintf(stderr, "vkprim tests: skipped: the device runs subgroups of %u lanes, not %u\n",
                 rt->context().caps().subgroup_size, want);
    std::exit(kSkipExitCode);
  }
  // A device whose subgroups are known to be broken runs every primitive's shared-memory path:
  // the subgroup paths' test cases are skipped at this width, and the run says why.
  if (const char* defect = rt->context().caps().subgroup_defect())
    std::fprintf(stderr, "vkprim tests: subgroup paths skipped on this device: %s\n", defect);
  return std::move(*rt);
}
}  // namespace

void run_at_subgroup_size(uint32_t lanes) {
  g_subgroup_size = lanes;
  if (lanes) gpu();
}

Runtime& gpu() {
  static Runtime rt = make_runtime(test_create_info());
  return rt;
}

Runtime& gpu_chunked() {
  // A function-local static constructed after the loader and layer are up, so it is destroyed
  // before them at exit.
  static Runtime rt = [] {
    auto ci = test_create_info();
    ci.max_items_per_dispatch = kChunkedDispatchItems;
    return make_runtime(ci);
  }();
  return rt;
}

Buffer poisoned(Runtime& rt, uint64_t bytes) {
  Buffer b = rt.alloc(bytes).value();
  poison(rt, b, bytes);
  return b;
}

Buffer device_count(Runtime& rt, uint64_t n, ValueType type) {
  std::vector<uint32_t> words(4, 0xDEADBEEFu);
  words[0] = uint32_t(n);
  if (type == ValueType::u64) words[1] = uint32_t(n >> 32);
  return rt.upload(words).value();
}

void poison(Runtime& rt, const Buffer& b, uint64_t bytes) {
  if (bytes < 4) return;
  auto fill = Fill::create(rt.context()).value();
  rt.submit([&](VkCommandBuffer cmd) { return fill.record(cmd, b.view().sub(0, bytes / 4 * 4), 0xDEADBEEFu); })
      .value();
}

bool still_poisoned(Runtime& rt, const Buffer& b, uint64_t bytes) {
  const auto words = rt.download<uint32_t>(b.view(), bytes / 4).value();
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] != 0xDEADBEEFu) {
      UNSCOPED_INFO("word " << i << " of " << words.size() << " was written: " << words[i]);
      return false;
    }
  return true;
}

Status record_refused(Runtime& rt, const std::function<Status(VkCommandBuffer)>& call) {
  auto profiler = PassProfiler::create(rt.context(), 1);
  if (!profiler) WARN("no pass profiler (" << profiler.error().describe() << "): dispatches not counted");
  Status got;
  size_t dispatches = 0;
  const Status submitted = rt.submit([&](VkCommandBuffer cmd) -> Status {
    if (profiler) profiler->begin(cmd);
    got = call(cmd);
    if (profiler) {
      dispatches = profiler->recorded_dispatches();
      profiler->end();
    }
    if (got.ok() || dispatches) return make_error(Errc::invalid_argument, "not submitted");
    return {};
  });
  if (got.ok())
    FAIL_CHECK("the call was accepted (" << dispatches << " dispatches recorded, not submitted)");
  else if (dispatches)
    FAIL_CHECK("the call recorded " << dispatches << " dispatches before it refused: " << got.error().describe());
  else
    REQUIRE(submitted.ok());
  return got;
}

bool can_hold(Runtime& rt, uint64_t bytes, uint32_t count) {
  if (bytes > rt.caps().max_buffer_size) {
    WARN("the device's buffers stop at " << rt.caps().max_buffer_size << " bytes; skipped");
    return false;
  }
  std::vector<Buffer> held;
  for (uint32_t i = 0; i < count; ++i) {
    auto b = rt.alloc(bytes);
    if (!b) {
      WARN("no room for " << count << " buffers of " << bytes << " bytes (" << b.error().describe()
                          << "); skipped");
      return false;
    }
    held.push_back(std::move(*b));
  }
  return true;
}

uint32_t hash32(uint64_t i, uint32_t seed) {
  uint64_t x = i * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
  x ^= x >> 30; x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27; x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return uint32_t(x);
}

std::vector<uint64_t> awkward_sizes(uint64_t tile, uint64_t large) {
  return {0, 1, tile - 1, tile, tile + 1, 2 * tile + 1, large};
}

}  // namespace vkprim::test
