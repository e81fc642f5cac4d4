// vkprim error policy (docs/conventions.md#errors):
//  - Nothing in vkprim throws on the recording path. Every fallible call returns Status or
//    Result<T>, carrying an Errc, the VkResult that caused it (if any) and a readable message.
//  - Out-of-device-memory, device loss and unsupported features are ordinary errors the caller
//    can handle; vkprim never aborts the process for them.
//  - Result<T>::value() throws vkprim::Exception for callers that prefer exceptions (the tools
//    and the simple runtime users), like std::expected::value().
#pragma once

#include <vulkan/vulkan_core.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace vkprim {

enum class Errc {
  ok = 0,
  invalid_argument,     // the call's contract was broken (null view, misaligned size, ...)
  unsupported,          // the device lacks a feature, type or extension the call needs
  limit_exceeded,       // a size beyond a device limit (allocation size, dispatch size, ...)
  out_of_device_memory, // VK_ERROR_OUT_OF_DEVICE_MEMORY
  out_of_host_memory,   // VK_ERROR_OUT_OF_HOST_MEMORY
  device_lost,          // VK_ERROR_DEVICE_LOST: the device must be recreated
  timeout,              // a wait ran past its limit
  vulkan_error,         // any other failing VkResult
  io_error,             // a file could not be opened, read or written
  parse_error,          // a file's contents are malformed (message names file and line)
};

const char* to_string(Errc e) noexcept;
const char* to_string(VkResult r) noexcept;

struct Error {
  Errc code = Errc::vulkan_error;
  VkResult vk = VK_SUCCESS;  // the VkResult behind the error, VK_SUCCESS if none
  std::string message;

  // "<message> (<errc>[, VK_ERROR_...])"
  std::string describe() const;
};

// Maps a failing VkResult to an Error; `what` names the call that failed.
Error vk_error(VkResult r, std::string what);

class Exception : public std::runtime_error {
 public:
  explicit Exception(Error e) : std::runtime_error(e.describe()), error_(std::move(e)) {}
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

// A value or an Error. Deliberately small: ok(), error(), value(), operator*, operator->.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error e) : v_(std::move(e)) {}

  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }
  const Error& error() const { return std::get<1>(v_); }

  T& value() & { check(); return std::get<0>(v_); }
  const T& value() const& { check(); return std::get<0>(v_); }
  T&& value() && { check(); return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  void check() const {
    if (!ok()) throw Exception(std::get<1>(v_));
  }
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error e) : e_(std::move(e)), ok_(false) {}

  bool ok() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  const Error& error() const { return e_; }
  void value() const {
    if (!ok_) throw Exception(e_);
  }

 private:
  Error e_{};
  bool ok_ = true;
};

using Status = Result<void>;

inline Error make_error(Errc code, std::string message) {
  return Error{code, VK_SUCCESS, std::move(message)};
}

}  // namespace vkprim

// Propagates an error from an expression yielding Status/Result<T>.
#define VKPRIM_TRY(expr)                              \
  do {                                                \
    auto&& vkprim_try_r_ = (expr);                    \
    if (!vkprim_try_r_.ok()) return vkprim_try_r_.error(); \
  } while (0)

// Evaluates a VkResult-returning call and propagates a failure as an Error.
#define VKPRIM_VK(call)                                           \
  do {                                                            \
    VkResult vkprim_vk_r_ = (call);                               \
    if (vkprim_vk_r_ != VK_SUCCESS) return ::vkprim::vk_error(vkprim_vk_r_, #call); \
  } while (0)
