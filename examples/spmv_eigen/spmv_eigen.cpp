// spmv_eigen: the simple API. An Eigen sparse matrix goes to the GPU, y = A x runs there, and the
// answer is compared with Eigen's own product; then A x = b is solved on the GPU by the
// Eigen-style conjugate gradient and checked by its residual. vkprim::Runtime owns the Vulkan
// device (the first GPU, or lavapipe), and every call returns a Result that says what failed.
//
// Exit 0 when both answers agree with Eigen, 1 otherwise (or when a call fails).
#include <Eigen/SparseCore>
#include <cmath>
#include <cstdio>
#include <vector>
#include <vkprim/sparse/eigen.hpp>
#include <vkprim/sparse/eigen_solvers.hpp>
#include <vkprim/sparse/spmv.hpp>
#include <vkprim/vkprim.hpp>

namespace {

// The 5-point Laplacian of an n x n grid, with Dirichlet boundaries: symmetric positive definite.
Eigen::SparseMatrix<double> laplacian(int n) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int r = i * n + j;
      t.emplace_back(r, r, 4.0);
      if (i > 0) t.emplace_back(r, r - n, -1.0);
      if (i + 1 < n) t.emplace_back(r, r + n, -1.0);
      if (j > 0) t.emplace_back(r, r - 1, -1.0);
      if (j + 1 < n) t.emplace_back(r, r + 1, -1.0);
    }
  Eigen::SparseMatrix<double> a(n * n, n * n);
  a.setFromTriplets(t.begin(), t.end());
  return a;
}

int fail(const vkprim::Error& e) {
  std::fprintf(stderr, "spmv_eigen: %s\n", e.describe().c_str());
  return 1;
}

}  // namespace

int main() {
  // Validation on when the Khronos layer is installed: any warning or error it reports fails
  // the example.
  int messages = 0;
  vkprim::CreateInfo info;
  info.validation = true;
  info.on_message = [&messages](vkprim::MessageSeverity s, const char* m) {
    if (s >= vkprim::MessageSeverity::warning) {
      ++messages;
      std::fprintf(stderr, "validation: %s\n", m);
    }
  };
  auto rt = vkprim::Runtime::create(info);
  if (!rt) {
    info.validation = false;  // no layer here: run without it
    rt = vkprim::Runtime::create(info);
  }
  if (!rt) return fail(rt.error());
  std::printf("device: %s\n", rt->caps().device_name.c_str());
  if (!rt->caps().shader_float64) {
    std::printf("the device has no shaderFloat64: nothing to run in double\n");
    return 0;
  }

  const Eigen::SparseMatrix<double> a = laplacian(200);  // 40 000 rows, 199 200 nonzeros
  Eigen::VectorXd x(a.cols());
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = std::sin(0.001 * double(i));

  // y = A x on the GPU: the matrix uploaded once, an Spmv object made once for f64 values.
  vkprim::sparse::DeviceCsrOptions o;
  o.values = vkprim::ValueType::f64;
  auto da = vkprim::sparse::upload(*rt, a, o);
  if (!da) return fail(da.error());
  auto spmv = vkprim::sparse::Spmv::create(rt->context(), vkprim::ValueType::f64);
  if (!spmv) return fail(spmv.error());
  if (auto s = spmv->reserve(da->rows(), da->nnz()); !s) return fail(s.error());
  auto bx = rt->upload(std::span<const double>(x.data(), size_t(x.size())));
  auto by = rt->alloc(da->rows() * sizeof(double));
  if (!bx) return fail(bx.error());
  if (!by) return fail(by.error());
  auto done = rt->submit([&](VkCommandBuffer cmd) { return spmv->record(cmd, da->view(), *bx, *by); });
  if (!done) return fail(done.error());
  auto y = rt->download<double>(*by, size_t(da->rows()));
  if (!y) return fail(y.error());

  const Eigen::VectorXd expect = a * x;
  const Eigen::VectorXd got = Eigen::Map<const Eigen::VectorXd>(y->data(), Eigen::Index(y->size()));
  const double spmv_err = (got - expect).norm() / expect.norm();
  std::printf("y = A x: %lld rows, %lld nonzeros, relative difference from Eigen %.2e\n",
              (long long)a.rows(), (long long)a.nonZeros(), spmv_err);

  // A z = y by conjugate gradient on the GPU (Eigen's interface; Jacobi preconditioner).
  vkprim::sparse::ConjugateGradient<Eigen::SparseMatrix<double>> cg(*rt);
  cg.setTolerance(1e-10).setPreconditioner(vkprim::sparse::Preconditioner::jacobi);
  cg.compute(a);
  const Eigen::VectorXd z = cg.solve(expect);
  if (cg.info() != Eigen::Success) {
    std::fprintf(stderr, "spmv_eigen: CG did not converge (%s)\n",
                 cg.lastError() ? cg.lastError()->describe().c_str() : "iteration limit or breakdown");
    return 1;
  }
  const double residual = (expect - a * z).norm() / expect.norm();
  std::printf("A z = y: %lld CG iterations, true residual %.2e, |z - x| / |x| = %.2e\n",
              (long long)cg.iterations(), residual, (z - x).norm() / x.norm());

  const bool ok = spmv_err < 1e-12 && residual < 1e-9 && messages == 0;
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
