#include "core/call_checks.hpp"
#include "gather_scatter/pass.hpp"
#include "gather_scatter/policy.hpp"

#include <vkprim/gather_scatter.hpp>

#include <string>

namespace vkprim {

using namespace detail;

namespace {
Status check_args(const char* call, BufferView src, BufferView idx, BufferView dst, uint64_t n,
                  uint32_t esz, bool gather) {
  if (esz != 4 && esz != 8)
    return make_error(Errc::invalid_argument, std::string(call) + ": element size must be 4 or 8");
  VKPRIM_TRY(check_view(call, "indices", idx, n * 4, 4));
  // The side indexed by i < n holds n elements. The side the indices address may be empty (every
  // index is then out of range); where it is not, it is addressable and aligned.
  const auto indexed = [esz](BufferView v) { return v.size >= esz ? uint64_t(esz) : 0; };
  VKPRIM_TRY(check_view(call, "src", src, gather ? indexed(src) : n * esz, esz));
  VKPRIM_TRY(check_view(call, "dst", dst, gather ? n * esz : indexed(dst), esz));
  return {};
}
}  // namespace

struct Gather::Impl {
  const ContextImpl* ctx;
  Pipeline w1, w2;
};
Gather::Gather(std::unique_ptr<Impl> i) : impl_(std::move(i)) {}
Gather::Gather(Gather&&) noexcept = default;
Gather& Gather::operator=(Gather&&) noexcept = default;
Gather::~Gather() = default;

Result<Gather> Gather::create(const Context& ctx) {
  auto impl = std::make_unique<Impl>();
  impl->ctx = &ctx.impl();
  const auto t = tuning::kGatherScatter;
  auto a = Pipeline::create(ctx.impl(), variants::gather(variants::Words::w1), push_size<GatherPush>(),
                            t.workgroup_size, t.items);
  if (!a) return a.error();
  auto b = Pipeline::create(ctx.impl(), variants::gather(variants::Words::w2), push_size<GatherPush>(),
                            t.workgroup_size, t.items);
  if (!b) return b.error();
  impl->w1 = std::move(*a);
  impl->w2 = std::move(*b);
  return Gather(std::move(impl));
}

Status Gather::record(VkCommandBuffer cmd, BufferView src, BufferView idx, BufferView dst,
                      uint64_t n, uint32_t esz, uint64_t fallback) const {
  VKPRIM_TRY(check_args("Gather", src, idx, dst, n, esz, true));
  const uint64_t src_n = src.size / esz;
  record_chunked<GatherPush>(*impl_->ctx, esz == 4 ? impl_->w1 : impl_->w2, cmd, n,
                             [&](GatherPush& p, uint64_t first, uint64_t) {
                               p.src = src.address;
                               p.idx = idx.address + first * 4;
                               p.dst = dst.address + first * esz;
                               p.src_n = src_n;
                               p.fallback[0] = uint32_t(fallback);
                               p.fallback[1] = uint32_t(fallback >> 32);
                             });
  return {};
}

struct Scatter::Impl {
  const ContextImpl* ctx;
  Pipeline w1, w2;
};
Scatter::Scatter(std::unique_ptr<Impl> i) : impl_(std::move(i)) {}
Scatter::Scatter(Scatter&&) noexcept = default;
Scatter& Scatter::operator=(Scatter&&) noexcept = default;
Scatter::~Scatter() = default;

Result<Scatter> Scatter::create(const Context& ctx) {
  auto impl = std::make_unique<Impl>();
  impl->ctx = &ctx.impl();
  const auto t = tuning::kGatherScatter;
  auto a = Pipeline::create(ctx.impl(), variants::scatter(variants::Words::w1), push_size<ScatterPush>(),
                            t.workgroup_size, t.items);
  if (!a) return a.error();
  auto b = Pipeline::create(ctx.impl(), variants::scatter(variants::Words::w2), push_size<ScatterPush>(),
                            t.workgroup_size, t.items);
  if (!b) return b.error();
  impl->w1 = std::move(*a);
  impl->w2 = std::move(*b);
  return Scatter(std::move(impl));
}

Status Scatter::record(VkCommandBuffer cmd, BufferView src, BufferView idx, BufferView dst,
                       uint64_t n, uint32_t esz) const {
  VKPRIM_TRY(check_args("Scatter", src, idx, dst, n, esz, false));
  const uint64_t dst_n = dst.size / esz;
  record_chunked<ScatterPush>(*impl_->ctx, esz == 4 ? impl_->w1 : impl_->w2, cmd, n,
                              [&](ScatterPush& p, uint64_t first, uint64_t) {
                                p.src = src.address + first * esz;
                                p.idx = idx.address + first * 4;
                                p.dst = dst.address;
                                p.dst_n = dst_n;
                              });
  return {};
}

}  // namespace vkprim
