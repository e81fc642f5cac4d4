// The library's write_* calls replace their file only once complete (docs/matrix-files.md,
// "Writing files"): a write that fails (a file-size limit standing in for a full disk, /dev/full)
// returns Errc::io_error naming the file and the reason, and leaves the previous file
// byte-identical with no temporary beside it; a replaced file keeps its permission bits, a
// symbolic link keeps pointing at the file it names.
#include "test_support.hpp"

#include <vkprim/sparse/binsparse.hpp>
#include <vkprim/sparse/matrix_market.hpp>
#include <vkprim/sparse/spy.hpp>

#include <csignal>
#include <functional>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>

namespace {

using namespace vkprim;
using namespace vkprim::sparse;
using namespace vkprim::test;

// Lowers this process's file-size limit (RLIMIT_FSIZE) for its scope, SIGXFSZ ignored, so that
// writing past `bytes` fails with EFBIG as a full disk fails with ENOSPC.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old_) == 0);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lowered = old_;
    lowered.rlim_cur = bytes;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &lowered) == 0);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit old_{};
  void (*old_handler_)(int) = SIG_DFL;
};

CooMatrix matrix(int64_t n) {
  CooMatrix m;
  m.rows = m.cols = n;
  m.field = Field::real;
  for (int64_t i = 0; i < n; ++i) {
    m.row_indices.push_back(i);
    m.col_indices.push_back((i * 7) % n);
    m.real_values.push_back(1.0 / double(i + 3));
  }
  return m;
}

// Names in `dir` starting with '.': temporaries of unfinished writes.
std::vector<std::string> hidden_files(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().front() == '.') out.push_back(e.path().filename().string());
  return out;
}

using Writer = std::function<Status(const CooMatrix&, const fs::path&)>;

struct NamedWriter {
  const char* file;
  Writer write;
};

const std::vector<NamedWriter>& writers() {
  static const std::vector<NamedWriter> w = {
      {"m.mtx", [](const CooMatrix& m, const fs::path& p) { return write_matrix_market(m, p); }},
      {"m.mtx.gz", [](const CooMatrix& m, const fs::path& p) { return write_matrix_market(m, p); }},
      {"m.bsp.h5", [](const CooMatrix& m, const fs::path& p) { return write_binsparse(m, p); }},
      {"m.png", [](const CooMatrix& m, const fs::path& p) { return write_png(spy_image(m, 256), p); }},
  };
  return w;
}

}  // namespace

TEST_CASE("a failed write returns io_error and leaves the previous file and no temporary", "[write]") {
  TempDir tmp("write_fail");
  const CooMatrix small = matrix(3), big = matrix(5000);
  for (const auto& w : writers()) {
    INFO(w.file);
    const fs::path path = tmp.path / w.file;
    REQUIRE(w.write(small, path).ok());
    const std::string previous = read_text(path);
    Status s;
    {
      FileSizeLimit limit(512);
      s = w.write(big, path);
    }
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == Errc::io_error);
    CHECK_THAT(s.error().message, Catch::Contains(path.string()) && Catch::Contains("File too large"));
    CHECK(read_text(path) == previous);
    CHECK(hidden_files(tmp.path).empty());
    // Without the limit the same write replaces the file.
    REQUIRE(w.write(big, path).ok());
    CHECK(read_text(path) != previous);
    CHECK(hidden_files(tmp.path).empty());
  }
}

TEST_CASE("a device is written in place, every failure reported", "[write]") {
  for (const auto& w : writers()) {
    INFO(w.file);
    const Status s = w.write(matrix(100), "/dev/full");
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == Errc::io_error);
    CHECK_THAT(s.error().message, Catch::Contains("/dev/full") && Catch::Contains("No space left on device"));
  }
}

TEST_CASE("writes keep a replaced file's mode, follow links and refuse directories", "[write]") {
  TempDir tmp("write_meta");
  const CooMatrix m = matrix(10);
  const fs::path file = tmp.path / "m.mtx";
  REQUIRE(write_matrix_market(matrix(3), file).ok());
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  REQUIRE(write_matrix_market(m, file).ok());
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);

  const fs::path link = tmp.path / "link.mtx";
  fs::create_symlink("m.mtx", link);
  REQUIRE(write_matrix_market(matrix(4), link).ok());
  CHECK(fs::is_symlink(link));
  CHECK(read_matrix_market(file).value().nnz() == 4);

  const Status dir = write_matrix_market(m, tmp.path);
  REQUIRE_FALSE(dir.ok());
  CHECK(dir.error().code == Errc::io_error);
  CHECK_THAT(dir.error().message, Catch::Contains("Is a directory"));
  const Status missing = write_binsparse(m, tmp.path / "no" / "such" / "m.bsp.h5");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == Errc::io_error);
  CHECK(hidden_files(tmp.path).empty());
}
