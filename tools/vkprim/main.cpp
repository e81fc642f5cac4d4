#include "commands.hpp"

#include <vkprim/error.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  using namespace vkprim::cli;
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
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  try {
    return action ? action() : kExitUsage;
  } catch (const vkprim::Exception& e) {
    std::fprintf(stderr, "vkprim: %s\n", e.what());
    return kExitFailure;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkprim: %s\n", e.what());
    return kExitFailure;
  }
}
