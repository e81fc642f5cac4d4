// Shared helpers for the sparse I/O tests: where the shared test data lives, temporary
// files, and matrix comparisons.
#pragma once

#include <vkprim/sparse/coo.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vkprim::test {

namespace fs = std::filesystem;

// ../shared next to the source tree (VKPRIM_SHARED_DIR); empty when absent.
inline fs::path shared_dir() {
  const fs::path p = VKPRIM_SHARED_DIR;
  return fs::is_directory(p) ? p : fs::path();
}

// Skips the calling test case (with a warning) when the shared data is absent.
#define VKPRIM_REQUIRE_SHARED(sub)                                             \
  const ::vkprim::test::fs::path shared_data = ::vkprim::test::shared_dir();   \
  if (shared_data.empty() || !::vkprim::test::fs::exists(shared_data / sub)) { \
    WARN("shared test data not found (" VKPRIM_SHARED_DIR "/" sub "): skipped"); \
    return;                                                                     \
  }

// A fresh directory under the build tree's temp area, removed at scope exit.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::temp_directory_path() / ("vkprim_sparse_io_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

inline void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// How a child process ended.
struct ChildResult {
  bool exited = false;  // exited normally, with `code`
  int code = -1;
  int signal = 0;       // or was killed by this signal (SIGALRM: ran past its time)
};

// Runs fn() (returning the exit code) in a forked child, under an address-space limit when
// `address_space` is not 0, killed after `seconds`. The child must not use Catch macros.
template <class Fn>
ChildResult run_in_child(Fn&& fn, uint64_t address_space = 0, unsigned seconds = 60) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return {};
  if (pid == 0) {
    ::alarm(seconds);
    if (address_space) {
      const rlimit limit{rlim_t(address_space), rlim_t(address_space)};
      ::setrlimit(RLIMIT_AS, &limit);
    }
    ::_exit(fn());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ChildResult r;
  r.exited = WIFEXITED(status);
  r.code = r.exited ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return r;
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Exact equality: shape, metadata, entry order, and values bit for bit (NaN included).
inline bool identical(const sparse::CooMatrix& a, const sparse::CooMatrix& b) {
  if (a.rows != b.rows || a.cols != b.cols || a.field != b.field || a.symmetry != b.symmetry ||
      a.row_indices != b.row_indices || a.col_indices != b.col_indices ||
      a.integer_values != b.integer_values || a.real_values.size() != b.real_values.size() ||
      a.complex_values.size() != b.complex_values.size())
    return false;
  for (size_t k = 0; k < a.real_values.size(); ++k)
    if (!same_bits(a.real_values[k], b.real_values[k])) return false;
  for (size_t k = 0; k < a.complex_values.size(); ++k)
    if (!same_bits(a.complex_values[k].real(), b.complex_values[k].real()) ||
        !same_bits(a.complex_values[k].imag(), b.complex_values[k].imag()))
      return false;
  return true;
}

// The matrix as {(row, col) -> summed value}, skipping explicit zeros: equal maps mean equal
// matrices whatever the storage order, duplicates or dense/sparse form.
inline std::map<std::pair<int64_t, int64_t>, double> as_map(const sparse::CooMatrix& m) {
  std::map<std::pair<int64_t, int64_t>, double> out;
  for (int64_t k = 0; k < m.nnz(); ++k) out[{m.row_indices[size_t(k)], m.col_indices[size_t(k)]}] += m.value(k);
  for (auto it = out.begin(); it != out.end();) it = it->second == 0 ? out.erase(it) : std::next(it);
  return out;
}

}  // namespace vkprim::test
