// The smallest vkprim program: what a user writes first. Built both ways (add_subdirectory and
// install + find_package) by the consumer ctests.
#include <vkprim/vkprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  auto rt = vkprim::Runtime::create();
  if (!rt) {
    std::fprintf(stderr, "%s\n", rt.error().describe().c_str());
    return 1;
  }
  std::vector<float> x(1000, 2.0f);
  auto bx = rt->upload(x).value();
  auto map = vkprim::Map::create(rt->context(), vkprim::ValueType::f32).value();
  rt->submit([&](VkCommandBuffer cmd) { return map.affine(cmd, bx, bx, 3.0f, 1.0f, x.size()); }).value();
  auto y = rt->download<float>(bx, x.size()).value();
  for (float v : y)
    if (v != 7.0f) return 1;
  std::printf("consumer ok on %s\n", rt->caps().device_name.c_str());
  return 0;
}
