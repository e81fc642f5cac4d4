// Private: RAII for HDF5 identifiers, and silencing HDF5's error printing while vkprim
// turns failures into vkprim::Error values.
#pragma once

#include <hdf5.h>

#include <utility>

namespace vkprim::sparse::detail {

// Owns one hid_t and closes it with Close (H5Fclose, H5Dclose, ...).
template <herr_t (*Close)(hid_t)>
class H5Handle {
 public:
  H5Handle() = default;
  explicit H5Handle(hid_t id) : id_(id) {}
  H5Handle(H5Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)) {}
  H5Handle& operator=(H5Handle&& o) noexcept {
    std::swap(id_, o.id_);
    return *this;
  }
  H5Handle(const H5Handle&) = delete;
  H5Handle& operator=(const H5Handle&) = delete;
  ~H5Handle() {
    if (id_ >= 0) Close(id_);
  }
  hid_t get() const { return id_; }
  // Closes now and returns Close's result (negative on failure), for callers that must know
  // (a file's final flush happens in H5Fclose).
  herr_t close() { return Close(std::exchange(id_, H5I_INVALID_HID)); }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

using H5File = H5Handle<H5Fclose>;
using H5Dataset = H5Handle<H5Dclose>;
using H5Space = H5Handle<H5Sclose>;
using H5Type = H5Handle<H5Tclose>;
using H5Attribute = H5Handle<H5Aclose>;
using H5Object = H5Handle<H5Oclose>;  // any object opened by address, whatever its type
using H5PropList = H5Handle<H5Pclose>;

// Turns off HDF5's automatic error-stack printing for this scope, restoring it afterwards.
class H5Quiet {
 public:
  H5Quiet() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~H5Quiet() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  H5Quiet(const H5Quiet&) = delete;
  H5Quiet& operator=(const H5Quiet&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

}  // namespace vkprim::sparse::detail
