#include <vkprim/error.hpp>

namespace vkprim {

const char* to_string(Errc e) noexcept {
  switch (e) {
    case Errc::ok: return "ok";
    case Errc::invalid_argument: return "invalid argument";
    case Errc::unsupported: return "unsupported";
    case Errc::limit_exceeded: return "limit exceeded";
    case Errc::out_of_device_memory: return "out of device memory";
    case Errc::out_of_host_memory: return "out of host memory";
    case Errc::device_lost: return "device lost";
    case Errc::timeout: return "timeout";
    case Errc::vulkan_error: return "Vulkan error";
    case Errc::io_error: return "I/O error";
    case Errc::parse_error: return "parse error";
  }
  return "unknown error";
}

const char* to_string(VkResult r) noexcept {
  switch (r) {
#define VKPRIM_CASE(x) case x: return #x;
    VKPRIM_CASE(VK_SUCCESS)
    VKPRIM_CASE(VK_NOT_READY)
    VKPRIM_CASE(VK_TIMEOUT)
    VKPRIM_CASE(VK_INCOMPLETE)
    VKPRIM_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VKPRIM_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VKPRIM_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VKPRIM_CASE(VK_ERROR_DEVICE_LOST)
    VKPRIM_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VKPRIM_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VKPRIM_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VKPRIM_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VKPRIM_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VKPRIM_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VKPRIM_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VKPRIM_CASE(VK_ERROR_FRAGMENTED_POOL)
    VKPRIM_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VKPRIM_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VKPRIM_CASE(VK_ERROR_FRAGMENTATION)
    VKPRIM_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VKPRIM_CASE(VK_PIPELINE_COMPILE_REQUIRED)
#undef VKPRIM_CASE
    default: return "VK_ERROR_UNKNOWN";
  }
}

std::string Error::describe() const {
  std::string s = message;
  s += " (";
  s += to_string(code);
  if (vk != VK_SUCCESS) {
    s += ", ";
    s += to_string(vk);
  }
  s += ")";
  return s;
}

Error vk_error(VkResult r, std::string what) {
  Errc code = Errc::vulkan_error;
  switch (r) {
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: code = Errc::out_of_device_memory; break;
    case VK_ERROR_OUT_OF_HOST_MEMORY: code = Errc::out_of_host_memory; break;
    case VK_ERROR_DEVICE_LOST: code = Errc::device_lost; break;
    case VK_TIMEOUT: code = Errc::timeout; break;
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_INCOMPATIBLE_DRIVER: code = Errc::unsupported; break;
    default: break;
  }
  return Error{code, r, std::move(what)};
}

}  // namespace vkprim
