#include "commands.hpp"

#include "core/atomic_file.hpp"

#include <vkprim/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>

namespace {

using namespace vkprim::cli;

// Every exit goes through here: standard output (std::cout shares stdout's buffer, as
// sync_with_stdio is on) is flushed and checked, so that output lost to a full disk, a closed
// pipe or /dev/full is an error (exit 1 with a message) rather than a silent success.
int finish(int rc) {
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;  // first: std::cout's flush flushes stdout
  const int err = flush_failed ? errno : 0;
  std::cout.flush();
  const bool stream_failed = !std::cout;
  if (!stream_failed && !flush_failed && !std::ferror(stdout)) return rc;
  std::fprintf(stderr, "vkprim: writing to standard output failed%s%s\n", err ? ": " : "",
               err ? std::strerror(err) : "");
  return rc == kExitOk ? kExitFailure : rc;
}

}  // namespace

int main(int argc, char** argv) {
  // Temporaries of unfinished output files go on SIGINT/SIGTERM/SIGHUP; SIGXFSZ is ignored so
  // that a file-size limit is a reported write error.
  vkprim::detail::remove_temporaries_on_signals();
  std::string command = "vkprim";
  try {
    CLI::App app{"vkprim: Vulkan compute primitives and sparse linear algebra"};
    app.require_subcommand(1);
    Action action;
    register_devices(app, action);
    register_bench(app, action);
#if VKPRIM_CLI_HAS_SPARSE
    register_convert(app, action);
    register_info(app, action);
    register_spy(app, action);
    register_spmv(app, action);
    register_solve(app, action);
#endif
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      const int rc = app.exit(e);
      return finish(rc == 0 ? kExitOk : kExitUsage);
    }
    for (const auto* sub : app.get_subcommands()) command += " " + sub->get_name();
    return finish(action ? action() : kExitUsage);
  } catch (const vkprim::Exception& e) {
    std::fprintf(stderr, "%s: %s\n", command.c_str(), e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: out of host memory (an allocation failed; try a smaller input or size)\n",
                 command.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: failed: %s\n", command.c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: failed with an unknown exception\n", command.c_str());
  }
  return finish(kExitFailure);
}
