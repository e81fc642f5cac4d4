// Krylov solvers on the GPU for A x = b, A a square CSR matrix (device_csr.hpp), f32 or f64
// values (f64 where the device has shaderFloat64; Errc::unsupported otherwise):
//
// * conjugate gradients (KrylovMethod::cg), for symmetric positive definite A (and positive
//   semi-definite A with b in its range: a consistent singular system converges too);
// * BiCGSTAB (KrylovMethod::bicgstab, van der Vorst's stabilized bi-conjugate gradients, right
//   preconditioned as Eigen's BiCGSTAB is), for general square A.
//
// Preconditioner: none, or Jacobi (z = r / diag(A); prepare() refuses a matrix with a zero,
// non-finite or missing diagonal entry, naming the row). The iteration starts from x = 0 and
// stops when the recursively updated residual r satisfies ||r|| <= tolerance * ||b||
// (converged), after max_iterations iterations (iteration_limit), or when a divisor of the
// method (p.Ap, r.z, r0.v, r0.r, omega) is zero or not finite, or ||r|| is not finite
// (breakdown): a breakdown leaves x at the last complete iterate and is reported as such, never
// as converged. b == 0 gives x = 0, converged after 0 iterations.
//
// The iteration stays on the GPU (docs/sparse-gpu.md, "Solvers"): A p is vkprim's Spmv with an
// analysis made once in prepare(); every dot product is a fixed-order reduction (per-workgroup
// partial sums, then one workgroup adding them in order; no float atomics), so a solve is
// bit-identical from run to run; alpha, beta and omega are computed by one-workgroup passes
// into a small state in the workspace; the vector updates are fused with the dot products that
// follow them and with the preconditioner (CG: one pass for x += alpha p, r -= alpha q, z = M r
// and the partial sums of r.r and r.z). Once a solve has stopped, every later pass of the
// solver skips (a stop reason in the state that the passes read), so a recorded block of
// iterations may run past the stop without changing x, and the iteration count is exact. The
// host reads the status between blocks only.
//
// Two forms: KrylovSolver below records into the caller's command buffers; the Eigen-style
// ConjugateGradient and BiCGSTAB (sparse/eigen_solvers.hpp) run on a Runtime.
//
// Synchronization owed by the caller (as spmv.hpp): before record_start() and
// record_iterations() — writes of A and b -> COMPUTE_SHADER / SHADER_READ (and earlier users of
// x and the workspace -> SHADER_WRITE); after — COMPUTE_SHADER / SHADER_WRITE -> the consumer
// of x, or of the status record_status() writes (HOST / HOST_READ for a mapped buffer). vkprim
// records the barriers between its own passes, including one before its first pass of each
// call. State overwritten: compute pipeline, push constants.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vkprim/buffer.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sparse/device_csr.hpp>
#include <vkprim/sparse/spmv.hpp>
#include <vkprim/types.hpp>

namespace vkprim::sparse {

enum class KrylovMethod : uint32_t {
  cg = 0,        // conjugate gradients: symmetric positive (semi-)definite A
  bicgstab = 1,  // BiCGSTAB: general square A
};
enum class Preconditioner : uint32_t {
  none = 0,
  jacobi = 1,  // inverse diagonal
};
// Why a solve stopped (SolverStatus::reason); `running` while it has not.
enum class StopReason : uint32_t {
  running = 0,
  converged = 1,        // ||r|| <= tolerance * ||b||
  iteration_limit = 2,  // max_iterations iterations without converging
  breakdown = 3,        // a zero or non-finite divisor or residual (SolverStatus::cause)
};
// What broke down (SolverStatus::cause).
enum class BreakdownCause : uint32_t {
  none = 0,
  rho = 1,       // r.z (CG) or r0.r (BiCGSTAB) zero or not finite
  p_ap = 2,      // p.Ap zero or not finite (CG; an indefinite matrix)
  r0_v = 3,      // r0.v zero or not finite (BiCGSTAB)
  omega = 4,     // omega zero or not finite (BiCGSTAB)
  residual = 5,  // r.r or b.b not finite
};
const char* to_string(KrylovMethod m);    // "cg", "bicgstab"
const char* to_string(Preconditioner p);  // "none", "jacobi"
const char* to_string(StopReason r);      // "running", "converged", "iteration_limit", "breakdown"
const char* to_string(BreakdownCause c);  // "none", "rho", "p.Ap", "r0.v", "omega", "residual"

struct KrylovOptions {
  KrylovMethod method = KrylovMethod::cg;
  Preconditioner preconditioner = Preconditioner::none;
  // Relative residual to stop at: ||r|| <= tolerance * ||b|| (checked on the GPU after every
  // iteration, in the value type: tolerance^2 * b.b).
  double tolerance = 1e-8;
  // At most this many iterations; 0: 2 * rows (Eigen's default).
  uint64_t max_iterations = 0;
  // Iterations per block of the simple loop (solve()): the host reads the status once per
  // block. A read is a submission and a wait, which costs about as much as a block of
  // iterations on small systems; the iterations of a block after the stop never change the
  // result, but each still runs its product (the vector passes skip). 16 by default: close to
  // the best interval on short and long solves alike (docs/sparse-gpu.md says how it was
  // chosen).
  uint32_t check_every = 16;
  // The options of the Spmv plan that computes A p.
  SpmvOptions spmv = {};
};

// A solve's status, as record_status() writes it and decode_status() reads it.
struct SolverStatus {
  uint64_t iterations = 0;
  StopReason reason = StopReason::running;
  BreakdownCause cause = BreakdownCause::none;
  // ||r|| / ||b|| of the recursively updated residual r (0 when b == 0).
  double residual = 0.0;
  bool done() const { return reason != StopReason::running; }
  bool converged() const { return reason == StopReason::converged; }
};

namespace detail {
struct KrylovPlan;
}

class KrylovSolver {
 public:
  // Builds the pipelines of the method for `type` (f32 or f64) and the Spmv plan for A p.
  // Errc::unsupported for f64 without shaderFloat64; invalid_argument for another value type,
  // an unknown method or preconditioner, a tolerance that is negative or not finite, check_every
  // 0, max_iterations >= 2^32, or SpmvOptions that Spmv::create refuses.
  static Result<KrylovSolver> create(const Context& ctx, ValueType type,
                                     const KrylovOptions& options = {});

  ValueType type() const;
  const KrylovOptions& options() const;
  // Changes the stopping rule (KrylovOptions::tolerance, max_iterations, check_every) and
  // unbinds the system: the new values apply from the next bind(). invalid_argument (nothing
  // changed) for values create() refuses.
  Status set_limits(double tolerance, uint64_t max_iterations, uint32_t check_every);

  // Workspace of a solve of a rows x rows matrix of nnz entries: the method's vectors (CG 3 of
  // rows elements, BiCGSTAB 6, or 8 with Jacobi), the dot products' partial sums (CG: also
  // those of its product, up to max(rows / 64, 65536) and at most rows), the state and the
  // Spmv's temporary storage. Pass a buffer that large to bind(), or call reserve() once
  // outside recording and pass none.
  uint64_t temp_bytes(uint64_t rows, uint64_t nnz) const;
  uint64_t temp_bytes(const CsrView& a) const { return temp_bytes(a.rows, a.nnz); }
  // Allocates the owned workspace for systems up to rows x nnz (outside recording; only to
  // grow). Errors of the allocation (out_of_device_memory, limit_exceeded) pass through.
  Status reserve(uint64_t rows, uint64_t nnz);

  // Once per matrix, after it is written (the barrier of a submission on rt): the Spmv analysis
  // of A (Spmv::analyze) and, with Jacobi, the inverse diagonal (a GPU pass into a buffer the
  // solver owns, and a read-back of the first bad row). Both submit on rt and wait.
  // Errc::invalid_argument for a matrix that is not square or that a CsrView does not allow,
  // or a value type other than type(); Errc::unsupported for a complex matrix; with Jacobi,
  // invalid_argument naming the first row whose diagonal entry is missing, or zero or not
  // finite ("row 17 has no diagonal entry").
  Status prepare(Runtime& rt, const CsrView& a);
  // After prepare(): whether CG's product A p also sums p.Ap (when the row kernel runs it with
  // few enough workgroups; docs/sparse-gpu.md), so that an iteration has no p.q pass. False for
  // BiCGSTAB and before prepare().
  bool product_sums_dot() const;

  // The system to record: the prepared A (the same rows, cols and nnz; invalid_argument
  // otherwise, or before prepare()), b and x of rows aligned elements of type(), x overlapping
  // neither b, A nor the workspace; temp as temp_bytes() says (16-byte aligned), or empty for
  // the reserved workspace. Records nothing; the views are kept until the next bind().
  // Errc::invalid_argument names the broken requirement.
  Status bind(const CsrView& a, BufferView b, BufferView x, BufferView temp = {});

  // Records the start of a solve of the bound system: r = b, x = 0, the first direction, and
  // the status (converged when b == 0 or tolerance >= 1, breakdown when b holds a non-finite
  // value, else running). Writes x and the workspace. invalid_argument before
  // bind(); nothing is recorded then.
  Status record_start(VkCommandBuffer cmd) const;
  // Records `count` iterations of the bound system after record_start() (in this or an earlier
  // submission). An iteration that finds the solve stopped changes nothing, so a block may run
  // past the stop. Writes x and the workspace. invalid_argument before bind(); nothing is
  // recorded then.
  Status record_iterations(VkCommandBuffer cmd, uint32_t count) const;
  // Records a copy of the status (kStatusBytes) from the workspace into `dst` (device-addressed,
  // 4-byte aligned; e.g. a MemoryUsage::readback buffer), after a barrier from the solver's
  // passes. The caller owes COMPUTE_SHADER / SHADER_WRITE -> the reader of dst (HOST /
  // HOST_READ for a mapped buffer). invalid_argument before bind() or for a dst too small.
  static constexpr uint64_t kStatusBytes = 32;
  Status record_status(VkCommandBuffer cmd, BufferView dst) const;
  // The status from kStatusBytes bytes that record_status() wrote.
  SolverStatus decode_status(const void* bytes) const;

  // The simple loop on rt for the bound system: submits record_start() and check_every
  // iterations, reads the status, and submits further blocks until the solve stops (each
  // submission waited for). `on_block` (optional) sees the status after each block. Returns the
  // final status; errors of the submissions pass through.
  Result<SolverStatus> solve(Runtime& rt,
                             const std::function<void(const SolverStatus&)>& on_block = {});

  KrylovSolver(KrylovSolver&&) noexcept;
  KrylovSolver& operator=(KrylovSolver&&) noexcept;
  ~KrylovSolver();

 private:
  explicit KrylovSolver(std::unique_ptr<detail::KrylovPlan>);
  std::unique_ptr<detail::KrylovPlan> plan_;
};

// Named forms of KrylovSolver::create: CgSolver::create(ctx, type, options) and
// BiCgStabSolver::create(...) set options.method.
struct CgSolver {
  static Result<KrylovSolver> create(const Context& ctx, ValueType type,
                                     KrylovOptions options = {}) {
    options.method = KrylovMethod::cg;
    return KrylovSolver::create(ctx, type, options);
  }
};
struct BiCgStabSolver {
  static Result<KrylovSolver> create(const Context& ctx, ValueType type,
                                     KrylovOptions options = {}) {
    options.method = KrylovMethod::bicgstab;
    return KrylovSolver::create(ctx, type, options);
  }
};

}  // namespace vkprim::sparse
