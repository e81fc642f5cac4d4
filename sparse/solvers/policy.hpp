// Krylov solver policy: the grid of the vector passes, which fixes the order of every dot
// product (so a plan's results depend on the number of rows, never on the device's load).
#pragma once

#include <algorithm>
#include <cstdint>

namespace vkprim::sparse::detail::tuning {

// Vector passes: workgroups of 256 invocations, about 4 elements per invocation, at most 1024
// workgroups (each writes one partial sum per dot product, and the scalar pass adds them in one
// workgroup, so more workgroups would lengthen that pass without adding bandwidth).
inline constexpr uint32_t kSolverWorkgroup = 256;
inline constexpr uint64_t kSolverElementsPerInvocation = 4;
inline constexpr uint64_t kSolverMaxGroups = 1024;
constexpr uint32_t solver_groups(uint64_t n) {
  const uint64_t per_group = kSolverWorkgroup * kSolverElementsPerInvocation;
  return uint32_t(std::clamp<uint64_t>((n + per_group - 1) / per_group, 1, kSolverMaxGroups));
}
// Scalar passes: one workgroup. CG's alpha adds the product's partials, one per workgroup of
// the row kernel (rows / 256 and more), so on GPUs the workgroup is as large as the device
// allows up to kSolverScalarMaxWorkgroup (more loads in flight for that one pass); CPU devices
// (lavapipe), where an invocation is a loop iteration of one thread, keep 256.
inline constexpr uint32_t kSolverScalarWorkgroup = 256;
inline constexpr uint32_t kSolverScalarMaxWorkgroup = 1024;
constexpr uint32_t solver_scalar_workgroup(bool cpu, uint32_t max_invocations,
                                           uint32_t max_shared, uint32_t value_bytes) {
  if (cpu) return kSolverScalarWorkgroup;
  uint32_t wg = kSolverScalarMaxWorkgroup;
  // workgroup_sum3: three shared arrays of wg values.
  while (wg > kSolverScalarWorkgroup && (wg > max_invocations || 3ull * wg * value_bytes > max_shared))
    wg /= 2;
  return wg;
}
// CG's A p sums p.Ap itself (the row kernel's DOT build, sparse/spmv/dot.hpp: one partial per
// workgroup of its grid) instead of a p.q pass over p and q, when the row kernel runs A p and
// writes at most this many partials: up to a 64th of the rows (4 lanes per row or fewer), whose
// sum in the scalar pass costs far less than the pass over 2 rows-long vectors it replaces, or
// up to 65536 on smaller matrices, where the pass saved is mostly its launch and barrier. The
// workspace holds that many.
inline constexpr uint64_t kSolverProductPartialsPerRow = 64;
inline constexpr uint64_t kSolverProductPartialsFloor = 65536;
constexpr uint64_t solver_product_partials_max(uint64_t rows) {
  return std::min(rows, std::max((rows + kSolverProductPartialsPerRow - 1) /
                                     kSolverProductPartialsPerRow,
                                 kSolverProductPartialsFloor));
}
// The Jacobi diagonal: one row per invocation, grid-stride.
inline constexpr uint32_t kSolverDiagonalWorkgroup = 256;

}  // namespace vkprim::sparse::detail::tuning
