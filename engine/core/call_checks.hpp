// Argument checks shared by every primitive's record(): each runs before anything is recorded,
// so a refused call leaves the caller's command buffer untouched. Errors are
// Errc::invalid_argument and name the primitive (`what`) and the argument.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/error.hpp>

#include <optional>
#include <string_view>

namespace vkprim::detail {

// Whether `v` holds `bytes` at an address aligned to `align` (any view holds 0 bytes).
bool view_fits(BufferView v, uint64_t bytes, uint64_t align);

// view_fits as an error: "<what>: <name> holds S bytes, B needed", or "... is not addressable or
// not aligned to its <align>-byte element".
Status check_view(std::string_view what, std::string_view name, BufferView v, uint64_t bytes, uint64_t align);

// The temporary storage of a call: `temp` when the caller passes one, else the plan's own
// (`owned`, made by reserve()). It must be 16-byte aligned and hold `need` bytes; `sizing` names
// the call that tells the caller the size ("temp_bytes(n)").
Result<BufferView> resolve_temp(std::string_view what, BufferView temp, const std::optional<Buffer>& owned,
                                uint64_t need, std::string_view sizing = "temp_bytes(n)");

// Whether the device byte ranges [a, a + a_bytes) and [b, b + b_bytes) overlap (empty ranges
// overlap nothing).
bool overlap(BufferView a, uint64_t a_bytes, BufferView b, uint64_t b_bytes);

}  // namespace vkprim::detail
