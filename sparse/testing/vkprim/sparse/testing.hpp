// vkprim::sparse's testing interface, as vkprim's (engine/testing/vkprim/testing.hpp): knobs
// that force the CSR build's rare paths, for vkprim's tests. Not installed with the public
// headers; the public create() builds pipelines in which these paths are compiled out.
#pragma once

#include <vkprim/sparse/csr_build.hpp>
#include <vkprim/testing.hpp>

#include <cstdint>

namespace vkprim::sparse::testing {

// The look-backs of the build (its compaction's and, where its sort runs onesweep, the sort's):
// as vkprim::testing's look-back knobs (stall_period: those tiles never publish, so successors
// must take the fallback path; spin_limit: re-reads before falling back, 0: the policy's).
struct CsrBuildKnobs {
  uint32_t stall_period = 0;
  uint32_t spin_limit = 0;
};
Result<CsrBuilder> create_csr_builder(const Context& ctx, ValueType values,
                                      const CsrBuildOptions& options, const CsrBuildKnobs& knobs);

}  // namespace vkprim::sparse::testing
