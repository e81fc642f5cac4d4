// ByteSource and the checked, read-only HDF5 file driver (see hdf5_source.hpp).
#include "hdf5_source.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vkprim::sparse::detail {

ByteSource ByteSource::memory(std::span<const std::byte> image) {
  ByteSource s;
  s.data_ = image.data();
  s.size_ = image.size();
  return s;
}

Result<ByteSource> ByteSource::open(const std::filesystem::path& path, const std::string& name) {
  ByteSource s;
  s.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (s.fd_ < 0) return make_error(Errc::io_error, name + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(s.fd_, &st) != 0 || !S_ISREG(st.st_mode))
    return make_error(Errc::io_error, name + ": not a regular file");
  s.size_ = uint64_t(st.st_size);
  return s;
}

ByteSource::ByteSource(ByteSource&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), fd_(std::exchange(o.fd_, -1)), size_(std::exchange(o.size_, 0)) {}

ByteSource& ByteSource::operator=(ByteSource&& o) noexcept {
  std::swap(data_, o.data_);
  std::swap(fd_, o.fd_);
  std::swap(size_, o.size_);
  return *this;
}

ByteSource::~ByteSource() {
  if (fd_ >= 0) ::close(fd_);
}

bool ByteSource::read(uint64_t offset, size_t n, void* out) const {
  if (offset > size_ || n > size_ - offset) return false;
  if (data_ != nullptr || n == 0) {
    if (n) std::memcpy(out, data_ + offset, n);
    return true;
  }
  auto* p = static_cast<char*>(out);
  while (n > 0) {
    const ssize_t got = ::pread(fd_, p, n, off_t(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;  // an error, or the file shrank under us
    p += got;
    n -= size_t(got);
    offset += uint64_t(got);
  }
  return true;
}

namespace {

// What H5Pset_driver stores in the file access property list.
struct DriverInfo {
  const ByteSource* source;
};

// The driver's file: HDF5's public part first, as the driver interface requires.
struct DriverFile {
  H5FD_t base;
  const ByteSource* source;
  uint64_t serial;  // unique per open: HDF5 never takes two opens for one shared file
  haddr_t eoa;
};

std::atomic<uint64_t> next_serial{0};

H5FD_t* driver_open(const char*, unsigned flags, hid_t fapl, haddr_t) {
  if (flags & (H5F_ACC_RDWR | H5F_ACC_TRUNC | H5F_ACC_CREAT)) return nullptr;  // read-only driver
  const auto* info = static_cast<const DriverInfo*>(H5Pget_driver_info(fapl));
  if (info == nullptr || info->source == nullptr) return nullptr;
  auto* f = new (std::nothrow) DriverFile{};
  if (f == nullptr) return nullptr;
  f->source = info->source;
  f->serial = next_serial.fetch_add(1);
  f->eoa = 0;
  return &f->base;
}

herr_t driver_close(H5FD_t* file) {
  delete reinterpret_cast<DriverFile*>(file);
  return 0;
}

int driver_cmp(const H5FD_t* a, const H5FD_t* b) {
  const uint64_t x = reinterpret_cast<const DriverFile*>(a)->serial;
  const uint64_t y = reinterpret_cast<const DriverFile*>(b)->serial;
  return x < y ? -1 : x > y ? 1 : 0;
}

// No accumulator, no sieve buffer, no aggregation; the driver info block of the file
// (written for another driver) is ignored.
herr_t driver_query(const H5FD_t*, unsigned long* flags) {
  if (flags) *flags = H5FD_FEAT_IGNORE_DRVRINFO;
  return 0;
}

haddr_t driver_get_eoa(const H5FD_t* file, H5FD_mem_t) { return reinterpret_cast<const DriverFile*>(file)->eoa; }

herr_t driver_set_eoa(H5FD_t* file, H5FD_mem_t, haddr_t addr) {
  reinterpret_cast<DriverFile*>(file)->eoa = addr;
  return 0;
}

haddr_t driver_get_eof(const H5FD_t* file, H5FD_mem_t) {
  return haddr_t(reinterpret_cast<const DriverFile*>(file)->source->size());
}

herr_t driver_read(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size, void* buffer) {
  const auto* f = reinterpret_cast<const DriverFile*>(file);
  return f->source->read(uint64_t(addr), size, buffer) ? 0 : -1;
}

herr_t driver_write(H5FD_t*, H5FD_mem_t, hid_t, haddr_t, size_t, const void*) { return -1; }

// Callbacks not named stay null: a read-only driver needs none of them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const H5FD_class_t kDriverClass = {
#if H5_VERSION_GE(1, 13, 2)
    .version = H5FD_CLASS_VERSION,
    .value = H5FD_class_value_t(0x2f1),  // in the range HDF5 leaves to applications
#endif
    .name = "vkprim_checked",
    .maxaddr = haddr_t(INT64_MAX),
    .fc_degree = H5F_CLOSE_WEAK,
    .fapl_size = sizeof(DriverInfo),
    .open = driver_open,
    .close = driver_close,
    .cmp = driver_cmp,
    .query = driver_query,
    .get_eoa = driver_get_eoa,
    .set_eoa = driver_set_eoa,
    .get_eof = driver_get_eof,
    .read = driver_read,
    .write = driver_write,
    .fl_map = H5FD_FLMAP_DEFAULT,
};
#pragma GCC diagnostic pop

// The driver's identifier, registered on first use and again after an H5close().
hid_t driver_id() {
  static std::mutex mutex;
  static hid_t id = H5I_INVALID_HID;
  std::lock_guard lock(mutex);
  if (id < 0 || H5Iis_valid(id) <= 0) id = H5FDregister(&kDriverClass);
  return id;
}

}  // namespace

hid_t open_hdf5(const ByteSource& source) {
  const hid_t driver = driver_id();
  if (driver < 0) return H5I_INVALID_HID;
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0) return H5I_INVALID_HID;
  const DriverInfo info{&source};
  hid_t file = H5I_INVALID_HID;
  if (H5Pset_driver(fapl, driver, &info) >= 0) file = H5Fopen("vkprim-image", H5F_ACC_RDONLY, fapl);
  H5Pclose(fapl);
  return file;
}

}  // namespace vkprim::sparse::detail
