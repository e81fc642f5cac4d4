// Compute pipelines from embedded SPIR-V. Created when a primitive object is created, never
// while recording. Every vkprim pipeline has the same shape: no descriptor sets, one push-
// constant range holding device addresses and sizes, specialization constants 0 (workgroup
// size) and 1 (items per invocation) plus any extra ones the pass declares from id 2 on.
#pragma once

#include "core/context_impl.hpp"
#include "core/shader_axes.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace vkprim::detail {

struct PipelineDesc {
  Shader shader{};                     // the variant: Shader::<id> or variants::<family>(...)
  uint32_t push_bytes = 0;             // the pass's push-constant block's C++ size (push_block.h)
  uint32_t workgroup_size = 256;
  // Items per invocation: specialization constant 1, or the variant's FIXED_ITEMS, which it
  // must then equal (shader_fixed_items()).
  uint32_t items = 1;
  std::vector<uint32_t> extra_spec;   // constant_id 2, 3, ...
  uint32_t required_subgroup_size = 0; // 0: the driver's choice

  // Sets specialization constant `id` (2 or above; shaders/common/spec_ids.h) to `value`; the
  // ids between keep their values (0 where none was set: a pass that declares no such constant
  // ignores its entry).
  void set_spec(uint32_t id, uint32_t value) {
    if (extra_spec.size() < id - 1) extra_spec.resize(id - 1, 0u);
    extra_spec[id - 2] = value;
  }
};

class Pipeline {
 public:
  static Result<Pipeline> create(const ContextImpl& ctx, const PipelineDesc& desc);
  // The common case: no extra specialization constants, the driver's subgroup size.
  static Result<Pipeline> create(const ContextImpl& ctx, Shader shader, uint32_t push_bytes,
                                 uint32_t workgroup_size, uint32_t items);

  Pipeline() = default;
  Pipeline(Pipeline&& o) noexcept;
  Pipeline& operator=(Pipeline&& o) noexcept;
  ~Pipeline();

  // Binds the pipeline, pushes `push` (desc.push_bytes) and dispatches `groups` workgroups.
  void dispatch(VkCommandBuffer cmd, const void* push, uint32_t groups_x, uint32_t groups_y = 1) const;
  void dispatch_indirect(VkCommandBuffer cmd, const void* push, VkBuffer args, VkDeviceSize offset) const;

  uint32_t workgroup_size() const { return wg_; }
  uint32_t items() const { return items_; }
  uint32_t tile_items() const { return wg_ * items_; }
  bool valid() const { return pipeline_ != VK_NULL_HANDLE; }
  // The shader variant's name (ShaderBlob::name, as its variants.cmake declares it), as pass
  // profiles report it.
  const char* name() const { return name_; }

 private:
  void reset();
  // The debug label around a dispatch ("vkprim <name>"), where the context has debug utils.
  void begin_label(VkCommandBuffer cmd) const;
  void end_label(VkCommandBuffer cmd) const;
  const ContextImpl* ctx_ = nullptr;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  uint32_t push_bytes_ = 0;
  uint32_t wg_ = 0;
  uint32_t items_ = 0;
  const char* name_ = "";
  std::string label_;  // "vkprim <name>", made at creation where the context has debug utils
};

// The barrier vkprim places between two of its own passes: compute-shader writes made visible
// to compute-shader reads and writes (and indirect-argument reads) that follow.
void compute_to_compute_barrier(const ContextImpl& ctx, VkCommandBuffer cmd);

// Workgroups for a grid-stride pass over `items` items: enough to cover them, at most the
// device's dispatch limit and never zero.
uint32_t grid_groups(const ContextImpl& ctx, uint64_t items, uint32_t tile_items);

// The dispatches of a pass over `items` items, at most `chunk` each (for grid-stride passes
// ctx.max_items_per_dispatch: their shaders index in 32 bits, and counts past 2^31 run as
// several dispatches): f(first, count, index) for each in order, at least once (count 0 when
// there are no items). f returns a Status; the first error stops the loop.
template <class F>
Status for_each_chunk(uint64_t items, uint64_t chunk, F&& f) {
  uint64_t first = 0, index = 0;
  do {
    VKPRIM_TRY(f(first, std::min(items - first, chunk), index));
    first += chunk;
    ++index;
  } while (first < items);
  return {};
}

// A 2-D grid of at least `groups` workgroups, for passes with one workgroup per tile: x up to
// the device's maxComputeWorkGroupCount[0], y = the rows of x needed (the caller checks y
// against maxComputeWorkGroupCount[1] where it can exceed it). Surplus workgroups exit.
std::pair<uint32_t, uint32_t> grid_2d(const ContextImpl& ctx, uint64_t groups);


}  // namespace vkprim::detail
