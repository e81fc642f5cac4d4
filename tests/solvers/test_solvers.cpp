// Krylov solvers against Eigen's: CG and Jacobi CG on generated Poisson problems and shared SPD
// matrices, BiCGSTAB on a generated convection-diffusion matrix, a singular consistent system,
// breakdowns, the Jacobi preconditioner's refusal of a bad diagonal, b == 0, the iteration
// limit, determinism, f32 and f64, a solve recorded beside other work in one command buffer,
// blocks longer than needed (exact iteration counts), refused calls, and the Eigen-style form.
#include <complex>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <tuple>
#include <vkprim/sparse/eigen.hpp>
#include <vkprim/sparse/eigen_solvers.hpp>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/solvers.hpp>

#include "sparse_gpu_support.hpp"
#include "test_support.hpp"

using namespace vkprim;
using namespace vkprim::sparse;
using test::EigenCsr;

namespace {

using EigenCsc = Eigen::SparseMatrix<double>;

// Solvers are built once per (type, method, preconditioner): pipeline creation under the
// validation layer is the slow part on lavapipe.
KrylovSolver& solver_for(ValueType t, KrylovMethod m, Preconditioner p) {
  Runtime& rt = test::gpu();
  static std::map<std::tuple<int, int, int>, KrylovSolver> solvers;
  const auto key = std::make_tuple(int(t), int(m), int(p));
  auto it = solvers.find(key);
  if (it == solvers.end()) {
    KrylovOptions o;
    o.method = m;
    o.preconditioner = p;
    it = solvers.emplace(key, KrylovSolver::create(rt.context(), t, o).value()).first;
  }
  return it->second;
}

EigenCsr from_triplets(int64_t n, const std::vector<Eigen::Triplet<double>>& t) {
  EigenCsr a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  return a;
}

// 5-point Laplacian on an n x n grid (Dirichlet): symmetric positive definite.
EigenCsr poisson2d(int64_t n) {
  std::vector<Eigen::Triplet<double>> t;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int64_t r = i * n + j;
      t.emplace_back(int(r), int(r), 4.0);
      if (i > 0) t.emplace_back(int(r), int(r - n), -1.0);
      if (i + 1 < n) t.emplace_back(int(r), int(r + n), -1.0);
      if (j > 0) t.emplace_back(int(r), int(r - 1), -1.0);
      if (j + 1 < n) t.emplace_back(int(r), int(r + 1), -1.0);
    }
  return from_triplets(n * n, t);
}

// 7-point Laplacian on an n^3 grid, with a varying diagonal scale (so Jacobi changes the
// iteration).
EigenCsr poisson3d(int64_t n) {
  std::vector<Eigen::Triplet<double>> t;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t k = 0; k < n; ++k) {
        const int64_t r = (i * n + j) * n + k;
        const double s = 1.0 + double(r % 7);
        t.emplace_back(int(r), int(r), 6.0 * s);
        const int64_t nb[6][2] = {{i > 0, -n * n}, {i + 1 < n, n * n}, {j > 0, -n},
                                  {j + 1 < n, n},  {k > 0, -1},        {k + 1 < n, 1}};
        for (auto& e : nb)
          if (e[0])
            t.emplace_back(int(r), int(r + e[1]), -std::sqrt(s * (1.0 + double((r + e[1]) % 7))));
      }
  return from_triplets(n * n * n, t);
}

// Upwind convection-diffusion on an n x n grid: -laplace(u) + c du/dx + c du/dy, nonsymmetric.
EigenCsr convection_diffusion(int64_t n, double c) {
  std::vector<Eigen::Triplet<double>> t;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int64_t r = i * n + j;
      t.emplace_back(int(r), int(r), 4.0 + 2.0 * c);
      if (i > 0) t.emplace_back(int(r), int(r - n), -1.0 - c);
      if (i + 1 < n) t.emplace_back(int(r), int(r + n), -1.0);
      if (j > 0) t.emplace_back(int(r), int(r - 1), -1.0 - c);
      if (j + 1 < n) t.emplace_back(int(r), int(r + 1), -1.0);
    }
  return from_triplets(n * n, t);
}

// The graph Laplacian of an n x n grid (Neumann): symmetric positive semi-definite, singular
// (constant null space).
EigenCsr grid_laplacian(int64_t n) {
  std::vector<Eigen::Triplet<double>> t;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int64_t r = i * n + j;
      int deg = 0;
      const int64_t nb[4][2] = {{i > 0, -n}, {i + 1 < n, n}, {j > 0, -1}, {j + 1 < n, 1}};
      for (auto& e : nb)
        if (e[0]) {
          t.emplace_back(int(r), int(r + e[1]), -1.0);
          ++deg;
        }
      t.emplace_back(int(r), int(r), double(deg));
    }
  return from_triplets(n * n, t);
}

std::vector<double> rhs(size_t n, uint32_t seed) {
  std::vector<double> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = 1.0 + test::value_at(i, seed);
  return b;
}

// ||b - A x|| / ||b|| in double.
double true_residual(const EigenCsr& a, const std::vector<double>& b, const Eigen::VectorXd& x) {
  const Eigen::VectorXd bv = Eigen::Map<const Eigen::VectorXd>(b.data(), Eigen::Index(b.size()));
  const double bn = bv.norm();
  return bn == 0 ? (a * x).norm() : (bv - a * x).norm() / bn;
}

template <class T>
struct GpuResult {
  std::vector<T> x;
  SolverStatus status;
  Eigen::VectorXd xd() const {
    Eigen::VectorXd v(Eigen::Index(x.size()));
    for (size_t i = 0; i < x.size(); ++i) v[Eigen::Index(i)] = double(x[i]);
    return v;
  }
};

// One solve on the GPU through the recording form and its simple loop; x starts poisoned.
template <class T>
GpuResult<T> gpu_solve(const EigenCsr& a, const std::vector<double>& b, KrylovMethod m,
                       Preconditioner p, double tol, uint64_t max_it = 0,
                       uint32_t check_every = 16) {
  Runtime& rt = test::gpu();
  DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(a), dopt).value();
  KrylovSolver& s = solver_for(value_type_of<T>(), m, p);
  s.set_limits(tol, max_it, check_every).value();
  s.prepare(rt, A.view()).value();
  s.reserve(A.rows(), A.nnz()).value();
  std::vector<T> bt(b.begin(), b.end());
  Buffer bb = rt.upload(bt).value();
  Buffer xb = test::poisoned(rt, std::max<size_t>(b.size(), 1) * sizeof(T));
  s.bind(A.view(), bb.view(), xb.view()).value();
  GpuResult<T> r;
  r.status = s.solve(rt).value();
  r.x = rt.download<T>(xb.view(), b.size()).value();
  return r;
}

struct EigenResult {
  Eigen::VectorXd x;
  int64_t iterations;
  double error;
  Eigen::ComputationInfo info;
};

template <class Solver>
EigenResult run_eigen(const EigenCsr& a, const std::vector<double>& b, double tol, int64_t max_it) {
  const EigenCsc ac = a;
  Solver s;
  s.setTolerance(tol);
  if (max_it) s.setMaxIterations(max_it);
  s.compute(ac);
  const Eigen::VectorXd bv = Eigen::Map<const Eigen::VectorXd>(b.data(), Eigen::Index(b.size()));
  EigenResult r;
  r.x = s.solve(bv);
  r.iterations = s.iterations();
  r.error = s.error();
  r.info = s.info();
  return r;
}

EigenResult eigen_solve(const EigenCsr& a, const std::vector<double>& b, KrylovMethod m,
                        Preconditioner p, double tol, int64_t max_it = 0) {
  using Jac = Eigen::DiagonalPreconditioner<double>;
  using Id = Eigen::IdentityPreconditioner;
  constexpr int kBoth = Eigen::Lower | Eigen::Upper;
  if (m == KrylovMethod::cg)
    return p == Preconditioner::jacobi
               ? run_eigen<Eigen::ConjugateGradient<EigenCsc, kBoth, Jac>>(a, b, tol, max_it)
               : run_eigen<Eigen::ConjugateGradient<EigenCsc, kBoth, Id>>(a, b, tol, max_it);
  return p == Preconditioner::jacobi ? run_eigen<Eigen::BiCGSTAB<EigenCsc, Jac>>(a, b, tol, max_it)
                                     : run_eigen<Eigen::BiCGSTAB<EigenCsc, Id>>(a, b, tol, max_it);
}

// A converged GPU solve against Eigen's solver of the same method and preconditioner: the
// true residual within the tolerance (with room for the recursive residual's drift), the
// iteration counts within 10 % or 5 (f64; Eigen's CG does not count the iteration it converges
// in), and the solutions within `x_factor` * tolerance of each other, relative to ||x||.
template <class T>
void check_against_eigen(const std::string& what, const EigenCsr& a, const std::vector<double>& b,
                         KrylovMethod m, Preconditioner p, double tol, double x_factor,
                         bool compare_iterations = true) {
  INFO(what << " (" << a.rows() << " rows, " << a.nonZeros() << " nonzeros), "
            << to_string(value_type_of<T>()) << ", " << to_string(m) << ", " << to_string(p));
  const auto g = gpu_solve<T>(a, b, m, p, tol);
  const auto e = eigen_solve(a, b, m, p, tol);
  INFO("GPU: " << to_string(g.status.reason) << " after " << g.status.iterations
               << " iterations, residual " << g.status.residual << "; Eigen: " << e.iterations
               << " iterations, error " << e.error);
  REQUIRE(g.status.reason == StopReason::converged);
  REQUIRE(e.info == Eigen::Success);
  CHECK(g.status.residual <= tol);
  const Eigen::VectorXd x = g.xd();
  const double res = true_residual(a, b, x);
  CHECK(res <= 10 * tol);
  if (compare_iterations) {
    const double diff = std::abs(double(g.status.iterations) - double(e.iterations));
    CHECK((diff <= 5 || diff <= 0.1 * double(e.iterations)));
  }
  const double dx = (x - e.x).norm() / std::max(e.x.norm(), 1e-300);
  CHECK(dx <= x_factor * tol);
}

template <class T>
bool bit_identical(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

bool has_f64() { return test::gpu().caps().shader_float64; }

}  // namespace

TEST_CASE("CG and Jacobi CG match Eigen on Poisson problems, f64 and f32", "[solvers][cg]") {
  const EigenCsr p2 = poisson2d(24), p3 = poisson3d(8);
  const auto b2 = rhs(size_t(p2.rows()), 1), b3 = rhs(size_t(p3.rows()), 2);
  for (const auto pre : {Preconditioner::none, Preconditioner::jacobi}) {
    if (has_f64()) {
      check_against_eigen<double>("poisson2d 24", p2, b2, KrylovMethod::cg, pre, 1e-8, 1e3);
      check_against_eigen<double>("poisson3d 8", p3, b3, KrylovMethod::cg, pre, 1e-8, 1e3);
    }
    // f32: the tolerance f32 reaches; the iteration counts follow f32 rounding.
    check_against_eigen<float>("poisson2d 24", p2, b2, KrylovMethod::cg, pre, 1e-5, 1e3, false);
    check_against_eigen<float>("poisson3d 8", p3, b3, KrylovMethod::cg, pre, 1e-5, 1e3, false);
  }
}

namespace {
// A CG solve with the given options (its Spmv plan's kernel and build): the status, x, and
// whether the product summed p.Ap.
template <class T>
std::pair<GpuResult<T>, bool> cg_with(const EigenCsr& a, const std::vector<double>& b,
                                      KrylovOptions o) {
  Runtime& rt = test::gpu();
  DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(a), dopt).value();
  KrylovSolver s = KrylovSolver::create(rt.context(), value_type_of<T>(), o).value();
  s.prepare(rt, A.view()).value();
  const bool fused = s.product_sums_dot();
  std::vector<T> bt(b.begin(), b.end());
  Buffer bb = rt.upload(bt).value();
  Buffer xb = test::poisoned(rt, b.size() * sizeof(T));
  Buffer temp = rt.alloc(s.temp_bytes(A.rows(), A.nnz())).value();
  s.bind(A.view(), bb.view(), xb.view(), temp.view()).value();
  GpuResult<T> r;
  r.status = s.solve(rt).value();
  r.x = rt.download<T>(xb.view(), b.size()).value();
  return {r, fused};
}
}  // namespace

TEST_CASE("CG's product sums p.Ap where the row kernel runs A p, with the solve of a p.q pass",
          "[solvers][cg][dot]") {
  const EigenCsr p2 = poisson2d(20), p3 = poisson3d(7);
  const std::vector<std::pair<std::string, const EigenCsr*>> ms = {{"poisson2d 20", &p2},
                                                                    {"poisson3d 7", &p3}};
  for (const auto& [name, a] : ms)
    for (const auto pre : {Preconditioner::none, Preconditioner::jacobi})
      for (const bool subgroup : {true, false}) {
        INFO(name << ", " << to_string(pre) << ", " << (subgroup ? "subgroup" : "shared memory"));
        const auto b = rhs(size_t(a->rows()), 5);
        KrylovOptions o;
        o.preconditioner = pre;
        o.tolerance = 1e-5;
        o.spmv.use_subgroup_ops = subgroup;
        KrylovOptions rows = o, merge = o;
        rows.spmv.kernel = SpmvKernel::rows;
        rows.spmv.row_lanes = 4;
        merge.spmv.kernel = SpmvKernel::merge;
        const auto [ga, fa] = cg_with<float>(*a, b, o);        // the automatic choice
        const auto [gr, fr] = cg_with<float>(*a, b, rows);     // row kernel, 4 lanes
        const auto [gm, fm] = cg_with<float>(*a, b, merge);    // merge path: a p.q pass
        CHECK(fa);
        CHECK(fr);
        CHECK_FALSE(fm);
        for (const auto* g : {&ga, &gr, &gm}) {
          REQUIRE(g->status.reason == StopReason::converged);
          CHECK(true_residual(*a, b, g->xd()) <= 1e-4);
          const double di = std::abs(double(g->status.iterations) - double(gm.status.iterations));
          CHECK(di <= 2);
          CHECK((g->xd() - gm.xd()).norm() <= 1e-4 * gm.xd().norm());
        }
        if (has_f64()) {
          KrylovOptions d = o;
          d.tolerance = 1e-10;
          KrylovOptions dm = d;
          dm.spmv.kernel = SpmvKernel::merge;
          const auto [da, fda] = cg_with<double>(*a, b, d);
          const auto [dmm, fdm] = cg_with<double>(*a, b, dm);
          CHECK(fda);
          CHECK_FALSE(fdm);
          REQUIRE(da.status.reason == StopReason::converged);
          REQUIRE(dmm.status.reason == StopReason::converged);
          CHECK(std::abs(double(da.status.iterations) - double(dmm.status.iterations)) <= 1);
          CHECK((da.xd() - dmm.xd()).norm() <= 1e-8 * dmm.xd().norm());
        }
      }
  // BiCGSTAB has no such product.
  Runtime& rt = test::gpu();
  KrylovOptions bo;
  bo.method = KrylovMethod::bicgstab;
  KrylovSolver bs = KrylovSolver::create(rt.context(), ValueType::f32, bo).value();
  CHECK_FALSE(bs.product_sums_dot());
  const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(p2)).value();
  bs.prepare(rt, A.view()).value();
  CHECK_FALSE(bs.product_sums_dot());
}

TEST_CASE("BiCGSTAB and Jacobi BiCGSTAB match Eigen on a convection-diffusion problem",
          "[solvers][bicgstab]") {
  const EigenCsr a = convection_diffusion(20, 1.5);
  const auto b = rhs(size_t(a.rows()), 3);
  for (const auto pre : {Preconditioner::none, Preconditioner::jacobi}) {
    if (has_f64())
      check_against_eigen<double>("convection-diffusion 20", a, b, KrylovMethod::bicgstab, pre,
                                  1e-8, 1e3);
    check_against_eigen<float>("convection-diffusion 20", a, b, KrylovMethod::bicgstab, pre, 1e-5,
                               1e3, false);
  }
  // BiCGSTAB on an SPD matrix too.
  const EigenCsr p = poisson2d(16);
  if (has_f64())
    check_against_eigen<double>("poisson2d 16", p, rhs(size_t(p.rows()), 4), KrylovMethod::bicgstab,
                                Preconditioner::jacobi, 1e-8, 1e3);
}

TEST_CASE("CG and Jacobi CG match Eigen on shared SPD matrices", "[solvers][cg][shared]") {
  VKPRIM_REQUIRE_SHARED("matrices/real");
  if (!has_f64()) {
    WARN("no shaderFloat64: skipped");
    return;
  }
  // bcsstk13 (structural stiffness, SPD and ill-conditioned): Jacobi CG.
  auto coo = read_matrix_file(shared_data / "matrices/real/bcsstk13.mtx");
  REQUIRE(coo.ok());
  expand_symmetry(*coo).value();
  const EigenCsr a = test::eigen_reference(*coo);
  const auto b = rhs(size_t(a.rows()), 5);
  const auto g = gpu_solve<double>(a, b, KrylovMethod::cg, Preconditioner::jacobi, 1e-6);
  const auto e = eigen_solve(a, b, KrylovMethod::cg, Preconditioner::jacobi, 1e-6);
  INFO("bcsstk13: GPU " << g.status.iterations << " iterations (" << to_string(g.status.reason)
                        << "), Eigen " << e.iterations);
  REQUIRE(g.status.reason == StopReason::converged);
  CHECK(true_residual(a, b, g.xd()) <= 1e-5);
  const double diff = std::abs(double(g.status.iterations) - double(e.iterations));
  CHECK((diff <= 5 || diff <= 0.1 * double(e.iterations)));
  // crack (a 2-D mesh graph): its Laplacian plus the identity, CG without a preconditioner.
  auto crack = read_matrix_file(shared_data / "matrices/real/crack.mtx");
  REQUIRE(crack.ok());
  expand_symmetry(*crack).value();
  EigenCsr g1 = test::eigen_reference(*crack);
  std::vector<Eigen::Triplet<double>> t;
  for (int64_t r = 0; r < g1.rows(); ++r) {
    double deg = 0;
    for (EigenCsr::InnerIterator it(g1, r); it; ++it)
      if (it.col() != r) {
        t.emplace_back(int(r), int(it.col()), -1.0);
        deg += 1;
      }
    t.emplace_back(int(r), int(r), deg + 1.0);
  }
  const EigenCsr l = from_triplets(g1.rows(), t);
  check_against_eigen<double>("crack Laplacian + I", l, rhs(size_t(l.rows()), 6), KrylovMethod::cg,
                              Preconditioner::none, 1e-8, 1e3);
}

TEST_CASE("CG converges on a singular consistent system (graph Laplacian, b = A x0)",
          "[solvers][cg][singular]") {
  const EigenCsr a = grid_laplacian(16);
  Eigen::VectorXd x0(a.rows());
  for (Eigen::Index i = 0; i < a.rows(); ++i) x0[i] = test::value_at(uint64_t(i), 7);
  const Eigen::VectorXd bv = a * x0;
  const std::vector<double> b(bv.data(), bv.data() + bv.size());
  for (const auto pre : {Preconditioner::none, Preconditioner::jacobi}) {
    if (has_f64()) {
      const auto g = gpu_solve<double>(a, b, KrylovMethod::cg, pre, 1e-8);
      CHECK(g.status.reason == StopReason::converged);
      CHECK(true_residual(a, b, g.xd()) <= 1e-7);
    }
    const auto g = gpu_solve<float>(a, b, KrylovMethod::cg, pre, 1e-4);
    CHECK(g.status.reason == StopReason::converged);
    CHECK(true_residual(a, b, g.xd()) <= 1e-3);
  }
}

TEST_CASE("Breakdowns are reported, never a NaN solution called converged",
          "[solvers][breakdown]") {
  // [[0, 1], [1, 0]] with b = (1, 0): p = b, A p = (0, 1), p.Ap = 0 and r0.v = 0.
  const EigenCsr a = from_triplets(2, {{0, 1, 1.0}, {1, 0, 1.0}});
  const std::vector<double> b = {1.0, 0.0};
  const auto cg = gpu_solve<float>(a, b, KrylovMethod::cg, Preconditioner::none, 1e-6);
  CHECK(cg.status.reason == StopReason::breakdown);
  CHECK(cg.status.cause == BreakdownCause::p_ap);
  CHECK(cg.status.iterations == 0);
  CHECK(cg.x == std::vector<float>{0.0f, 0.0f});
  const auto bi = gpu_solve<float>(a, b, KrylovMethod::bicgstab, Preconditioner::none, 1e-6);
  CHECK(bi.status.reason == StopReason::breakdown);
  CHECK(bi.status.cause == BreakdownCause::r0_v);
  CHECK(bi.x == std::vector<float>{0.0f, 0.0f});
  // [[1, 1], [0, 0]] with b = (1, 1): s = (-1, 1) and t = A s = 0, so t.t = 0 (omega).
  const EigenCsr sing = from_triplets(2, {{0, 0, 1.0}, {0, 1, 1.0}});
  const auto om =
      gpu_solve<float>(sing, {1.0, 1.0}, KrylovMethod::bicgstab, Preconditioner::none, 1e-6);
  CHECK(om.status.reason == StopReason::breakdown);
  CHECK(om.status.cause == BreakdownCause::omega);
  CHECK(om.status.iterations == 0);
  CHECK(om.x == std::vector<float>{0.0f, 0.0f});
  // A NaN in b: a non-finite residual, a breakdown.
  const EigenCsr id = from_triplets(2, {{0, 0, 1.0}, {1, 1, 1.0}});
  const auto nan =
      gpu_solve<float>(id, {1.0, std::nan("")}, KrylovMethod::cg, Preconditioner::none, 1e-6);
  CHECK(nan.status.reason == StopReason::breakdown);
  CHECK(nan.status.cause == BreakdownCause::residual);
}

TEST_CASE("Jacobi refuses a zero or missing diagonal entry, naming the row", "[solvers][errors]") {
  Runtime& rt = test::gpu();
  KrylovSolver& s = solver_for(ValueType::f32, KrylovMethod::cg, Preconditioner::jacobi);
  {  // row 2's diagonal is an explicit zero
    const EigenCsr a =
        from_triplets(4, {{0, 0, 2.0}, {1, 1, 2.0}, {2, 2, 0.0}, {2, 1, 1.0}, {3, 3, 1.0}});
    const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(a)).value();
    const Status st = s.prepare(rt, A.view());
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("row 2 has a zero"));
  }
  {  // row 1 has no diagonal entry
    const EigenCsr a = from_triplets(3, {{0, 0, 2.0}, {1, 0, 1.0}, {2, 2, 1.0}});
    const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(a)).value();
    const Status st = s.prepare(rt, A.view());
    REQUIRE_FALSE(st.ok());
    CHECK_THAT(st.error().message, Catch::Contains("row 1 has no diagonal entry"));
  }
  {  // not square
    const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference([] {
                                            auto m = test::empty_matrix(2, 3);
                                            test::add_entry(m, 0, 0, 1.0);
                                            return m;
                                          }())))
                            .value();
    const Status st = s.prepare(rt, A.view());
    REQUIRE_FALSE(st.ok());
    CHECK_THAT(st.error().message, Catch::Contains("not square"));
  }
  {  // complex values: the solvers are real
    const std::vector<uint32_t> rp{0, 1, 2}, col{0, 1};
    const std::vector<std::complex<float>> val{{2.0f, 1.0f}, {3.0f, 0.0f}};
    const DeviceCsr A = DeviceCsr::upload(rt, 2, 2, std::span<const uint32_t>(rp),
                                          std::span<const uint32_t>(col),
                                          std::span<const std::complex<float>>(val))
                            .value();
    REQUIRE(A.is_complex());
    const Status st = s.prepare(rt, A.view());
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == Errc::unsupported);
    CHECK_THAT(st.error().message, Catch::Contains("not complex"));
  }
}

TEST_CASE("b == 0 gives x = 0, converged after 0 iterations; the iteration limit is exact",
          "[solvers]") {
  const EigenCsr a = poisson2d(8);
  for (const auto m : {KrylovMethod::cg, KrylovMethod::bicgstab}) {
    const auto z = gpu_solve<float>(a, std::vector<double>(size_t(a.rows()), 0.0), m,
                                    Preconditioner::jacobi, 1e-6);
    CHECK(z.status.reason == StopReason::converged);
    CHECK(z.status.iterations == 0);
    CHECK(z.x == std::vector<float>(size_t(a.rows()), 0.0f));
    const auto lim =
        gpu_solve<float>(a, rhs(size_t(a.rows()), 8), m, Preconditioner::none, 1e-12, 7);
    CHECK(lim.status.reason == StopReason::iteration_limit);
    CHECK(lim.status.iterations == 7);
    const auto none =
        gpu_solve<float>(a, rhs(size_t(a.rows()), 8), m, Preconditioner::none, 1e-6, 0);
    CHECK(none.status.reason == StopReason::converged);  // max_iterations 0: 2 * rows
  }
}

TEST_CASE("Solves are bit-identical from run to run; blocks past the stop change nothing",
          "[solvers][determinism]") {
  const EigenCsr a = convection_diffusion(16, 0.5);
  const auto b = rhs(size_t(a.rows()), 9);
  for (const auto m : {KrylovMethod::cg, KrylovMethod::bicgstab}) {
    const EigenCsr& mat = m == KrylovMethod::cg ? poisson2d(16) : a;
    const auto r1 = gpu_solve<float>(mat, b, m, Preconditioner::jacobi, 1e-5, 0, 16);
    const auto r2 = gpu_solve<float>(mat, b, m, Preconditioner::jacobi, 1e-5, 0, 16);
    REQUIRE(r1.status.reason == StopReason::converged);
    CHECK(r1.status.iterations == r2.status.iterations);
    CHECK(bit_identical(r1.x, r2.x));
    // One iteration per block, and one block far longer than needed: the same count, the same
    // bits.
    const auto one = gpu_solve<float>(mat, b, m, Preconditioner::jacobi, 1e-5, 0, 1);
    const auto long_block = gpu_solve<float>(mat, b, m, Preconditioner::jacobi, 1e-5, 0, 1000);
    CHECK(one.status.iterations == r1.status.iterations);
    CHECK(long_block.status.iterations == r1.status.iterations);
    CHECK(bit_identical(one.x, r1.x));
    CHECK(bit_identical(long_block.x, r1.x));
    if (has_f64()) {
      const auto d1 = gpu_solve<double>(mat, b, m, Preconditioner::none, 1e-9, 0, 5);
      const auto d2 = gpu_solve<double>(mat, b, m, Preconditioner::none, 1e-9, 0, 64);
      CHECK(d1.status.iterations == d2.status.iterations);
      CHECK(bit_identical(d1.x, d2.x));
    }
  }
}

TEST_CASE("A solve recorded into the caller's command buffer beside other work",
          "[solvers][recording]") {
  Runtime& rt = test::gpu();
  const EigenCsr a = poisson2d(12);
  const uint64_t n = uint64_t(a.rows());
  const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(a)).value();
  KrylovSolver& s = solver_for(ValueType::f32, KrylovMethod::cg, Preconditioner::jacobi);
  s.set_limits(1e-5, 0, 16).value();
  s.prepare(rt, A.view()).value();
  Buffer b = test::poisoned(rt, n * 4), x = test::poisoned(rt, n * 4),
         copy = test::poisoned(rt, n * 4);
  Buffer temp = test::poisoned(rt, s.temp_bytes(A.view()));
  Buffer status = rt.alloc(KrylovSolver::kStatusBytes, MemoryUsage::readback).value();
  s.bind(A.view(), b.view(), x.view(), temp.view()).value();
  auto fill = Fill::create(rt.context()).value();
  auto cp = Copy::create(rt.context()).value();
  // One command buffer: b = 1 (a fill), the whole solve in blocks that run past the stop, the
  // status, and a copy of x.
  rt.submit([&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(fill.record(cmd, b.view(), 1.0f));
      full_barrier(rt.context(), cmd);
      VKPRIM_TRY(s.record_start(cmd));
      for (int k = 0; k < 8; ++k) VKPRIM_TRY(s.record_iterations(cmd, 16));
      VKPRIM_TRY(s.record_status(cmd, status.view()));
      full_barrier(rt.context(), cmd);
      VKPRIM_TRY(cp.record(cmd, x.view(), copy.view(), n * 4));
      full_barrier(rt.context(), cmd);
      return {};
    }).value();
  status.invalidate().value();
  const SolverStatus st = s.decode_status(status.mapped());
  CHECK(st.reason == StopReason::converged);
  const auto xs = rt.download<float>(x.view(), n).value();
  const auto cs = rt.download<float>(copy.view(), n).value();
  CHECK(bit_identical(xs, cs));
  // The same system through the simple loop: the same iterations, the same bits.
  std::vector<double> ones(n, 1.0);
  const auto ref = gpu_solve<float>(a, ones, KrylovMethod::cg, Preconditioner::jacobi, 1e-5);
  CHECK(ref.status.iterations == st.iterations);
  CHECK(bit_identical(ref.x, xs));
  CHECK(true_residual(a, ones, ref.xd()) <= 1e-4);
}

TEST_CASE("Refused solver calls record nothing", "[solvers][errors][refused]") {
  Runtime& rt = test::gpu();
  const EigenCsr a = poisson2d(6);
  const uint64_t n = uint64_t(a.rows());
  const DeviceCsr A = DeviceCsr::upload(rt, test::to_csr_matrix(a)).value();
  KrylovOptions o;
  o.preconditioner = Preconditioner::jacobi;
  auto s = KrylovSolver::create(rt.context(), ValueType::f32, o).value();
  Buffer b = rt.upload(std::vector<float>(n, 1.0f)).value();
  Buffer x = test::poisoned(rt, n * 4);
  Status st = test::record_refused(rt, [&](VkCommandBuffer cmd) { return s.record_start(cmd); });
  CHECK_THAT(st.error().message, Catch::Contains("before bind"));
  CHECK_THAT(s.bind(A.view(), b.view(), x.view()).error().message,
             Catch::Contains("before prepare"));
  s.prepare(rt, A.view()).value();
  CHECK_THAT(s.bind(A.view(), b.view(), x.view()).error().message,
             Catch::Contains("no temporary storage"));
  Buffer temp = test::poisoned(rt, s.temp_bytes(A.view()));
  CHECK_THAT(s.bind(A.view(), b.view(), x.view().sub(0, n * 4 - 4), temp.view()).error().message,
             Catch::Contains("x holds"));
  CHECK_THAT(s.bind(A.view(), b.view(), b.view(), temp.view()).error().message,
             Catch::Contains("x overlaps"));
  st = test::record_refused(rt, [&](VkCommandBuffer cmd) { return s.record_iterations(cmd, 4); });
  CHECK_THAT(st.error().message, Catch::Contains("before bind"));
  CHECK(test::still_poisoned(rt, x, n * 4));
  CHECK(test::still_poisoned(rt, temp, s.temp_bytes(A.view())));
  CHECK(KrylovSolver::create(rt.context(), ValueType::u32).error().code == Errc::invalid_argument);
  KrylovOptions bad;
  bad.tolerance = -1;
  CHECK(KrylovSolver::create(rt.context(), ValueType::f32, bad).error().code ==
        Errc::invalid_argument);
  bad.tolerance = 1e-6;
  bad.check_every = 0;
  CHECK(KrylovSolver::create(rt.context(), ValueType::f32, bad).error().code ==
        Errc::invalid_argument);
}

TEST_CASE("The Eigen-style ConjugateGradient and BiCGSTAB", "[solvers][eigen]") {
  Runtime& rt = test::gpu();
  const EigenCsc p = poisson2d(12);
  Eigen::VectorXf bf = Eigen::VectorXf::Ones(p.rows());
  ConjugateGradient<Eigen::SparseMatrix<float>> cg(rt);
  cg.setTolerance(1e-5).setPreconditioner(Preconditioner::jacobi);
  cg.compute(p.cast<float>());
  REQUIRE(cg.info() == Eigen::Success);
  const Eigen::VectorXf x = cg.solve(bf);
  CHECK(cg.info() == Eigen::Success);
  CHECK(cg.iterations() > 0);
  CHECK(cg.error() <= 1e-5);
  CHECK((bf - p.cast<float>() * x).norm() / bf.norm() <= 1e-4);
  // The iteration limit, then the wrong size.
  cg.setMaxIterations(3);
  cg.solve(bf);
  CHECK(cg.info() == Eigen::NoConvergence);
  CHECK(cg.iterations() == 3);
  cg.solve(Eigen::VectorXf::Ones(5));
  CHECK(cg.info() == Eigen::InvalidInput);
  REQUIRE(cg.lastError());
  if (has_f64()) {
    const EigenCsc c = convection_diffusion(12, 1.0);
    BiCGSTAB<EigenCsc> bi(rt, c);
    const Eigen::VectorXd b = Eigen::VectorXd::Ones(c.rows());
    const Eigen::VectorXd xd = bi.solve(b);
    CHECK(bi.info() == Eigen::Success);
    CHECK((b - c * xd).norm() / b.norm() <= 1e-7);
  }
  // A zero diagonal under Jacobi: InvalidInput naming the row.
  ConjugateGradient<Eigen::SparseMatrix<float>> bad(rt);
  bad.setPreconditioner(Preconditioner::jacobi);
  Eigen::SparseMatrix<float> z(2, 2);
  z.insert(0, 0) = 1.0f;
  z.insert(1, 0) = 1.0f;
  bad.compute(z);
  CHECK(bad.info() == Eigen::InvalidInput);
  REQUIRE(bad.lastError());
  CHECK_THAT(bad.lastError()->message, Catch::Contains("row 1"));
}
