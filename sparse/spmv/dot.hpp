// The row kernel's DOT build (shaders/spmv/spmv_rows.comp): y = A x and, per workgroup, the sum
// of y[i] * x[i] over its rows, for the CG solver, whose A p then also gives the partials of
// p.Ap without a pass of its own over p and q.
#pragma once

#include <cstdint>
#include <vkprim/sparse/spmv.hpp>

namespace vkprim::sparse::detail {

struct SpmvDotAccess {
  // Builds the DOT build's pipelines for the plan (once; later calls do nothing). Errors as
  // Spmv::create's.
  static Status enable(Spmv& spmv);
  // The partial sums a product of `a` with `analysis` writes: one per workgroup of the row
  // kernel's grid; 0 when the plan would not run the plain row kernel for it (another kernel,
  // the empty-row windows, a forced kernel, complex values), A is not square or has no rows, or
  // enable() has not run. Then record() must not be called.
  static uint64_t partials(const Spmv& spmv, const CsrView& a, const SpmvAnalysis& analysis);
  // y = A x (alpha 1, beta 0) and partials [0, partials(...)) T at `partials_addr`. Requires
  // partials(spmv, a, analysis) > 0, and what Spmv::record requires; no temporary storage.
  static Status record(const Spmv& spmv, VkCommandBuffer cmd, const CsrView& a, BufferView x,
                       BufferView y, const SpmvAnalysis& analysis, uint64_t partials_addr);
};

}  // namespace vkprim::sparse::detail
