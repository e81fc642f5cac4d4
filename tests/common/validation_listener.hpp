// The Catch2 listener every test program registers (CATCH_REGISTER_LISTENER, in its main): a
// test case during which the validation layer reported something (validation_messages(),
// synchronization hazards included) is printed with its first messages and counted in
// dirty_cases(), which fails the run.
#pragma once

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace vkprim::test {

std::vector<std::string>& validation_messages();

// The test cases that produced validation messages.
inline std::vector<std::string>& dirty_cases() {
  static std::vector<std::string> cases;
  return cases;
}

struct ValidationListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo&) override { validation_messages().clear(); }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    auto& msgs = validation_messages();
    if (msgs.empty()) return;
    std::fprintf(stderr, "\nVALIDATION FAILURE in \"%s\": %zu message(s)\n", stats.testInfo.name.c_str(),
                 msgs.size());
    for (size_t i = 0; i < msgs.size() && i < 10; ++i) std::fprintf(stderr, "  %s\n", msgs[i].c_str());
    dirty_cases().push_back(stats.testInfo.name);
    msgs.clear();
  }
};

}  // namespace vkprim::test
