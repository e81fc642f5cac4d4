// Fill, Copy and Map: choosing the variant (vector width), splitting into chunks.
#include "elementwise/pass.hpp"
#include "elementwise/policy.hpp"

#include <vkprim/elementwise.hpp>

#include <array>
#include <string>

namespace vkprim {

using namespace detail;

namespace {
Result<Pipeline> make(const ContextImpl& ctx, Shader s, uint32_t push, tuning::Elementwise t) {
  return Pipeline::create(ctx, PipelineDesc{s, push, t.workgroup_size, t.items, {}, 0});
}

Status check_aligned(const char* what, uint64_t v, uint64_t a) {
  if (v % a)
    return make_error(Errc::invalid_argument, std::string(what) + " (" + std::to_string(v) +
                                                  ") is not a multiple of " + std::to_string(a));
  return {};
}

Status check_fits(const char* call, const char* name, BufferView v, uint64_t bytes) {
  if (bytes > v.size)
    return make_error(Errc::invalid_argument, std::string(call) + ": " + name + " holds " +
                                                  std::to_string(v.size) + " bytes, " +
                                                  std::to_string(bytes) + " needed");
  if (bytes && !v.address)
    return make_error(Errc::invalid_argument, std::string(call) + ": " + name + " has no device address");
  return {};
}
}  // namespace

// ---------------------------------------------------------------------------------------------
struct Fill::Impl {
  const ContextImpl* ctx;
  Pipeline w1, w2, w4;  // uint, uvec2, uvec4 words
};
Fill::Fill(std::unique_ptr<Impl> i) : impl_(std::move(i)) {}
Fill::Fill(Fill&&) noexcept = default;
Fill& Fill::operator=(Fill&&) noexcept = default;
Fill::~Fill() = default;

Result<Fill> Fill::create(const Context& ctx) {
  auto impl = std::make_unique<Impl>();
  impl->ctx = &ctx.impl();
  constexpr uint32_t push = push_size<FillPush>();
  auto a = make(ctx.impl(), Shader::fill_u32, push, tuning::kFill);
  if (!a) return a.error();
  auto b = make(ctx.impl(), Shader::fill_u32x2, push, tuning::kFill);
  if (!b) return b.error();
  auto c = make(ctx.impl(), Shader::fill_u32x4, push, tuning::kFill);
  if (!c) return c.error();
  impl->w1 = std::move(*a);
  impl->w2 = std::move(*b);
  impl->w4 = std::move(*c);
  return Fill(std::move(impl));
}

Status Fill::record(VkCommandBuffer cmd, BufferView dst, uint64_t bits, uint32_t esz) const {
  if (esz != 4 && esz != 8)
    return make_error(Errc::invalid_argument, "Fill: element size must be 4 or 8");
  VKPRIM_TRY(check_aligned("Fill: destination address", dst.address, esz));
  VKPRIM_TRY(check_aligned("Fill: destination size", dst.size, esz));
  VKPRIM_TRY(check_fits("Fill", "destination", dst, dst.size));
  const uint32_t lo = uint32_t(bits), hi = esz == 8 ? uint32_t(bits >> 32) : lo;
  const uint32_t pattern[4] = {lo, hi, lo, hi};
  // Body in 16-byte words when the address allows, the tail in element-sized words.
  uint64_t body = dst.address % 16 == 0 ? dst.size / 16 * 16 : 0;
  auto run = [&](const Pipeline& p, BufferView v, uint32_t word) {
    record_chunked<FillPush>(*impl_->ctx, p, cmd, v.size / word,
                             [&](FillPush& push, uint64_t first, uint64_t) {
                               push.dst = v.address + first * word;
                               std::copy(pattern, pattern + 4, push.value);
                             });
  };
  if (body) run(impl_->w4, dst.sub(0, body), 16);
  if (dst.size > body) run(esz == 8 ? impl_->w2 : impl_->w1, dst.sub(body, dst.size - body), esz);
  return {};
}

// ---------------------------------------------------------------------------------------------
struct Copy::Impl {
  const ContextImpl* ctx;
  Pipeline w1, w4;
};
Copy::Copy(std::unique_ptr<Impl> i) : impl_(std::move(i)) {}
Copy::Copy(Copy&&) noexcept = default;
Copy& Copy::operator=(Copy&&) noexcept = default;
Copy::~Copy() = default;

Result<Copy> Copy::create(const Context& ctx) {
  auto impl = std::make_unique<Impl>();
  impl->ctx = &ctx.impl();
  constexpr uint32_t push = push_size<CopyPush>();
  auto a = make(ctx.impl(), Shader::copy_u32, push, tuning::kCopyScalar);
  if (!a) return a.error();
  auto b = make(ctx.impl(), Shader::copy_u32x4, push, tuning::kCopyVec4);
  if (!b) return b.error();
  impl->w1 = std::move(*a);
  impl->w4 = std::move(*b);
  return Copy(std::move(impl));
}

Status Copy::record(VkCommandBuffer cmd, BufferView src, BufferView dst, uint64_t bytes) const {
  VKPRIM_TRY(check_fits("Copy", "src", src, bytes));
  VKPRIM_TRY(check_fits("Copy", "dst", dst, bytes));
  VKPRIM_TRY(check_aligned("Copy: size", bytes, 4));
  VKPRIM_TRY(check_aligned("Copy: source address", src.address, 4));
  VKPRIM_TRY(check_aligned("Copy: destination address", dst.address, 4));
  const bool vec = src.address % 16 == 0 && dst.address % 16 == 0;
  const uint64_t body = vec ? bytes / 16 * 16 : 0;
  auto run = [&](const Pipeline& p, uint64_t offset, uint64_t len, uint32_t word) {
    record_chunked<CopyPush>(*impl_->ctx, p, cmd, len / word,
                             [&](CopyPush& push, uint64_t first, uint64_t) {
                               push.src = src.address + offset + first * word;
                               push.dst = dst.address + offset + first * word;
                             });
  };
  if (body) run(impl_->w4, 0, body, 16);
  if (bytes > body) run(impl_->w1, body, bytes - body, 4);
  return {};
}

// ---------------------------------------------------------------------------------------------
struct Map::Impl {
  const ContextImpl* ctx;
  ValueType type;
  std::array<Pipeline, 3> ops;  // indexed by Map::Op
};
Map::Map(std::unique_ptr<Impl> i) : impl_(std::move(i)) {}
Map::Map(Map&&) noexcept = default;
Map& Map::operator=(Map&&) noexcept = default;
Map::~Map() = default;
ValueType Map::type() const { return impl_->type; }

Result<Map> Map::create(const Context& ctx, ValueType type) {
  if (type == ValueType::f64 && !ctx.caps().shader_float64)
    return make_error(Errc::unsupported, "Map<f64>: the device has no shaderFloat64");
  // Indexed by Map::Op.
  static constexpr variants::MapOp ops[3] = {variants::MapOp::affine, variants::MapOp::abs,
                                             variants::MapOp::axpby};
  auto impl = std::make_unique<Impl>();
  impl->ctx = &ctx.impl();
  impl->type = type;
  for (int op = 0; op < 3; ++op) {
    auto p = make(ctx.impl(), variants::map(ops[op], variants::value_axis(type)),
                  push_size<MapPush>(), tuning::kMap);
    if (!p) return p.error();
    impl->ops[op] = std::move(*p);
  }
  return Map(std::move(impl));
}

Status Map::record(VkCommandBuffer cmd, Op op, ValueType t, BufferView x, BufferView y,
                   BufferView z, uint64_t a, uint64_t b, uint64_t n) const {
  if (t != impl_->type)
    return make_error(Errc::invalid_argument, std::string("Map: scalar type ") + to_string(t) +
                                                  " differs from the map's type " +
                                                  to_string(impl_->type));
  const uint64_t esz = size_of(t), bytes = n * esz;
  VKPRIM_TRY(check_fits("Map", "x", x, bytes));
  VKPRIM_TRY(check_fits("Map", "z", z, bytes));
  if (op == Op::axpby) VKPRIM_TRY(check_fits("Map", "y", y, bytes));
  VKPRIM_TRY(check_aligned("Map: x address", x.address, esz));
  VKPRIM_TRY(check_aligned("Map: z address", z.address, esz));
  if (op == Op::axpby) VKPRIM_TRY(check_aligned("Map: y address", y.address, esz));
  record_chunked<MapPush>(*impl_->ctx, impl_->ops[int(op)], cmd, n,
                          [&](MapPush& push, uint64_t first, uint64_t) {
                            push.x = x.address + first * esz;
                            push.y = op == Op::axpby ? y.address + first * esz : 0;
                            push.z = z.address + first * esz;
                            push.a = a;
                            push.b = b;
                          });
  return {};
}

const char* to_string(ValueType t) noexcept {
  switch (t) {
    case ValueType::u32: return "u32";
    case ValueType::i32: return "i32";
    case ValueType::f32: return "f32";
    case ValueType::u64: return "u64";
    case ValueType::i64: return "i64";
    case ValueType::f64: return "f64";
  }
  return "?";
}

}  // namespace vkprim
