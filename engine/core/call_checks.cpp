#include "core/call_checks.hpp"

#include <string>

namespace vkprim::detail {

bool view_fits(BufferView v, uint64_t bytes, uint64_t align) {
  return v.size >= bytes && (bytes == 0 || (v.address != 0 && v.address % align == 0));
}

Status check_view(std::string_view what, std::string_view name, BufferView v, uint64_t bytes, uint64_t align) {
  const std::string prefix = std::string(what) + ": " + std::string(name);
  if (v.size < bytes)
    return make_error(Errc::invalid_argument, prefix + " holds " + std::to_string(v.size) + " bytes, " +
                                                  std::to_string(bytes) + " needed");
  if (!view_fits(v, bytes, align))
    return make_error(Errc::invalid_argument, prefix + " is not addressable or not aligned to its " +
                                                  std::to_string(align) + "-byte element");
  return {};
}

Result<BufferView> resolve_temp(std::string_view what, BufferView temp, const std::optional<Buffer>& owned,
                                uint64_t need, std::string_view sizing) {
  if (temp.address == 0) {
    if (!owned || owned->size() < need)
      return make_error(Errc::invalid_argument, std::string(what) + ": no temporary storage: pass a buffer of " +
                                                    std::string(sizing) + " = " + std::to_string(need) +
                                                    " bytes or call reserve() first");
    temp = owned->view();
  }
  if (temp.size < need || temp.address % 16)
    return make_error(Errc::invalid_argument, std::string(what) + ": temporary storage must be 16-byte aligned and hold " +
                                                  std::to_string(need) + " bytes");
  return temp;
}

bool overlap(BufferView a, uint64_t a_bytes, BufferView b, uint64_t b_bytes) {
  return a_bytes && b_bytes && a.address < b.address + b_bytes && b.address < a.address + a_bytes;
}

}  // namespace vkprim::detail
