#include "core/pipeline.hpp"

#include "core/spirv.hpp"

#include <vkprim/testing.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace vkprim::detail {

namespace {

// Appends the driver's statistics of `pipeline` to ctx.statistics (best effort: a query that
// fails records nothing; statistics never decide anything).
void capture_statistics(const ContextImpl& ctx, VkPipeline pipeline, const std::string& label) {
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t n = 0;
  if (ctx.vk.vkGetPipelineExecutablePropertiesKHR(ctx.device, &info, &n, nullptr) != VK_SUCCESS) return;
  std::vector<VkPipelineExecutablePropertiesKHR> props(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  if (ctx.vk.vkGetPipelineExecutablePropertiesKHR(ctx.device, &info, &n, props.data()) != VK_SUCCESS) return;
  std::vector<PipelineStatistics> found;
  for (uint32_t e = 0; e < n; ++e) {
    VkPipelineExecutableInfoKHR ei{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    ei.pipeline = pipeline;
    ei.executableIndex = e;
    uint32_t m = 0;
    if (ctx.vk.vkGetPipelineExecutableStatisticsKHR(ctx.device, &ei, &m, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(m, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (ctx.vk.vkGetPipelineExecutableStatisticsKHR(ctx.device, &ei, &m, stats.data()) != VK_SUCCESS) continue;
    PipelineStatistics ps;
    ps.pipeline = label;
    ps.executable = props[e].name;
    for (uint32_t i = 0; i < m; ++i) {
      const auto& st = stats[i];
      double v = 0.0;
      switch (st.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: v = st.value.b32 ? 1.0 : 0.0; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: v = double(st.value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: v = double(st.value.u64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: v = st.value.f64; break;
        default: continue;
      }
      ps.values.push_back({st.name, st.description, v});
    }
    found.push_back(std::move(ps));
  }
  std::lock_guard lock(ctx.statistics_mutex);
  ctx.statistics.insert(ctx.statistics.end(), found.begin(), found.end());
}

}  // namespace

Result<Pipeline> Pipeline::create(const ContextImpl& ctx, const PipelineDesc& desc) {
  const ShaderBlob& blob = shader_blob(desc.shader);
  // A variant that compiles its items in runs only with the plan's tile built from them
  // (the policies static_assert the same for the values they fix at build time).
  if (blob.fixed_items && desc.items != blob.fixed_items)
    return make_error(Errc::invalid_argument, std::string(blob.name) + ": compiled for " +
                                                  std::to_string(blob.fixed_items) +
                                                  " items per invocation, created with " +
                                                  std::to_string(desc.items));
  if (desc.push_bytes > ctx.caps.max_push_constants)
    return make_error(Errc::limit_exceeded, std::string(blob.name) + ": " + std::to_string(desc.push_bytes) +
                                                " bytes of push constants exceed the device's " +
                                                std::to_string(ctx.caps.max_push_constants));
  // The pushed range is the C++ mirror's size (shaders/common/push_block.h): the compiled block's
  // end rounded up to 8 bytes. Anything else pairs the shader with another pass's block.
  if (const auto end = push_block_end(blob.code, blob.words);
      end && (desc.push_bytes < *end || desc.push_bytes > (*end + 7) / 8 * 8))
    return make_error(Errc::invalid_argument, std::string(blob.name) + ": its push-constant block ends at byte " +
                                                  std::to_string(*end) + ", the pass pushes " +
                                                  std::to_string(desc.push_bytes));
  if (desc.workgroup_size > ctx.caps.max_workgroup_invocations)
    return make_error(Errc::limit_exceeded, std::string(blob.name) + ": workgroup size " +
                                                std::to_string(desc.workgroup_size) +
                                                " exceeds the device limit");
  if (desc.required_subgroup_size && !ctx.caps.subgroup_size_control)
    return make_error(Errc::unsupported, std::string(blob.name) + ": subgroup size control is not enabled");
  // Subgroup-layer variants lay their tiles out by gl_SubgroupID and gl_SubgroupSize, which
  // holds only when every subgroup is full: required wherever the device can promise it, which
  // it can for workgroups of a multiple of the largest subgroup size it may run.
  if (blob.subgroup && ctx.caps.compute_full_subgroups) {
    const uint32_t unit = desc.required_subgroup_size
                              ? desc.required_subgroup_size
                              : std::max(ctx.caps.subgroup_size, ctx.caps.max_subgroup_size);
    if (unit == 0 || desc.workgroup_size % unit != 0)
      return make_error(Errc::unsupported, std::string(blob.name) + ": workgroup size " +
                                               std::to_string(desc.workgroup_size) +
                                               " is not a multiple of the subgroup size " +
                                               std::to_string(unit) + ", so its subgroups cannot all be full");
  }
  Pipeline p;
  p.ctx_ = &ctx;
  p.push_bytes_ = desc.push_bytes;
  p.wg_ = desc.workgroup_size;
  p.items_ = desc.items;
  p.name_ = blob.name;

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, desc.push_bytes};
  VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  lci.pushConstantRangeCount = desc.push_bytes ? 1 : 0;
  lci.pPushConstantRanges = &range;
  VKPRIM_VK(ctx.vk.vkCreatePipelineLayout(ctx.device, &lci, ctx.alloc, &p.layout_));

  // With maintenance4 the workgroup size goes by LocalSizeId, which deprecates the WorkgroupSize
  // built-in the compiled modules decorate (they target devices without it too).
  const std::vector<uint32_t> rewritten =
      ctx.caps.maintenance4 ? with_local_size_id(blob.code, blob.words) : std::vector<uint32_t>{};
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = (rewritten.empty() ? blob.words : rewritten.size()) * 4;
  mci.pCode = rewritten.empty() ? blob.code : rewritten.data();
  VkShaderModule module = VK_NULL_HANDLE;
  VKPRIM_VK(ctx.vk.vkCreateShaderModule(ctx.device, &mci, ctx.alloc, &module));

  std::vector<uint32_t> values{desc.workgroup_size, desc.items};
  values.insert(values.end(), desc.extra_spec.begin(), desc.extra_spec.end());
  std::vector<VkSpecializationMapEntry> entries(values.size());
  for (uint32_t i = 0; i < values.size(); ++i) entries[i] = {i, i * 4u, 4u};
  VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), values.size() * 4,
                            values.data()};

  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo sgsize{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  VkComputePipelineCreateInfo cci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  cci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cci.stage.module = module;
  cci.stage.pName = "main";
  cci.stage.pSpecializationInfo = &spec;
  if (blob.subgroup && ctx.caps.compute_full_subgroups)
    cci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  if (desc.required_subgroup_size) {
    sgsize.requiredSubgroupSize = desc.required_subgroup_size;
    cci.stage.pNext = &sgsize;
  }
  cci.layout = p.layout_;
  if (ctx.capture_statistics) cci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkResult r = ctx.vk.vkCreateComputePipelines(ctx.device, ctx.pipeline_cache, 1, &cci,
                                               ctx.alloc, &p.pipeline_);
  ctx.vk.vkDestroyShaderModule(ctx.device, module, ctx.alloc);
  if (r != VK_SUCCESS) return vk_error(r, std::string("creating pipeline ") + blob.name);
  const std::string shape = " (" + std::to_string(desc.workgroup_size) + " x " + std::to_string(desc.items) + ")";
  if (ctx.capture_statistics) capture_statistics(ctx, p.pipeline_, std::string(blob.name) + shape);
  if (ctx.debug.on()) {
    p.label_ = "vkprim " + std::string(blob.name);
    const std::string name = p.label_ + shape;
    VkDebugUtilsObjectNameInfoEXT ni{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    ni.objectType = VK_OBJECT_TYPE_PIPELINE;
    ni.objectHandle = uint64_t(p.pipeline_);
    ni.pObjectName = name.c_str();
    ctx.debug.set_name(ctx.device, &ni);  // a name is a debugging aid: its result is not an error
  }
  return p;
}

Result<Pipeline> Pipeline::create(const ContextImpl& ctx, Shader shader, uint32_t push_bytes,
                                  uint32_t workgroup_size, uint32_t items) {
  PipelineDesc d;
  d.shader = shader;
  d.push_bytes = push_bytes;
  d.workgroup_size = workgroup_size;
  d.items = items;
  return create(ctx, d);
}

Pipeline::Pipeline(Pipeline&& o) noexcept
    : ctx_(std::exchange(o.ctx_, nullptr)),
      layout_(std::exchange(o.layout_, VK_NULL_HANDLE)),
      pipeline_(std::exchange(o.pipeline_, VK_NULL_HANDLE)),
      push_bytes_(o.push_bytes_),
      wg_(o.wg_),
      items_(o.items_),
      name_(o.name_),
      label_(std::move(o.label_)) {}

Pipeline& Pipeline::operator=(Pipeline&& o) noexcept {
  if (this != &o) {
    reset();
    ctx_ = std::exchange(o.ctx_, nullptr);
    layout_ = std::exchange(o.layout_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(o.pipeline_, VK_NULL_HANDLE);
    push_bytes_ = o.push_bytes_;
    wg_ = o.wg_;
    items_ = o.items_;
    name_ = o.name_;
    label_ = std::move(o.label_);
  }
  return *this;
}

Pipeline::~Pipeline() { reset(); }

void Pipeline::reset() {
  if (!ctx_) return;
  if (pipeline_) ctx_->vk.vkDestroyPipeline(ctx_->device, pipeline_, ctx_->alloc);
  if (layout_) ctx_->vk.vkDestroyPipelineLayout(ctx_->device, layout_, ctx_->alloc);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  ctx_ = nullptr;
}

void Pipeline::begin_label(VkCommandBuffer cmd) const {
  if (!ctx_->debug.on()) return;
  VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
  label.pLabelName = label_.c_str();
  ctx_->debug.begin_label(cmd, &label);
}

void Pipeline::end_label(VkCommandBuffer cmd) const {
  if (ctx_->debug.on()) ctx_->debug.end_label(cmd);
}

void Pipeline::dispatch(VkCommandBuffer cmd, const void* push, uint32_t gx, uint32_t gy) const {
  begin_label(cmd);
  ctx_->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  if (push_bytes_)
    ctx_->vk.vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes_, push);
  ctx_->vk.vkCmdDispatch(cmd, gx, gy, 1);
  end_label(cmd);
  if (ctx_->on_dispatch) ctx_->on_dispatch(cmd, name_);
}

void Pipeline::dispatch_indirect(VkCommandBuffer cmd, const void* push, VkBuffer args,
                                 VkDeviceSize offset) const {
  begin_label(cmd);
  ctx_->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  if (push_bytes_)
    ctx_->vk.vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes_, push);
  ctx_->vk.vkCmdDispatchIndirect(cmd, args, offset);
  end_label(cmd);
  if (ctx_->on_dispatch) ctx_->on_dispatch(cmd, name_);
}

void compute_to_compute_barrier(const ContextImpl& ctx, VkCommandBuffer cmd) {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  mb.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
  ctx.vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                                  VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                              0, 1, &mb, 0, nullptr, 0, nullptr);
}

uint32_t grid_groups(const ContextImpl& ctx, uint64_t items, uint32_t tile_items) {
  uint64_t tiles = (items + tile_items - 1) / tile_items;
  uint64_t cap = std::min<uint64_t>(ctx.caps.max_workgroup_count[0], 65535);
  return uint32_t(std::clamp<uint64_t>(tiles, 1, cap));
}

std::pair<uint32_t, uint32_t> grid_2d(const ContextImpl& ctx, uint64_t groups) {
  const uint64_t x = std::min<uint64_t>(groups, ctx.caps.max_workgroup_count[0]);
  return {uint32_t(x), uint32_t(x ? (groups + x - 1) / x : 0)};
}

}  // namespace vkprim::detail

vkprim::Status vkprim::testing::check_copy_pipeline(const Context& ctx, uint32_t push_bytes) {
  detail::PipelineDesc d;
  d.shader = detail::Shader::copy_u32;
  d.push_bytes = push_bytes;
  d.workgroup_size = 64;
  d.items = 1;
  auto p = detail::Pipeline::create(ctx.impl(), d);
  if (!p) return p.error();
  return {};
}
