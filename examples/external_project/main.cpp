// external_project: an application outside vkprim's tree (CMakeLists.txt says how to build it
// against an installed vkprim). A reduce by key on the GPU, recorded in one command buffer: the
// (key, value) pairs sorted by key, then each key's values summed (UniqueByKey); checked against
// the CPU, exit 0 when every key and sum matches.
#include <vkprim/vkprim.hpp>

#include <cstdio>
#include <map>
#include <vector>

namespace {
int fail(const char* what, const vkprim::Error& e) {
  std::fprintf(stderr, "external_project: %s: %s\n", what, e.describe().c_str());
  return 1;
}
}  // namespace

int main() {
  auto rt = vkprim::Runtime::create();  // the first usable GPU, or lavapipe
  if (!rt) return fail("Runtime::create", rt.error());
  const vkprim::Context& ctx = rt->context();
  const uint32_t n = 100000;
  std::vector<uint32_t> keys(n), values(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = (i * 2654435761u) % 1000, values[i] = i % 7;

  // The primitives: made once (their pipelines are built here), storage reserved up front.
  vkprim::SortOptions so;
  so.value_bytes = 4;
  auto sort = vkprim::RadixSort::create(ctx, vkprim::ValueType::u32, so);
  auto reduce = vkprim::UniqueByKey::create(ctx, vkprim::ValueType::u32, vkprim::ValueType::u32);
  if (!sort) return fail("RadixSort::create", sort.error());
  if (!reduce) return fail("UniqueByKey::create", reduce.error());
  if (auto s = sort->reserve(n); !s) return fail("reserve", s.error());
  if (auto s = reduce->reserve(n); !s) return fail("reserve", s.error());

  auto in_keys = rt->upload(keys), in_values = rt->upload(values);
  auto sorted_keys = rt->alloc(n * 4), sorted_values = rt->alloc(n * 4);
  auto out_keys = rt->alloc(n * 4), out_sums = rt->alloc(n * 4), count = rt->alloc(4);
  for (auto* b : {&in_keys, &in_values, &sorted_keys, &sorted_values, &out_keys, &out_sums, &count})
    if (!*b) return fail("buffer", b->error());
  auto done = rt->submit([&](VkCommandBuffer cmd) -> vkprim::Status {
    VKPRIM_TRY(sort->sort_pairs(cmd, *in_keys, *in_values, *sorted_keys, *sorted_values, n));
    vkprim::full_barrier(ctx, cmd);  // the sort's writes -> the reduction's reads
    VKPRIM_TRY(reduce->record(cmd, *sorted_keys, *sorted_values, *out_keys, *out_sums, *count, n));
    vkprim::full_barrier(ctx, cmd);  // the GPU's writes -> the downloads' copies
    return {};
  });
  if (!done) return fail("submit", done.error());
  auto k = rt->download<uint32_t>(*count, 1);
  if (!k) return fail("download", k.error());
  auto got_keys = rt->download<uint32_t>(*out_keys, (*k)[0]);
  auto got_sums = rt->download<uint32_t>(*out_sums, (*k)[0]);
  if (!got_keys) return fail("download", got_keys.error());
  if (!got_sums) return fail("download", got_sums.error());

  // The CPU's answer: the keys in order, each with the sum of its values.
  std::map<uint32_t, uint32_t> want;
  for (uint32_t i = 0; i < n; ++i) want[keys[i]] += values[i];
  bool ok = want.size() == (*k)[0];
  uint32_t r = 0;
  for (const auto& [key, sum] : want) {
    if (!ok) break;
    ok = (*got_keys)[r] == key && (*got_sums)[r] == sum;
    ++r;
  }
  std::printf("external_project on %s: %zu keys, %s\n", rt->caps().device_name.c_str(), want.size(),
              ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
