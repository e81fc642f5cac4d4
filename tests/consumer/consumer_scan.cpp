// A program that uses the scan alone, against a vkprim built with VKPRIM_PRIMITIVES=scan.
#include <vkprim/vkprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  auto rt = vkprim::Runtime::create();
  if (!rt) {
    std::fprintf(stderr, "%s\n", rt.error().describe().c_str());
    return 1;
  }
  auto scan = vkprim::Scan::create(rt->context(), vkprim::ValueType::u32).value();
  scan.reserve(1000).value();
  std::vector<uint32_t> x(1000);
  for (uint32_t i = 0; i < 1000; ++i) x[i] = i % 5;
  auto in = rt->upload(x).value();
  auto out = rt->alloc(1000 * 4).value();
  rt->submit([&](VkCommandBuffer cmd) { return scan.exclusive(cmd, in, out, 1000); }).value();
  const auto y = rt->download<uint32_t>(out, 1000).value();
  uint32_t sum = 0;
  for (uint32_t i = 0; i < 1000; ++i) {
    if (y[i] != sum) return 1;
    sum += x[i];
  }
  std::printf("scan-only consumer ok\n");
  return 0;
}
