// renderer_sort: vkprim inside a renderer's own frame. The application owns the instance, the
// device, the buffers and the command buffer; vkprim adopts the device and records a
// back-to-front key-value sort between the application's culling pass and its consumer, with
// the visible count produced and read on the GPU (Count::on_device): nothing returns to the
// host between the passes. Every frame is re-recorded. Two sorts are shown: f32 depth keys,
// and 16-bit depth keys sorted through the bit window [0, 16) (two 8-bit digit passes instead
// of four: what Gaussian-splat renderers do).
//
// The validation layer with synchronization validation runs where it is installed; any
// warning or error it reports fails the example, as does any frame the CPU disagrees with.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <vkprim/vkprim.hpp>

#include "consume.spv.h"
#include "cull.spv.h"
#include "renderer.hpp"

namespace {

constexpr uint32_t kSplats = 100000, kFrames = 8;
uint32_t depth(uint32_t i, uint32_t frame) { return (i * 2654435761u + frame * 40503u) & 0xFFFFFFu; }

}  // namespace

// The frames: vkprim's objects live inside this function, so they are gone before the device.
int run(App& app) {
  // vkprim adopts the application's device: no instance, device or queue of its own.
  vkprim::AdoptInfo adopt;
  adopt.instance = app.instance;
  adopt.physical_device = app.gpu;
  adopt.device = app.device;
  adopt.queue_family = app.family;
  adopt.api_version = VK_API_VERSION_1_3;
  adopt.get_instance_proc_addr = vkGetInstanceProcAddr;
  adopt.enabled_features = &app.features;
  adopt.debug_utils = app.messenger != VK_NULL_HANDLE;  // passes named in RenderDoc and Nsight
  auto ctx = vkprim::Context::adopt(adopt);
  if (!ctx) return std::fprintf(stderr, "adopt: %s\n", ctx.error().describe().c_str()), 1;
  vkprim::SortOptions so;
  so.descending = true;  // back to front
  so.value_bytes = 4;
  auto sort_f32 = vkprim::RadixSort::create(*ctx, vkprim::ValueType::f32, so);
  auto sort_u16 = vkprim::RadixSort::create(*ctx, vkprim::ValueType::u32, so);
  if (!sort_f32 || !sort_u16) return std::fprintf(stderr, "RadixSort::create failed\n"), 1;
  // Temporary storage made once, outside recording, and reused by every frame (frames here
  // run one after another; frames in flight at once need one reservation each).
  if (!sort_f32->reserve(kSplats) || !sort_u16->reserve(kSplats)) return 1;

  AppBuffer keys, values, sorted_keys, sorted_values, count, colours;
  for (AppBuffer* b : {&keys, &values, &sorted_keys, &sorted_values, &colours})
    if (!make_buffer(app, kSplats * 4, *b)) return std::fprintf(stderr, "buffer\n"), 1;
  if (!make_buffer(app, 4, count)) return 1;
  const auto view = [](const AppBuffer& b, VkDeviceSize size) { return vkprim::BufferView{b.buffer, 0, size, b.address}; };

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 40};
  VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 0, nullptr, 1, &range};
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(app.device, &li, nullptr, &layout));
  VkPipeline cull = make_pipeline(app, cull_spv, sizeof(cull_spv), layout);
  VkPipeline consume = make_pipeline(app, consume_spv, sizeof(consume_spv), layout);
  VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                             VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, app.family};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(app.device, &pi, nullptr, &pool));
  VkCommandBufferAllocateInfo ci{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  CHECK(vkAllocateCommandBuffers(app.device, &ci, &cmd));
  VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  CHECK(vkCreateFence(app.device, &fi, nullptr, &fence));

  int wrong = 0;
  for (uint32_t frame = 0; frame < 2 * kFrames; ++frame) {
    const uint32_t key16 = frame >= kFrames;  // the second half: 16-bit keys
    const vkprim::RadixSort& sort = key16 ? *sort_u16 : *sort_f32;
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    CHECK(vkBeginCommandBuffer(cmd, &bi));
    // 1. count = 0 (a transfer), then the culling pass appends keys, indices and the count.
    vkCmdFillBuffer(cmd, count.buffer, 0, 4, 0);
    compute_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    struct { uint64_t keys, values, count; uint32_t n, frame, key16, pad; } cp{keys.address, values.address, count.address, kSplats, frame, key16, 0};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, cull);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof cp, &cp);
    vkCmdDispatch(cmd, (kSplats + 63) / 64, 1, 1);
    // 2. Culling's writes (keys, indices, count) -> the sort's reads: the barrier the caller
    //    owes before a vkprim call (include/vkprim/elementwise.hpp). The sort reads the count
    //    on the GPU, at most kSplats; it binds its own pipelines and push constants.
    compute_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    const auto n = vkprim::Count::on_device(view(count, 4), kSplats);
    auto s = sort.sort_pairs(cmd, view(keys, kSplats * 4), view(values, kSplats * 4), view(sorted_keys, kSplats * 4),
                             view(sorted_values, kSplats * 4), n, {}, 0, key16 ? 16 : 0);
    if (!s) return std::fprintf(stderr, "sort_pairs: %s\n", s.error().describe().c_str()), 1;
    // 3. The sort's writes -> the consumer's reads (the barrier owed after a vkprim call); the
    //    consumer's pipeline and push constants are bound again, since vkprim's replaced them.
    compute_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    struct { uint64_t sorted_values, count, colours; } pp{sorted_values.address, count.address, colours.address};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, consume);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pp, &pp);
    vkCmdDispatch(cmd, (kSplats + 63) / 64, 1, 1);
    // 4. Everything -> the host's reads of the mapped buffers after the fence.
    VkMemoryBarrier hb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &hb, 0, nullptr, 0, nullptr);
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(app.queue, 1, &submit, fence));
    CHECK(vkWaitForFences(app.device, 1, &fence, VK_TRUE, ~0ull));
    CHECK(vkResetFences(app.device, 1, &fence));

    // The CPU's frame: the visible splats, back to front (no ties at 24 bits).
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < kSplats; ++i)
      if ((i * 0x9E3779B9u) >> 29) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return depth(a, frame) > depth(b, frame); });
    bool ok = count.host[0] == order.size();
    for (uint32_t k = 0; ok && k < order.size(); ++k) {
      const uint32_t i = sorted_values.host[k];
      // 16-bit keys tie: any order within a key is right, as long as the keys descend and
      // every index keeps its own key (the set is checked through the keys' sequence).
      const uint32_t want = key16 ? depth(order[k], frame) >> 8 : order[k];
      ok = key16 ? sorted_keys.host[k] == want && (depth(i, frame) >> 8) == want && i < kSplats
                 : i == want;
      ok = ok && colours.host[k] == ((i * 0x85EBCA6Bu) ^ (i >> 13));
    }
    if (!ok) ++wrong;
    std::printf("frame %2u (%s keys): %u visible, %s\n", frame, key16 ? "16-bit" : "f32", count.host[0],
                ok ? "back to front" : "WRONG");
  }

  vkDeviceWaitIdle(app.device);
  vkDestroyFence(app.device, fence, nullptr);
  vkDestroyCommandPool(app.device, pool, nullptr);
  vkDestroyPipeline(app.device, cull, nullptr);
  vkDestroyPipeline(app.device, consume, nullptr);
  vkDestroyPipelineLayout(app.device, layout, nullptr);
  for (AppBuffer* b : {&keys, &values, &sorted_keys, &sorted_values, &colours, &count}) {
    vkDestroyBuffer(app.device, b->buffer, nullptr);
    vkFreeMemory(app.device, b->memory, nullptr);
  }
  return wrong;
}

int main() {
  App app;
  if (create_app(app)) return 1;
  const int wrong = run(app);
  destroy_app(app);
  std::printf("%s (%d wrong frames, %d validation messages)\n", wrong || g_messages ? "FAILED" : "ok", wrong, g_messages);
  return wrong || g_messages ? 1 : 0;
}
