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
// Scalar passes: one workgroup of 256 invocations.
inline constexpr uint32_t kSolverScalarWorkgroup = 256;
// The Jacobi diagonal: one row per invocation, grid-stride.
inline constexpr uint32_t kSolverDiagonalWorkgroup = 256;

}  // namespace vkprim::sparse::detail::tuning
