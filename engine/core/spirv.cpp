#include "core/spirv.hpp"

#include <algorithm>
#include <unordered_map>

namespace vkprim::detail {

std::optional<uint32_t> push_block_end(const uint32_t* code, size_t words) {
  constexpr uint32_t kOpTypeInt = 21, kOpTypeFloat = 22, kOpTypeVector = 23, kOpTypeStruct = 30,
                     kOpTypePointer = 32, kOpVariable = 59, kOpMemberDecorate = 72;
  constexpr uint32_t kPushConstant = 9, kOffset = 35;
  std::unordered_map<uint32_t, uint32_t> scalar_bytes, vector_bytes, pointee;
  std::unordered_map<uint32_t, std::vector<uint32_t>> members;
  std::unordered_map<uint64_t, uint32_t> offsets;  // (struct << 32 | member) -> offset
  uint32_t block_pointer = 0;
  for (size_t i = 5; i < words;) {
    const uint32_t count = code[i] >> 16, op = code[i] & 0xFFFFu;
    if (count == 0 || i + count > words) return std::nullopt;
    const uint32_t* w = code + i;
    if ((op == kOpTypeInt || op == kOpTypeFloat) && count >= 3) scalar_bytes[w[1]] = w[2] / 8;
    if (op == kOpTypeVector && count >= 4 && scalar_bytes.count(w[2]))
      vector_bytes[w[1]] = scalar_bytes[w[2]] * w[3];
    if (op == kOpTypeStruct) members[w[1]].assign(w + 2, w + count);
    if (op == kOpTypePointer && count >= 4 && w[2] == kPushConstant) pointee[w[1]] = w[3];
    if (op == kOpVariable && count >= 4 && w[3] == kPushConstant) block_pointer = w[1];
    if (op == kOpMemberDecorate && count >= 5 && w[3] == kOffset)
      offsets[uint64_t(w[1]) << 32 | w[2]] = w[4];
    i += count;
  }
  if (!block_pointer) return 0u;
  const auto block = pointee.find(block_pointer);
  if (block == pointee.end() || !members.count(block->second)) return std::nullopt;
  uint32_t end = 0;
  const auto& types = members[block->second];
  for (uint32_t m = 0; m < types.size(); ++m) {
    const auto at = offsets.find(uint64_t(block->second) << 32 | m);
    const auto s = scalar_bytes.find(types[m]);
    const auto v = vector_bytes.find(types[m]);
    if (at == offsets.end() || (s == scalar_bytes.end() && v == vector_bytes.end())) return std::nullopt;
    end = std::max(end, at->second + (s != scalar_bytes.end() ? s->second : v->second));
  }
  return end;
}


std::vector<uint32_t> with_local_size_id(const uint32_t* code, size_t words) {
  constexpr uint32_t kOpExecutionMode = 16, kOpConstantComposite = 44, kOpSpecConstantComposite = 51,
                     kOpDecorate = 71, kOpExecutionModeId = 331;
  constexpr uint32_t kLocalSize = 17, kLocalSizeId = 38, kBuiltIn = 11, kWorkgroupSize = 25;
  size_t decoration = 0, mode = 0;  // word offsets of the instructions to change
  uint32_t size_id = 0;
  std::unordered_map<uint32_t, size_t> composites;  // result id -> word offset
  for (size_t i = 5; i < words;) {
    const uint32_t count = code[i] >> 16, op = code[i] & 0xFFFFu;
    if (count == 0 || i + count > words) return {};
    const uint32_t* w = code + i;
    if (op == kOpDecorate && count == 4 && w[2] == kBuiltIn && w[3] == kWorkgroupSize)
      decoration = i, size_id = w[1];
    if (op == kOpExecutionMode && count == 6 && w[2] == kLocalSize) mode = i;
    if ((op == kOpConstantComposite || op == kOpSpecConstantComposite) && count == 6) composites[w[2]] = i;
    i += count;
  }
  const auto composite = composites.find(size_id);
  if (!decoration || !mode || composite == composites.end()) return {};
  std::vector<uint32_t> out;
  out.reserve(words - 4);
  out.insert(out.end(), code, code + decoration);
  out.insert(out.end(), code + decoration + 4, code + words);
  // LocalSizeId takes the same six words as LocalSize: the entry point, then the three ids.
  const size_t at = mode < decoration ? mode : mode - 4;
  out[at] = 6u << 16 | kOpExecutionModeId;
  out[at + 2] = kLocalSizeId;
  for (int d = 0; d < 3; ++d) out[at + 3 + d] = code[composite->second + 3 + d];
  return out;
}

}  // namespace vkprim::detail
