// A program that computes with sparse matrices and reads no file: vkprim::sparse alone (no HDF5,
// zlib or libpng). y = A x for a 3 x 3 tridiagonal A on the GPU, then A x = y by CG.
#include <vkprim/sparse/device_csr.hpp>
#include <vkprim/sparse/solvers.hpp>
#include <vkprim/sparse/spmv.hpp>
#include <vkprim/vkprim.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

int main() {
  auto rt = vkprim::Runtime::create();
  if (!rt) {
    std::fprintf(stderr, "%s\n", rt.error().describe().c_str());
    return 1;
  }
  const std::array<int, 4> row_ptr{0, 2, 5, 7};
  const std::array<int, 7> cols{0, 1, 0, 1, 2, 1, 2};
  const std::array<float, 7> vals{2, -1, -1, 2, -1, -1, 2};
  auto a = vkprim::sparse::DeviceCsr::upload(*rt, 3, 3, std::span<const int>(row_ptr),
                                             std::span<const int>(cols), std::span<const float>(vals)).value();
  auto spmv = vkprim::sparse::Spmv::create(rt->context(), vkprim::ValueType::f32).value();
  spmv.reserve(a.rows(), a.nnz()).value();
  const std::vector<float> x{1, 2, 3};
  auto bx = rt->upload(x).value();
  auto by = rt->alloc(3 * sizeof(float)).value();
  rt->submit([&](VkCommandBuffer cmd) { return spmv.record(cmd, a.view(), bx, by); }).value();
  const auto y = rt->download<float>(by, 3).value();
  if (y != std::vector<float>{0, 0, 4}) return 1;
  vkprim::sparse::KrylovOptions o;
  o.tolerance = 1e-6;
  auto cg = vkprim::sparse::KrylovSolver::create(rt->context(), vkprim::ValueType::f32, o).value();
  cg.prepare(*rt, a.view()).value();
  cg.reserve(a.rows(), a.nnz()).value();
  auto bxs = rt->alloc(3 * sizeof(float)).value();
  cg.bind(a.view(), by, bxs).value();
  const auto st = cg.solve(*rt).value();
  const auto xs = rt->download<float>(bxs, 3).value();
  for (int i = 0; i < 3; ++i)
    if (!st.converged() || std::fabs(xs[size_t(i)] - x[size_t(i)]) > 1e-4f) return 1;
  std::printf("sparse consumer ok\n");
  return 0;
}
