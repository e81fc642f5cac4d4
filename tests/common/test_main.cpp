// Test entry point: Catch2's session plus a listener that fails any test case during which the
// validation layer reported something (synchronization hazards included).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "gpu.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::vector<std::string> g_dirty_cases;

struct ValidationListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo&) override {
    vkprim::test::validation_messages().clear();
  }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    auto& msgs = vkprim::test::validation_messages();
    if (msgs.empty()) return;
    std::fprintf(stderr, "\nVALIDATION FAILURE in \"%s\": %zu message(s)\n",
                 stats.testInfo.name.c_str(), msgs.size());
    for (size_t i = 0; i < msgs.size() && i < 10; ++i) std::fprintf(stderr, "  %s\n", msgs[i].c_str());
    g_dirty_cases.push_back(stats.testInfo.name);
    msgs.clear();
  }
};

}  // namespace

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
  if (!g_dirty_cases.empty()) {
    std::fprintf(stderr, "%zu test case(s) produced validation messages\n", g_dirty_cases.size());
    return rc ? rc : 1;
  }
  return rc;
}
