// The workgroup-size declaration of vkprim's pipelines on devices with maintenance4
// (engine/core/spirv.hpp, with_local_size_id): every embedded module that decorates the
// WorkgroupSize built-in is rewritten to LocalSizeId, and spirv-val accepts every rewrite.
#include "core/spirv.hpp"
#include "vkprim_shader_ids.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

using namespace vkprim::detail;

namespace {
// The instructions of `code` with opcode `op` whose words from the second on start with `tail`.
int count_instructions(const uint32_t* code, size_t words, uint32_t op, std::vector<uint32_t> tail) {
  int n = 0;
  for (size_t i = 5; i < words;) {
    const uint32_t count = code[i] >> 16;
    if (count == 0) return -1;  // not a module
    bool match = (code[i] & 0xFFFFu) == op && count >= 1 + tail.size();
    for (size_t t = 0; match && t < tail.size(); ++t)
      match = tail[t] == ~0u || code[i + 1 + t] == tail[t];
    n += match;
    i += count;
  }
  return n;
}
constexpr uint32_t kAny = ~0u;
}  // namespace

TEST_CASE("every module decorating WorkgroupSize gets LocalSizeId, and spirv-val accepts it", "[spirv]") {
  const auto file = std::filesystem::temp_directory_path() /
                    ("vkprim_local_size_id_" + std::to_string(::getpid()) + ".spv");
  // spirv-val is there wherever vkprim is built; a machine that only runs the tests may lack it.
  const bool validate = std::filesystem::exists(VKPRIM_SPIRV_VAL);
  if (!validate) WARN(VKPRIM_SPIRV_VAL " is absent: the rewritten modules are not run through spirv-val");
  int rewritten = 0;
  for (uint32_t id = 0; id < kShaderCount; ++id) {
    const ShaderBlob& blob = shader_blob(Shader(id));
    INFO(blob.name);
    // OpDecorate <id> BuiltIn WorkgroupSize; OpExecutionMode(Id) <entry> LocalSize(Id).
    const int decorated = count_instructions(blob.code, blob.words, 71, {kAny, 11, 25});
    REQUIRE(decorated <= 1);
    const std::vector<uint32_t> out = with_local_size_id(blob.code, blob.words);
    CHECK(out.empty() == (decorated == 0));
    if (out.empty()) continue;
    ++rewritten;
    CHECK(out.size() == blob.words - 4);
    CHECK(count_instructions(out.data(), out.size(), 71, {kAny, 11, 25}) == 0);
    CHECK(count_instructions(out.data(), out.size(), 16, {kAny, 17}) == 0);
    CHECK(count_instructions(out.data(), out.size(), 331, {kAny, 38}) == 1);
    if (!validate) continue;
    {
      std::FILE* f = std::fopen(file.c_str(), "wb");
      REQUIRE(f);
      REQUIRE(std::fwrite(out.data(), 4, out.size(), f) == out.size());
      std::fclose(f);
    }
    const std::string cmd = std::string(VKPRIM_SPIRV_VAL) + " --target-env vulkan1.3 " + file.string();
    CHECK(std::system(cmd.c_str()) == 0);
  }
  std::filesystem::remove(file);
  CHECK(rewritten > 0);
}
