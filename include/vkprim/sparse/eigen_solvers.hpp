// Eigen-style Krylov solvers on the GPU (header-only: include it where Eigen is available;
// vkprim itself does not depend on Eigen), modelled on Eigen's iterative solvers:
//
//   vkprim::sparse::ConjugateGradient<Eigen::SparseMatrix<double>> cg(rt);
//   cg.setTolerance(1e-10).setPreconditioner(vkprim::sparse::Preconditioner::jacobi);
//   cg.compute(A);                       // uploads A, prepares the solver (blocks)
//   Eigen::VectorXd x = cg.solve(b);     // uploads b, iterates on the GPU, downloads x
//   if (cg.info() != Eigen::Success) ... cg.iterations(), cg.error()
//
// ConjugateGradient (symmetric positive (semi-)definite A) and BiCGSTAB (general square A) run
// KrylovSolver (solvers.hpp) on a vkprim::Runtime, with values of the matrix's Scalar (float or
// double; double needs shaderFloat64). Unlike Eigen's ConjugateGradient, which reads one
// triangle by default, ConjugateGradient uses every stored entry (Eigen's Lower|Upper).
//
// info(): Eigen::Success when the solve converged; NoConvergence at the iteration limit;
// NumericalIssue after a breakdown; InvalidInput when a call failed (lastError() says why: the
// matrix is not square, a Jacobi preconditioner meets a zero or missing diagonal entry naming
// its row, b has another size, a device error). No exception escapes these calls.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <optional>
#include <vector>
#include <vkprim/sparse/eigen.hpp>
#include <vkprim/sparse/solvers.hpp>

namespace vkprim::sparse {

namespace eigen_detail {

template <class MatrixType, KrylovMethod Method>
class EigenKrylov {
 public:
  using Scalar = typename MatrixType::Scalar;
  using VectorType = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  static_assert(std::is_same_v<Scalar, float> || std::is_same_v<Scalar, double>,
                "vkprim Krylov solvers: float or double values");

  // Requires rt to outlive the solver.
  explicit EigenKrylov(Runtime& rt) : rt_(&rt) {}
  EigenKrylov(Runtime& rt, const MatrixType& a) : rt_(&rt) { compute(a); }

  // Relative residual to stop at (default 1e-8 for double, 1e-5 for float); takes effect at
  // the next solve().
  EigenKrylov& setTolerance(double tol) {
    opt_.tolerance = tol;
    return *this;
  }
  // At most this many iterations (default 2 * rows, as Eigen); takes effect at the next solve().
  EigenKrylov& setMaxIterations(uint64_t n) {
    opt_.max_iterations = n;
    return *this;
  }
  // none (default) or Jacobi; takes effect at the next compute().
  EigenKrylov& setPreconditioner(Preconditioner p) {
    opt_.preconditioner = p;
    return *this;
  }
  // Iterations per status read of the loop (KrylovOptions::check_every).
  EigenKrylov& setCheckEvery(uint32_t n) {
    opt_.check_every = n;
    return *this;
  }
  double tolerance() const { return opt_.tolerance; }
  uint64_t maxIterations() const { return opt_.max_iterations ? opt_.max_iterations : 2 * rows_; }

  // Uploads A (any Eigen::SparseMatrix; column-major ones converted on the host), creates the
  // solver and prepares it (the product's analysis; with Jacobi, the inverse diagonal). Blocks.
  EigenKrylov& compute(const MatrixType& a) {
    error_.reset();
    solver_.reset();
    a_.reset();
    rows_ = uint64_t(a.rows());
    DeviceCsrOptions dopt;
    dopt.values = value_type_of<Scalar>();
    auto up = upload(*rt_, a, dopt);
    if (!up) return fail(up.error());
    a_ = std::move(*up);
    KrylovOptions o = opt_;
    o.method = Method;
    auto s = KrylovSolver::create(rt_->context(), dopt.values, o);
    if (!s) return fail(s.error());
    if (auto st = s->prepare(*rt_, a_->view()); !st) return fail(st.error());
    if (auto st = s->reserve(a_->rows(), a_->nnz()); !st) return fail(st.error());
    solver_ = std::move(*s);
    prepared_preconditioner_ = opt_.preconditioner;
    info_ = Eigen::Success;
    return *this;
  }

  // x with A x = b to the tolerance, starting from x = 0 (b of rows entries). On an error, or
  // before a successful compute(), info() is InvalidInput and x is zero.
  VectorType solve(const VectorType& b) {
    VectorType x = VectorType::Zero(Eigen::Index(rows_));
    status_ = SolverStatus{};
    if (!solver_ || !a_) {
      if (!error_)
        error_ = make_error(Errc::invalid_argument, "solve() before a successful compute()");
      info_ = Eigen::InvalidInput;
      return x;
    }
    if (uint64_t(b.size()) != rows_) {
      error_ =
          make_error(Errc::invalid_argument, "solve(): b has " + std::to_string(b.size()) +
                                                 " entries, A " + std::to_string(rows_) + " rows");
      info_ = Eigen::InvalidInput;
      return x;
    }
    if (prepared_preconditioner_ != opt_.preconditioner) {
      error_ = make_error(Errc::invalid_argument,
                          "solve(): setPreconditioner() takes effect at the next compute()");
      info_ = Eigen::InvalidInput;
      return x;
    }
    error_.reset();
    auto r = run(b, x);
    if (!r) {
      error_ = r.error();
      info_ = Eigen::InvalidInput;
      x.setZero();
      return x;
    }
    status_ = *r;
    info_ = status_.reason == StopReason::converged         ? Eigen::Success
            : status_.reason == StopReason::iteration_limit ? Eigen::NoConvergence
                                                            : Eigen::NumericalIssue;
    return x;
  }

  Eigen::ComputationInfo info() const { return info_; }
  // Iterations of the last solve().
  Eigen::Index iterations() const { return Eigen::Index(status_.iterations); }
  // ||r|| / ||b|| of the last solve()'s recursively updated residual.
  double error() const { return status_.residual; }
  const SolverStatus& status() const { return status_; }
  // The error behind info() == InvalidInput (empty otherwise).
  const std::optional<Error>& lastError() const { return error_; }

 private:
  EigenKrylov& fail(Error e) {
    error_ = std::move(e);
    info_ = Eigen::InvalidInput;
    solver_.reset();
    return *this;
  }
  Result<SolverStatus> run(const VectorType& b, VectorType& x) {
    const size_t n = size_t(rows_);
    std::vector<Scalar> hb(b.data(), b.data() + n);
    auto bb = rt_->alloc(std::max<size_t>(n, 1) * sizeof(Scalar));
    if (!bb) return bb.error();
    if (n) VKPRIM_TRY(rt_->upload(bb->view(), hb.data(), n * sizeof(Scalar)));
    auto xb = rt_->alloc(std::max<size_t>(n, 1) * sizeof(Scalar));
    if (!xb) return xb.error();
    VKPRIM_TRY(solver_->set_limits(opt_.tolerance, opt_.max_iterations, opt_.check_every));
    VKPRIM_TRY(solver_->bind(a_->view(), bb->view(), xb->view()));
    auto s = solver_->solve(*rt_);
    if (!s) return s.error();
    if (n) {
      auto hx = rt_->template download<Scalar>(xb->view(), n);
      if (!hx) return hx.error();
      for (size_t i = 0; i < n; ++i) x[Eigen::Index(i)] = (*hx)[i];
    }
    return *s;
  }

  static KrylovOptions default_options() {
    KrylovOptions o;
    o.tolerance = std::is_same_v<Scalar, float> ? 1e-5 : 1e-8;
    return o;
  }

  Runtime* rt_;
  KrylovOptions opt_ = default_options();
  std::optional<DeviceCsr> a_;
  std::optional<KrylovSolver> solver_;
  Preconditioner prepared_preconditioner_ = Preconditioner::none;
  uint64_t rows_ = 0;
  Eigen::ComputationInfo info_ = Eigen::InvalidInput;
  SolverStatus status_;
  std::optional<Error> error_;
};

}  // namespace eigen_detail

// Conjugate gradients on the GPU for symmetric positive (semi-)definite A (every stored entry).
template <class MatrixType>
using ConjugateGradient = eigen_detail::EigenKrylov<MatrixType, KrylovMethod::cg>;
// BiCGSTAB on the GPU for general square A.
template <class MatrixType>
using BiCGSTAB = eigen_detail::EigenKrylov<MatrixType, KrylovMethod::bicgstab>;

}  // namespace vkprim::sparse
