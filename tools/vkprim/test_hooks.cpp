// vkprim_test_cli: the command line with its test hooks installed, for the tests alone (never
// installed; tools/CMakeLists.txt). With VKPRIM_TEST_STOP_BEFORE_COMMIT set (not "0"), every
// file it replaces stops the process (SIGSTOP) once the output is written to the temporary,
// before the flush and rename, so that tests/sparse_io/run_cli_signals.sh can kill it part-way
// deterministically. The installed vkprim reads no such variable.
#include "core/atomic_file.hpp"

#include <csignal>
#include <cstdlib>
#include <cstring>

namespace {

void stop_before_commit() { std::raise(SIGSTOP); }

// Installed during static initialization, before main() writes anything.
const bool installed = [] {
  const char* v = std::getenv("VKPRIM_TEST_STOP_BEFORE_COMMIT");
  if (v && *v && std::strcmp(v, "0") != 0) vkprim::detail::test_hooks::before_commit = &stop_before_commit;
  return true;
}();

}  // namespace
