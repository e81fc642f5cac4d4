#include "gpu.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

namespace vkprim::test {

std::vector<std::string>& validation_messages() {
  static std::vector<std::string> m;
  return m;
}

namespace {
CreateInfo test_create_info() {
  CreateInfo ci;
  ci.validation = true;
  ci.on_message = [](MessageSeverity, const char* msg) { validation_messages().emplace_back(msg); };
  return ci;
}

Runtime make_runtime(const CreateInfo& ci) {
  auto rt = Runtime::create(ci);
  if (!rt) {
    std::fprintf(stderr, "vkprim tests: no usable Vulkan device: %s\n", rt.error().describe().c_str());
    std::exit(1);
  }
  return std::move(*rt);
}
}  // namespace

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
  if (bytes) {
    auto fill = Fill::create(rt.context()).value();
    rt.submit([&](VkCommandBuffer cmd) { return fill.record(cmd, b.view().sub(0, bytes / 4 * 4), 0xDEADBEEFu); })
        .value();
  }
  return b;
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
