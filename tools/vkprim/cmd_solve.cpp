// `vkprim solve A.mtx [--generate KIND:N] [--rhs b.mtx|ones|random] [--method cg|bicgstab]
// [--precond none|jacobi] [--values f32|f64] [--tol T] [--max-iterations N] [--json FILE]`:
// reads the matrix (any file the matrix reader takes; symmetric storage expanded) or generates
// one, builds its CSR on the GPU, solves A x = b with the Krylov solver (KrylovSolver), and
// checks the result against Eigen's solver of the same method, preconditioner and value type on
// the same system: the iteration counts within 10 % or 5, the true residual ||b - A x|| / ||b||
// (recomputed on the CPU in f64) within what the tolerance implies (10 tol, or twice Eigen's own),
// and the two solutions' difference in the residual norm, ||A (x - x_eigen)|| / ||b||, within
// the sum of the two. Exit 1 when the GPU solve does not converge or a check fails.
// With --no-check (benchmarks of solves too large for Eigen's solver to follow in reasonable
// time) it skips Eigen, still recomputes the true residual on the CPU, and exits 1 only when
// the solve breaks down. The report and the JSON give the time per iteration and the bytes one
// iteration moves (iteration_bytes below): priced at the copy's bandwidth, the iteration's
// bandwidth floor (tools/device/bench.sh solvers).
#include <unistd.h>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>
#include <vkprim/barrier.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sparse/csr_build.hpp>
#include <vkprim/sparse/device_csr.hpp>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/solvers.hpp>
#include <vkprim/timing.hpp>

#include "core/atomic_file.hpp"
#include "matrix_generators.hpp"
#include "sparse_cli.hpp"

namespace vkprim::cli {

namespace {

struct SolveCliOptions {
  std::string rhs = "ones";
  sparse::KrylovMethod method = sparse::KrylovMethod::cg;
  sparse::Preconditioner precond = sparse::Preconditioner::none;
  double tol = 0;  // 0: 1e-8 for f64, 1e-5 for f32
  uint64_t max_iterations = 0;
  uint32_t check_every = 0;  // 0: KrylovOptions' default
  bool check = true;  // false: --no-check
};

// The bytes one iteration of the solver's passes reads and writes at the least: each SpMV reads
// the matrix (values, column indices, row offsets) and its input vector once and writes its
// output; each vector pass (shaders/solvers/solver_vector.comp) reads and writes every vector it
// touches once. CG: A p with p.q summed by the product (KrylovSolver::product_sums_dot; a
// separate p.q pass adds 2 vectors), r -= alpha q (2 read, 1 written), x += alpha p and
// p = r + beta p (3 read, 2 written); Jacobi adds the inverse diagonal's read to both passes.
// BiCGSTAB: two SpMVs and 19 vector streams (23 with Jacobi).
uint64_t iteration_bytes(sparse::KrylovMethod method, bool jacobi, uint64_t rows, uint64_t nnz,
                         uint64_t esz, uint64_t row_ptr_bytes) {
  const uint64_t spmv = nnz * (esz + 4) + (rows + 1) * row_ptr_bytes + 2 * rows * esz;
  if (method == sparse::KrylovMethod::cg) return spmv + (jacobi ? 10 : 8) * rows * esz;
  return 2 * spmv + (jacobi ? 23 : 19) * rows * esz;
}

struct SolveRecord {
  std::string name;
  int64_t rows = 0, nnz = 0;
  std::string values;
  double tol = 0;
  uint64_t max_iterations = 0;
  sparse::SolverStatus status;
  uint64_t recorded_iterations = 0;
  double gpu_ms = 0, wall_ms = 0, true_residual = 0;
  int64_t eigen_iterations = 0;
  double eigen_error = 0, eigen_true_residual = 0, x_diff = 0, diff_residual = 0;
  std::string eigen_info;
  bool checked = false;  // against Eigen (not with --no-check)
  bool iterations_ok = false, residual_ok = false, diff_ok = false, verified = false;
  uint64_t iteration_bytes = 0;
  uint32_t check_every = 0;
  bool product_sums_dot = false;
};

// b from --rhs: ones, random (fixed hashed values in [-1, 1]), or a Matrix Market vector file
// (n x 1 or 1 x n; entries not stored are 0).
Result<std::vector<double>> make_rhs(const std::string& spec, int64_t n) {
  std::vector<double> b(size_t(n), 0.0);
  if (spec == "ones") {
    std::fill(b.begin(), b.end(), 1.0);
  } else if (spec == "random") {
    for (int64_t i = 0; i < n; ++i)
      b[size_t(i)] = double(int(gen_hash(uint64_t(i) + 777) % 2001) - 1000) / 1000.0;
  } else {
    auto v = sparse::read_matrix_file(spec, matrix_read_options(spec, true, true));
    if (!v) return v.error();
    if (v->field == sparse::Field::complex)
      return make_error(Errc::unsupported, "--rhs " + spec + ": complex values; the solvers are real");
    if (!((v->rows == n && v->cols == 1) || (v->rows == 1 && v->cols == n)))
      return make_error(Errc::invalid_argument,
                        fmt::format("--rhs {}: a {} x {} matrix, not a vector of {} entries", spec,
                                    v->rows, v->cols, n));
    for (int64_t k = 0; k < v->nnz(); ++k)
      b[size_t(v->cols == 1 ? v->row_indices[size_t(k)] : v->col_indices[size_t(k)])] +=
          v->value(k);
  }
  return b;
}

template <class T, class Pre, class Solver>
void eigen_run(Solver& s, const Eigen::SparseMatrix<T>& a, const Eigen::Matrix<T, -1, 1>& b,
               double tol, uint64_t max_it, Eigen::Matrix<T, -1, 1>& x, SolveRecord& r) {
  s.setTolerance(T(tol));
  s.setMaxIterations(Eigen::Index(max_it));
  s.compute(a);
  x = s.solve(b);
  r.eigen_iterations = int64_t(s.iterations());
  r.eigen_error = double(s.error());
  r.eigen_info = s.info() == Eigen::Success         ? "converged"
                 : s.info() == Eigen::NoConvergence ? "iteration_limit"
                                                    : "numerical_issue";
}

// ||b - A x|| / ||b|| (||b - A x|| where b = 0) in f64, straight from the triplets (A's values
// as the solve saw them, rounded to T): no matrix built, so it stays cheap for --no-check's
// large systems.
template <class T>
double true_residual(const sparse::CooMatrix& coo, const std::vector<T>& b, const std::vector<T>& x) {
  std::vector<double> r(b.begin(), b.end());
  for (int64_t k = 0; k < coo.nnz(); ++k)
    r[size_t(coo.row_indices[size_t(k)])] -=
        double(T(coo.value(k))) * double(x[size_t(coo.col_indices[size_t(k)])]);
  double rr = 0, bb = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    rr += r[i] * r[i];
    bb += double(b[i]) * double(b[i]);
  }
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

template <class T>
Result<SolveRecord> run_solve(Runtime& rt, const std::string& name, const sparse::CooMatrix& coo,
                              const SolveCliOptions& cli) {
  SolveRecord rec;
  rec.name = name;
  rec.rows = coo.rows;
  rec.values = to_string(value_type_of<T>());
  if (coo.rows != coo.cols)
    return make_error(
        Errc::invalid_argument,
        fmt::format("{}: a {} x {} matrix; solve needs a square one", name, coo.rows, coo.cols));
  if (coo.rows >= (int64_t(1) << 31) || coo.nnz() >= (int64_t(1) << 31))
    return make_error(Errc::limit_exceeded,
                      name + ": too large for the Eigen reference (int indices)");
  rec.tol = cli.tol > 0 ? cli.tol : (sizeof(T) == 8 ? 1e-8 : 1e-5);
  rec.max_iterations = cli.max_iterations ? cli.max_iterations : uint64_t(2 * coo.rows);
  auto b = make_rhs(cli.rhs, coo.rows);
  if (!b) return b.error();

  // CSR built on the GPU from the triplets, as `vkprim spmv` builds it.
  sparse::DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  auto a = sparse::build_csr(rt, coo, dopt);
  if (!a) return a.error();
  rec.nnz = int64_t(a->nnz());
  const uint64_t n = uint64_t(coo.rows);
  rec.iteration_bytes = iteration_bytes(cli.method, cli.precond == sparse::Preconditioner::jacobi,
                                        n, a->nnz(), sizeof(T), a->view().row_ptr_64 ? 8 : 4);
  const auto en = Eigen::Index(n);

  sparse::KrylovOptions o;
  o.method = cli.method;
  o.preconditioner = cli.precond;
  o.tolerance = rec.tol;
  o.max_iterations = rec.max_iterations;
  if (cli.check_every) o.check_every = cli.check_every;
  rec.check_every = o.check_every;
  auto solver = sparse::KrylovSolver::create(rt.context(), value_type_of<T>(), o);
  if (!solver) return solver.error();
  VKPRIM_TRY(solver->prepare(rt, a->view()));
  rec.product_sums_dot = solver->product_sums_dot();
  VKPRIM_TRY(solver->reserve(n, a->nnz()));
  std::vector<T> bt(b->begin(), b->end());
  auto bb = rt.alloc(std::max<uint64_t>(n, 1) * sizeof(T));
  if (!bb) return bb.error();
  if (n) VKPRIM_TRY(rt.upload(bb->view(), bt.data(), n * sizeof(T)));
  auto xb = rt.alloc(std::max<uint64_t>(n, 1) * sizeof(T));
  if (!xb) return xb.error();
  VKPRIM_TRY(solver->bind(a->view(), bb->view(), xb->view()));
  auto status_buf = rt.alloc(sparse::KrylovSolver::kStatusBytes, MemoryUsage::readback);
  if (!status_buf) return status_buf.error();
  auto timer = GpuTimer::create(rt.context(), 2);
  if (!timer) return timer.error();

  // Blocks of check_every iterations, each timed by two timestamps; the status read between
  // blocks. A progress line on a terminal.
  const bool tty = isatty(STDERR_FILENO);
  const auto w0 = std::chrono::steady_clock::now();
  auto last_print = w0;
  bool printed = false;
  sparse::SolverStatus st;
  bool first = true;
  while (true) {
    const uint64_t left =
        rec.max_iterations > st.iterations ? rec.max_iterations - st.iterations : 0;
    const uint32_t block = uint32_t(std::clamp<uint64_t>(left, 1, o.check_every));
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) -> Status {
      timer->reset(cmd);
      timer->stamp(cmd, 0);
      if (first) VKPRIM_TRY(solver->record_start(cmd));
      VKPRIM_TRY(solver->record_iterations(cmd, block));
      timer->stamp(cmd, 1);
      VKPRIM_TRY(solver->record_status(cmd, status_buf->view()));
      full_barrier(rt.context(), cmd);
      return {};
    }));
    first = false;
    rec.recorded_iterations += block;
    auto ms = timer->read_ms(2);
    if (!ms) return ms.error();
    rec.gpu_ms += (*ms)[1] - (*ms)[0];
    VKPRIM_TRY(status_buf->invalidate());
    st = solver->decode_status(status_buf->mapped());
    const auto now = std::chrono::steady_clock::now();
    // Long solves only: a line every quarter second once one has passed, ended when it stops.
    if (tty && ((st.done() && printed) || now - last_print > std::chrono::milliseconds(250))) {
      fmt::print(stderr, "\r{}: iteration {}, residual {:.3e}{}", name, st.iterations, st.residual,
                 st.done() ? "\n" : "");
      std::fflush(stderr);
      last_print = now;
      printed = true;
    }
    if (st.done()) break;
    if (rec.recorded_iterations > rec.max_iterations + o.check_every)
      return make_error(Errc::vulkan_error,
                        name + ": the solver's status still reads running after " +
                            std::to_string(rec.recorded_iterations) + " iterations");
  }
  rec.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
  rec.status = st;
  auto x = rt.download<T>(xb->view(), n);
  if (!x) return x.error();

  rec.true_residual = true_residual(coo, bt, *x);
  if (!cli.check) return rec;
  rec.checked = true;

  // The CPU side: the matrix in f64 for the residuals, in T for Eigen's solver.
  std::vector<Eigen::Triplet<double>> trip;
  trip.reserve(size_t(coo.nnz()));
  for (int64_t k = 0; k < coo.nnz(); ++k)
    trip.emplace_back(int(coo.row_indices[size_t(k)]), int(coo.col_indices[size_t(k)]),
                      double(T(coo.value(k))));
  Eigen::SparseMatrix<double> ad(en, en);
  ad.setFromTriplets(trip.begin(), trip.end());
  const Eigen::SparseMatrix<T> at = ad.template cast<T>();
  Eigen::VectorXd bd(en), xd(en);
  for (uint64_t i = 0; i < n; ++i) {
    bd[Eigen::Index(i)] = double(bt[i]);
    xd[Eigen::Index(i)] = double((*x)[i]);
  }
  const double bnorm = bd.norm();
  const auto rel = [&](const Eigen::VectorXd& v) {
    return bnorm > 0 ? v.norm() / bnorm : v.norm();
  };

  const Eigen::Matrix<T, -1, 1> be = bd.cast<T>();
  Eigen::Matrix<T, -1, 1> xe;
  using Jac = Eigen::DiagonalPreconditioner<T>;
  using Id = Eigen::IdentityPreconditioner;
  constexpr int kBoth = Eigen::Lower | Eigen::Upper;
  const bool jac = cli.precond == sparse::Preconditioner::jacobi;
  if (cli.method == sparse::KrylovMethod::cg) {
    if (jac) {
      Eigen::ConjugateGradient<Eigen::SparseMatrix<T>, kBoth, Jac> s;
      eigen_run<T, Jac>(s, at, be, rec.tol, rec.max_iterations, xe, rec);
    } else {
      Eigen::ConjugateGradient<Eigen::SparseMatrix<T>, kBoth, Id> s;
      eigen_run<T, Id>(s, at, be, rec.tol, rec.max_iterations, xe, rec);
    }
  } else if (jac) {
    Eigen::BiCGSTAB<Eigen::SparseMatrix<T>, Jac> s;
    eigen_run<T, Jac>(s, at, be, rec.tol, rec.max_iterations, xe, rec);
  } else {
    Eigen::BiCGSTAB<Eigen::SparseMatrix<T>, Id> s;
    eigen_run<T, Id>(s, at, be, rec.tol, rec.max_iterations, xe, rec);
  }
  const Eigen::VectorXd xed = xe.template cast<double>();
  rec.eigen_true_residual = rel(bd - ad * xed);
  rec.x_diff = xed.norm() > 0 ? (xd - xed).norm() / xed.norm() : (xd - xed).norm();
  rec.diff_residual = rel(ad * (xd - xed));

  // Eigen's ConjugateGradient does not count the iteration it converges in (one less than
  // ours); its BiCGSTAB counts as this solver does.
  const double di = std::abs(double(st.iterations) - double(rec.eigen_iterations));
  rec.iterations_ok = di <= 5 || di <= 0.1 * double(rec.eigen_iterations);
  const double allowed = std::max(10 * rec.tol, 2 * rec.eigen_true_residual);
  rec.residual_ok = rec.true_residual <= allowed;
  rec.diff_ok = rec.diff_residual <= rec.true_residual + rec.eigen_true_residual + rec.tol;
  rec.verified = st.converged() && rec.iterations_ok && rec.residual_ok && rec.diff_ok;
  return rec;
}

}  // namespace

void register_solve(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "solve", "Solve A x = b on the GPU (CG or BiCGSTAB), checked against Eigen's solver");
  static std::string file, generate, values = "f64", json_path, rhs = "ones", method = "cg",
                                     precond = "none";
  static double tol = 0;
  static uint64_t max_iterations = 0;
  static uint32_t check_every = sparse::KrylovOptions{}.check_every;
  static bool no_check = false;
  cmd->add_option("FILE", file, "Matrix file (.mtx, .mtx.gz, .bsp.h5); square");
  cmd->add_option("--generate", generate,
                  "Generated matrix instead of a file: poisson2d:N, poisson3d:N (SPD), convdiff:N "
                  "(nonsymmetric), band:N:K, powerlaw:N, arrow:N");
  cmd->add_option("--rhs", rhs, "Right-hand side: ones, random, or a Matrix Market vector file")
      ->capture_default_str();
  cmd->add_option("--method", method, "cg (symmetric positive definite A) or bicgstab (general)")
      ->check(CLI::IsMember({"cg", "bicgstab"}))
      ->capture_default_str();
  cmd->add_option("--precond", precond, "Preconditioner: none or jacobi")
      ->check(CLI::IsMember({"none", "jacobi"}))
      ->capture_default_str();
  cmd->add_option("--values", values, "Value type")
      ->check(CLI::IsMember({"f32", "f64"}))
      ->capture_default_str();
  cmd->add_option("--tol", tol, "Relative residual to stop at (default 1e-8 for f64, 1e-5 for f32)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--max-iterations", max_iterations, "At most this many iterations (0: 2 * rows)")
      ->check(decimal_in(0, 0xFFFFFFFFull))
      ->capture_default_str();
  cmd->add_option("--check-every", check_every,
                  "Iterations per status read (KrylovOptions::check_every): each read is a "
                  "submission and a wait")
      ->check(decimal_in(1, 0xFFFFFFFFull))
      ->capture_default_str();
  cmd->add_option("--json", json_path,
                  "Write JSON records to FILE (replaced only once complete; - for stdout: the "
                  "report goes to stderr)");
  cmd->add_flag("--no-check", no_check,
                "Skip Eigen's solve (benchmarks): report the GPU solve and its true residual; exit "
                "1 only when it breaks down");
  cmd->callback([&action] {
    action = [] {
      if (auto problem = device_selector_problem(); !problem.empty())
        return report(make_error(Errc::invalid_argument, problem), kExitUsage);
      if (file.empty() == generate.empty())
        return report(
            make_error(Errc::invalid_argument, "solve: give one matrix FILE or --generate"),
            kExitUsage);
      if (!file.empty())
        if (auto same = same_file_problem(file, json_path); !same.empty())
          return report(make_error(Errc::invalid_argument, same), kExitUsage);
      std::string name;
      sparse::CooMatrix m;
      if (!generate.empty()) {
        auto g = generate_matrix(generate);
        if (!g) return report(g.error(), kExitUsage);
        m = std::move(*g);
        name = generate;
      } else {
        if (auto fmt = sparse::format_of(file); !fmt) return report(fmt.error(), kExitUsage);
        auto r = sparse::read_matrix_file(file, matrix_read_options(file, true, false));
        if (!r) return report(r.error());
        if (r->field == sparse::Field::complex)
          return report(make_error(Errc::unsupported,
                                   file + ": a complex matrix; the solvers take real ones"));
        m = std::move(*r);
        name = std::filesystem::path(file).filename().string();
      }
      auto rt = Runtime::create();
      if (!rt) return report(rt.error());
      SolveCliOptions cli;
      cli.rhs = rhs;
      cli.method = method == "bicgstab" ? sparse::KrylovMethod::bicgstab : sparse::KrylovMethod::cg;
      cli.precond =
          precond == "jacobi" ? sparse::Preconditioner::jacobi : sparse::Preconditioner::none;
      cli.tol = tol;
      cli.max_iterations = max_iterations;
      cli.check_every = check_every;
      cli.check = !no_check;
      auto rec = values == "f64" ? run_solve<double>(*rt, name, m, cli)
                                 : run_solve<float>(*rt, name, m, cli);
      if (!rec) return report(rec.error());
      const SolveRecord& r = *rec;
      std::FILE* out = json_path == "-" ? stderr : stdout;
      const auto& c = rt->caps();
      // Per iteration run: the iterations recorded after the solve stopped (at most
      // check_every - 1, each a few passes that return at once) count as part of its time.
      const double per_it = r.status.iterations ? r.gpu_ms / double(r.status.iterations)
                            : r.recorded_iterations ? r.gpu_ms / double(r.recorded_iterations) : 0.0;
      fmt::print(out, "device: {} ({}), subgroup size {}\n", c.device_name, c.driver_name,
                 c.subgroup_size);
      fmt::print(out,
                 "{}: {} rows, {} nonzeros, {}, {} with {} preconditioner, tol {:.1e}, rhs {}\n",
                 r.name, r.rows, r.nnz, r.values, method, precond, r.tol, rhs);
      std::string reason = to_string(r.status.reason);
      if (r.status.reason == sparse::StopReason::breakdown)
        reason += std::string(" (") + to_string(r.status.cause) + ")";
      fmt::print(out,
                 "GPU: {} after {} iterations, relative residual {:.3e} (recursive), {:.3e} "
                 "(recomputed on the CPU in f64)\n",
                 reason, r.status.iterations, r.status.residual, r.true_residual);
      fmt::print(out,
                 "GPU time: {:.3f} ms over {} recorded iterations, {:.4f} ms per iteration run "
                 "(timestamps); {:.1f} ms wall, a status read every {} iterations\n",
                 r.gpu_ms, r.recorded_iterations, per_it, r.wall_ms, r.check_every);
      fmt::print(out,
                 "traffic: {:.1f} MB per iteration at the least ({:.0f} GB/s at this time){}\n",
                 double(r.iteration_bytes) / 1e6,
                 per_it > 0 ? double(r.iteration_bytes) / (per_it * 1e6) : 0.0,
                 method != "cg"          ? ""
                 : r.product_sums_dot ? "; p.Ap summed by the product"
                                      : "; p.Ap in a pass of its own");
      if (!r.checked) fmt::print(out, "check: skipped (--no-check)\n");
      else fmt::print(out, "Eigen {}: {} after {} iterations, error {:.3e}, residual {:.3e}\n", method,
                 r.eigen_info, r.eigen_iterations, r.eigen_error, r.eigen_true_residual);
      if (r.checked) fmt::print(out,
                 "check: iterations {} ({} vs {}), residual {}, ||x - x_eigen|| / ||x_eigen|| "
                 "{:.3e}, ||A (x - x_eigen)|| / ||b|| {:.3e} {}: {}\n",
                 r.iterations_ok ? "ok" : "DIFFER", r.status.iterations, r.eigen_iterations,
                 r.residual_ok ? "ok" : "TOO LARGE", r.x_diff, r.diff_residual,
                 r.diff_ok ? "ok" : "TOO LARGE", r.verified ? "verified" : "NOT verified");
      if (!json_path.empty()) {
        nlohmann::json arr = nlohmann::json::array();
        arr.push_back({{"device", c.device_name},
                       {"driver", c.driver_name + " " + c.driver_info},
                       {"subgroup_size", c.subgroup_size},
                       {"operation", "solve"},
                       {"matrix", r.name},
                       {"type", r.values},
                       {"rows", r.rows},
                       {"nnz", r.nnz},
                       {"method", method},
                       {"preconditioner", precond},
                       {"rhs", rhs},
                       {"tol", r.tol},
                       {"max_iterations", r.max_iterations},
                       {"iterations", r.status.iterations},
                       {"stop_reason", to_string(r.status.reason)},
                       {"breakdown_cause", to_string(r.status.cause)},
                       {"residual", r.status.residual},
                       {"true_residual", r.true_residual},
                       {"recorded_iterations", r.recorded_iterations},
                       {"gpu_ms", r.gpu_ms},
                       {"ms_per_iteration", per_it},
                       {"iteration_bytes", r.iteration_bytes},
                       {"check_every", r.check_every},
                       {"product_sums_dot", r.product_sums_dot},
                       {"checked", r.checked},
                       {"wall_ms", r.wall_ms},
                       {"verified", r.verified}});
        if (r.checked) {
          auto& rec = arr.back();
          rec["eigen_iterations"] = r.eigen_iterations;
          rec["eigen_error"] = r.eigen_error;
          rec["eigen_true_residual"] = r.eigen_true_residual;
          rec["x_diff"] = r.x_diff;
          rec["diff_residual"] = r.diff_residual;
        }
        if (json_path == "-") {
          std::cout << arr.dump(2) << "\n";  // a failed write is reported by main
        } else if (auto written =
                       vkprim::detail::write_file_atomically(json_path, arr.dump(2) + "\n");
                   !written) {
          return report(written.error());
        }
      }
      if (!r.checked) {
        const bool ran = r.status.converged() || r.status.reason == sparse::StopReason::iteration_limit;
        if (ran) return kExitOk;
        fmt::print(stderr, "vkprim: {}: the GPU solve stopped: {}\n", r.name, reason);
        return kExitFailure;
      }
      if (!r.verified) {
        fmt::print(stderr, "vkprim: {}: {}\n", r.name,
                   !r.status.converged()
                       ? "the GPU solve did not converge: " + reason
                       : std::string("the solution differs from Eigen's beyond the checks"));
        return kExitFailure;
      }
      return kExitOk;
    };
  });
}

}  // namespace vkprim::cli
