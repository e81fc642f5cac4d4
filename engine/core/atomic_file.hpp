// Private: file output that replaces its target only once complete (the sparse writers and the
// command line's --json files use it; docs/matrix-files.md states the guarantees).
//
// AtomicFile::create() opens a new file `.<name>.XXXXXX` beside the target (symbolic links
// followed to the file they name), created with mode 0666 minus the umask, or with the
// permission bits of the file it will replace. commit() flushes, fsyncs and closes it, checking
// each step, and renames it over the target; until then the target is untouched, and a failure
// anywhere (or destruction without commit) removes the temporary. An existing target that is not
// a regular file (a device such as /dev/full, a FIFO) cannot be renamed over: it is opened and
// written directly, with every write, flush and close still checked.
//
// Test hook: commit() calls test_hooks::before_commit, where a program has set it, before its
// flush (the command line's test build stops itself there, so that a test can kill it part-way
// deterministically: tools/vkprim/test_hooks.cpp). It is null in every other program.
#pragma once

#include <vkprim/error.hpp>

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace vkprim::detail {

class AtomicFile {
 public:
  // Errc::io_error (naming the target and the system's reason) when the target is a directory
  // or the temporary cannot be created (e.g. the directory is not writable).
  static Result<AtomicFile> create(const std::filesystem::path& target);

  AtomicFile(AtomicFile&& o) noexcept;
  AtomicFile& operator=(AtomicFile&& o) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Without commit(): closes and removes the temporary; the target stays as it was.
  ~AtomicFile();

  // A stdio stream on the file, opened on the first call; the AtomicFile keeps owning it
  // (never fclose it). Errc::io_error if fdopen fails.
  Result<std::FILE*> stream();
  // The file's descriptor, valid until commit() (dup() it for libraries that close theirs:
  // gzdopen). Do not mix with stream().
  int descriptor() const noexcept { return fd_; }
  // The target as given, for messages.
  const std::string& name() const noexcept { return name_; }

  // Flushes the stream (if opened), fsyncs, closes and renames the temporary over the target,
  // then fsyncs the directory. Errc::io_error naming the target and the reason on any failure,
  // after which the temporary is gone and the target unchanged. Call at most once.
  Status commit();

 private:
  AtomicFile() = default;
  Status fail(const std::string& what, int err);  // removes the temporary, returns the error
  void discard() noexcept;

  std::string name_;    // the target as given
  std::string target_;  // symbolic links resolved
  std::string temp_;    // empty when written directly
  std::FILE* stream_ = nullptr;
  int fd_ = -1;
  int slot_ = -1;  // entry in the signal-cleanup table, -1 if none
  bool direct_ = false;
};

namespace test_hooks {
// Called by every AtomicFile::commit() before its flush; null (nothing) unless a test program
// sets it before it writes any file.
extern void (*before_commit)();
}  // namespace test_hooks

// Errc::io_error with the message "<name>: <what> (<strerror(err)>)"; err 0 gives no reason.
Error file_error(std::string_view name, std::string_view what, int err);

// Writes `contents` to `target` through an AtomicFile. Errors as AtomicFile.
Status write_file_atomically(const std::filesystem::path& target, std::string_view contents);

// For programs (the library installs no handler): SIGINT, SIGTERM and SIGHUP remove every
// temporary an AtomicFile holds, then end the process by the same signal as before; signals
// ignored when this is called stay ignored. SIGXFSZ is ignored, so that a file-size limit
// (RLIMIT_FSIZE) shows up as a failed write (EFBIG) that is reported, not as a kill.
void remove_temporaries_on_signals();

}  // namespace vkprim::detail
