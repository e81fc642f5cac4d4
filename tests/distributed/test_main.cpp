// Entry point of the distributed tests, run by mpirun: MPI around Catch2's session, each rank's
// Runtime made by create_rank_runtime with the validation layer and synchronization validation
// on, and the listener of tests/common/validation_listener.hpp: a test case during which the layer
// reported anything fails the run. Every rank runs every test case in the same order, so the
// collective calls inside them match; a rank's exit status is the worst of all ranks'.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "distributed_support.hpp"
#include "validation_listener.hpp"

namespace vkprim::test {

std::vector<std::string>& validation_messages() {
  static std::vector<std::string> m;
  return m;
}

namespace {
std::optional<Runtime> g_runtime;
std::optional<sparse::Spmv> g_plans[2];  // f32, f64
}  // namespace

Runtime& rank_gpu() { return *g_runtime; }

const sparse::Spmv& plan_for(ValueType type) {
  auto& p = g_plans[type == ValueType::f64 ? 1 : 0];
  if (!p) p.emplace(sparse::Spmv::create(rank_gpu().context(), type).value());
  return *p;
}

}  // namespace vkprim::test

using vkprim::test::ValidationListener;
CATCH_REGISTER_LISTENER(ValidationListener)

int main(int argc, char** argv) {
  // A product's worker thread never calls MPI; this thread does all of it.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rc = 0;
  {
    Catch::Session session;
    rc = session.applyCommandLine(argc, argv);
    if (rc == 0) {
      vkprim::CreateInfo ci;
      ci.validation = true;
      ci.on_message = [](vkprim::MessageSeverity, const char* msg) {
        vkprim::test::validation_messages().emplace_back(msg);
      };
      auto rt = vkprim::sparse::create_rank_runtime(MPI_COMM_WORLD, ci);
      if (!rt) {
        std::fprintf(stderr, "vkprim distributed tests: no runtime: %s\n",
                     rt.error().describe().c_str());
        rc = 1;
      } else {
        vkprim::test::g_runtime.emplace(std::move(*rt));
        rc = session.run();
        if (!vkprim::test::dirty_cases().empty()) {
          std::fprintf(stderr, "%zu test case(s) produced validation messages\n",
                       vkprim::test::dirty_cases().size());
          if (!rc) rc = 1;
        }
      }
    }
  }
  vkprim::test::release_solvers();
  for (auto& p : vkprim::test::g_plans) p.reset();
  vkprim::test::g_runtime.reset();
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
