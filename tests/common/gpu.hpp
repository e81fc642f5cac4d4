// The GPU every test runs on: one Runtime per test process, created with the Khronos
// validation layer and synchronization validation; its messages are collected here and the
// listener in test_main.cpp fails the test case during which any arrived.
#pragma once

#include <vkprim/vkprim.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace vkprim::test {

// The shared runtime (validation on). Aborts the test run if no Vulkan device is usable.
Runtime& gpu();

// Runs for one subgroup size (the test binaries' --subgroup-size N, test_main.cpp; the `sgN.`
// copies of the GPU tests, tests/CMakeLists.txt): the tests run on lavapipe with
// LP_NATIVE_VECTOR_WIDTH = 32 N (unless already set), which makes its compute subgroups N lanes
// wide. A run without lavapipe, or whose device does not run subgroups of N lanes, exits with
// kSkipExitCode, which ctest reports as skipped. Called before any test case runs; 0: any size.
inline constexpr int kSkipExitCode = 77;
void run_at_subgroup_size(uint32_t lanes);
// A runtime whose dispatches cover at most kChunkedDispatchItems items, to exercise on small
// data the dispatch splitting that counts past 2^31 items rely on.
inline constexpr uint64_t kChunkedDispatchItems = 1000;
Runtime& gpu_chunked();

// Validation messages recorded since the current test case started.
std::vector<std::string>& validation_messages();

// Allocates a device buffer of `bytes` and fills it with a poison pattern (0xDEADBEEF words),
// so an output the GPU never wrote cannot pass a comparison.
Buffer poisoned(Runtime& rt, uint64_t bytes);
// Fills the first `bytes` of `b` with the poison pattern again (an output buffer reused by the
// next call of a test).
void poison(Runtime& rt, const Buffer& b, uint64_t bytes);

// Whether the first `bytes` of `b` still hold the poison pattern (nothing wrote them).
bool still_poisoned(Runtime& rt, const Buffer& b, uint64_t bytes);

// A refused call: records `call`, which the test expects to be refused, alone into a fresh
// command buffer, with a PassProfiler attached (it sees every dispatch a vkprim object records),
// and submits that buffer, so that the test can then check that its outputs and temporary
// storage still hold what they held. Fails the test case where the call is accepted or records a
// dispatch before it refuses; such a command buffer is not submitted. Returns the call's Status.
Status record_refused(Runtime& rt, const std::function<Status(VkCommandBuffer)>& call);

// A view of `bytes` (at most 2^56) at a made-up device address far above every allocation
// (2^62 + slot * 2^56: views of different slots do not overlap): for refused calls whose
// arguments describe more memory than the device has. Nothing may read or write it.
inline BufferView unbacked(uint64_t bytes, uint32_t slot = 0) {
  return BufferView::from_address((uint64_t(1) << 62) + uint64_t(slot) * (uint64_t(1) << 56), bytes);
}

// Tests of arrays past 4 GiB (element offsets that need more than 32 bits; on a device whose
// maxStorageBufferRange is 2^32 - 1, arrays past it): whether the device can hold `count`
// buffers of `bytes` each. Tries the allocations; otherwise WARNs that the test is skipped (on
// lavapipe, whose buffers stop at 4 GiB, always) and returns false.
bool can_hold(Runtime& rt, uint64_t bytes, uint32_t count = 1);

// A count on the GPU (Count::on_device) holding n as a u32 or a u64 (`type`), in a buffer whose
// other words are poison: a pass that read the wrong width or the wrong word would see them.
Buffer device_count(Runtime& rt, uint64_t n, ValueType type);

// Deterministic pseudo-random words (a hash of the index): the same input on every run.
uint32_t hash32(uint64_t i, uint32_t seed = 0);

template <class T>
std::vector<T> random_values(size_t n, uint32_t seed) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t bits = (uint64_t(hash32(i, seed)) << 32) | hash32(i, seed + 0x51ED);
    if constexpr (std::is_floating_point_v<T>)
      v[i] = T(double(int16_t(uint16_t(bits))) / 16.0);  // signed, fractional, and small enough
                                                          // that a*x + b*y is exact in f32
    else
      std::memcpy(&v[i], &bits, sizeof(T));
  }
  return v;
}

// Sizes either side of the interesting boundaries of an element-wise pass with `tile` items
// per workgroup: 0, 1, tile - 1, tile, tile + 1, 2 tiles + 1, and a few MB.
std::vector<uint64_t> awkward_sizes(uint64_t tile, uint64_t large);

}  // namespace vkprim::test
