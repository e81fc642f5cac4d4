// Private: the bytes of an HDF5 file (an open file or a memory image) and a read-only HDF5
// file driver over them.
//
// libhdf5 1.10 follows addresses and lengths from the file before checking them against
// the end of the file in several places (its metadata accumulator among them), so a corrupt
// file can make it read outside its buffers. The driver here serves every read from one
// ByteSource, refuses any range that does not lie inside it (wrap-around included), and
// declares no driver features, which keeps the accumulator and the sieve buffer out of the
// path: every read libhdf5 makes is checked here. The reader itself reads through
// ByteSource directly (hdf5_scan.hpp).
#pragma once

#include <vkprim/error.hpp>

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace vkprim::sparse::detail {

// Random access to a file's bytes or to a memory image. Move-only; owns the descriptor.
class ByteSource {
 public:
  // The image must outlive the source.
  static ByteSource memory(std::span<const std::byte> image);
  // Opens `path` for reading; Errc::io_error naming `name` when it cannot be opened.
  static Result<ByteSource> open(const std::filesystem::path& path, const std::string& name);

  ByteSource(ByteSource&& o) noexcept;
  ByteSource& operator=(ByteSource&& o) noexcept;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;
  ~ByteSource();

  uint64_t size() const { return size_; }
  // Copies [offset, offset + n) to `out`; false when the range is not inside the source or
  // the read fails.
  bool read(uint64_t offset, size_t n, void* out) const;

 private:
  ByteSource() = default;
  const std::byte* data_ = nullptr;  // memory image, or null for a file
  int fd_ = -1;
  uint64_t size_ = 0;
};

// Opens `source` read-only through the checked driver (H5I_INVALID_HID on failure). The
// source must outlive the returned file identifier.
hid_t open_hdf5(const ByteSource& source);

}  // namespace vkprim::sparse::detail
