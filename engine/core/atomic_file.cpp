#include "core/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vkprim::detail {
namespace {

// Temporaries the signal handler removes. A slot is 0 (free), 1 (being filled) or 2 (holding
// a path); the handler reads only slots at 2, and std::atomic<int> is lock-free, so it is
// async-signal-safe. Paths that do not fit, or temporaries beyond the table, are not removed on
// a signal (they are still removed on every error and by the destructor).
constexpr int kSlots = 16;
struct Slot {
  std::atomic<int> state{0};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];

int register_temp(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(2);
      return i;
    }
  }
  return -1;
}

void unregister_temp(int slot) {
  if (slot >= 0) g_slots[slot].state.store(0);
}

extern "C" void remove_temporaries_and_die(int sig) {
  for (auto& s : g_slots)
    if (s.state.load() == 2) ::unlink(s.path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// `path` with symbolic links followed (at most 40, as the kernel): a link to a file is replaced
// by writing that file, not by turning the link into a file. A dangling link gives the path
// it points to, which is then created.
std::string resolve_links(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) break;
    std::error_code ec;
    const std::filesystem::path link = std::filesystem::read_symlink(path, ec);
    if (ec) break;
    path = link.is_absolute() ? link.string() : (std::filesystem::path(path).parent_path() / link).string();
  }
  return path;
}

// Six characters for a temporary's name, different for every call in this process and
// unlikely to repeat across processes (pid, time and a counter mixed by splitmix64).
std::string random_suffix() {
  static std::atomic<uint64_t> counter{0};
  uint64_t x = (uint64_t(::getpid()) << 32) ^ counter.fetch_add(1) ^
               uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string s(6, ' ');
  for (char& c : s) {
    c = kChars[x % 62];
    x /= 62;
  }
  return s;
}

}  // namespace

void (*test_hooks::before_commit)() = nullptr;

Error file_error(std::string_view name, std::string_view what, int err) {
  std::string m = std::string(name) + ": " + std::string(what);
  if (err != 0) m += std::string(" (") + std::strerror(err) + ")";
  return make_error(Errc::io_error, std::move(m));
}

Result<AtomicFile> AtomicFile::create(const std::filesystem::path& target) {
  AtomicFile f;
  f.name_ = target.string();
  f.target_ = resolve_links(f.name_);
  struct stat st;
  bool keep_mode = false;
  if (::stat(f.target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return file_error(f.name_, "cannot write", EISDIR);
    if (!S_ISREG(st.st_mode)) {  // a device or FIFO: written in place
      f.direct_ = true;
      f.fd_ = ::open(f.target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (f.fd_ < 0) return file_error(f.name_, "cannot open for writing", errno);
      return f;
    }
    keep_mode = true;
  } else if (errno != ENOENT) {
    return file_error(f.name_, "cannot write", errno);
  }
  const std::filesystem::path resolved(f.target_);
  const std::filesystem::path dir = resolved.has_parent_path() ? resolved.parent_path() : ".";
  const std::string base = resolved.filename().string().substr(0, 200);  // room for the suffix
  for (int attempt = 0; attempt < 100; ++attempt) {
    f.temp_ = (dir / ("." + base + "." + random_suffix())).string();
    // 0666 less the umask, as any newly created file.
    f.fd_ = ::open(f.temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
    if (f.fd_ >= 0 || errno != EEXIST) break;
  }
  if (f.fd_ < 0) {
    const int err = errno;
    f.temp_.clear();
    return file_error(f.name_, "cannot create a temporary file in '" + dir.string() + "'", err);
  }
  f.slot_ = register_temp(f.temp_);
  if (keep_mode && ::fchmod(f.fd_, st.st_mode & 07777) != 0)
    return f.fail("cannot set the permissions of the temporary file", errno).error();
  return f;
}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : name_(std::move(o.name_)),
      target_(std::move(o.target_)),
      temp_(std::exchange(o.temp_, {})),
      stream_(std::exchange(o.stream_, nullptr)),
      fd_(std::exchange(o.fd_, -1)),
      slot_(std::exchange(o.slot_, -1)),
      direct_(o.direct_) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& o) noexcept {
  if (this != &o) {
    discard();
    name_ = std::move(o.name_);
    target_ = std::move(o.target_);
    temp_ = std::exchange(o.temp_, {});
    stream_ = std::exchange(o.stream_, nullptr);
    fd_ = std::exchange(o.fd_, -1);
    slot_ = std::exchange(o.slot_, -1);
    direct_ = o.direct_;
  }
  return *this;
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() noexcept {
  if (stream_) std::fclose(stream_);
  else if (fd_ >= 0) ::close(fd_);
  stream_ = nullptr;
  fd_ = -1;
  if (!direct_ && !temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  unregister_temp(slot_);
  slot_ = -1;
}

Status AtomicFile::fail(const std::string& what, int err) {
  Error e = file_error(name_, what, err);
  discard();
  return e;
}

Result<std::FILE*> AtomicFile::stream() {
  if (!stream_) {
    if (fd_ < 0) return file_error(name_, "already closed", 0);
    stream_ = ::fdopen(fd_, "wb");
    if (!stream_) return file_error(name_, "cannot open a stream", errno);
  }
  return stream_;
}

Status AtomicFile::commit() {
  if (fd_ < 0) return file_error(name_, "already closed", 0);
  if (test_hooks::before_commit) test_hooks::before_commit();
  if (stream_) {
    if (std::fflush(stream_) != 0) return fail("write failed", errno);
    if (std::ferror(stream_)) return fail("write failed", 0);
  }
  if (!direct_ && ::fsync(fd_) != 0) return fail("fsync failed", errno);
  const int closed = stream_ ? std::fclose(stream_) : ::close(fd_);
  const int close_err = errno;
  stream_ = nullptr;
  fd_ = -1;
  if (closed != 0) return fail("close failed", close_err);
  if (direct_) return {};
  if (std::rename(temp_.c_str(), target_.c_str()) != 0)
    return fail("cannot replace it with the written file", errno);
  temp_.clear();
  unregister_temp(slot_);
  slot_ = -1;
  // The rename is durable only once the directory is synced; file systems that cannot sync a
  // directory (EINVAL) need no more.
  const std::filesystem::path dir = std::filesystem::path(target_).has_parent_path()
                                        ? std::filesystem::path(target_).parent_path()
                                        : std::filesystem::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return file_error(name_, "written, but its directory cannot be opened to sync it", errno);
  const int synced = ::fsync(dfd);
  const int sync_err = errno;
  ::close(dfd);
  if (synced != 0 && sync_err != EINVAL) return file_error(name_, "written, but syncing its directory failed", sync_err);
  return {};
}

Status write_file_atomically(const std::filesystem::path& target, std::string_view contents) {
  auto file = AtomicFile::create(target);
  if (!file) return file.error();
  auto out = file->stream();
  if (!out) return out.error();
  if (std::fwrite(contents.data(), 1, contents.size(), *out) != contents.size())
    return file_error(file->name(), "write failed", errno);
  return file->commit();
}

void remove_temporaries_on_signals() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace vkprim::detail
