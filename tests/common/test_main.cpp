// Test entry point: Catch2's session plus a listener that fails any test case during which the
// validation layer reported something (synchronization hazards included).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "gpu.hpp"
#include "validation_listener.hpp"

#include <cstdio>

using vkprim::test::ValidationListener;
CATCH_REGISTER_LISTENER(ValidationListener)

int main(int argc, char** argv) {
  Catch::Session session;
  uint32_t subgroup_size = 0;
  session.cli(session.cli() |
              Catch::clara::Opt(subgroup_size, "lanes")["--subgroup-size"](
                  "run on lavapipe with compute subgroups of this many lanes (skipped, exit code "
                  "77, where that cannot be had)"));
  if (int rc = session.applyCommandLine(argc, argv)) return rc;
  vkprim::test::run_at_subgroup_size(subgroup_size);
  int rc = session.run();
  if (!vkprim::test::dirty_cases().empty()) {
    std::fprintf(stderr, "%zu test case(s) produced validation messages\n",
                 vkprim::test::dirty_cases().size());
    return rc ? rc : 1;
  }
  return rc;
}
