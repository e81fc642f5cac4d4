// Krylov solver plan: CG and BiCGSTAB as sequences of vkprim passes — Spmv for A p, the fused
// vector passes with their partial sums, the one-workgroup scalar passes — with a barrier
// between every two (include/vkprim/sparse/solvers.hpp; shaders/solvers/; docs/sparse-gpu.md).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vkprim/barrier.hpp>
#include <vkprim/elementwise.hpp>
#include <vkprim/sparse/solvers.hpp>

#include "core/value_bits.hpp"
#include "core/call_checks.hpp"
#include "core/pipeline.hpp"
#include "core/temp_storage.hpp"
#include "solvers/pass.hpp"
#include "spmv/dot.hpp"
#include "solvers/policy.hpp"

namespace vkprim::sparse {
namespace detail {

using vkprim::detail::align16;
using vkprim::detail::compute_to_compute_barrier;
using vkprim::detail::ContextImpl;
using vkprim::detail::overlap;
using vkprim::detail::Pipeline;
using vkprim::detail::value_bits;

namespace {

Error bad(std::string m) {
  return make_error(Errc::invalid_argument, "KrylovSolver: " + std::move(m));
}

Status check_limits(double tolerance, uint64_t max_iterations, uint32_t check_every) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance))
    return bad("tolerance must be finite and >= 0, not " + std::to_string(tolerance));
  if (check_every == 0) return bad("check_every must be at least 1");
  if (max_iterations >= (uint64_t(1) << 32)) return bad("max_iterations must be < 2^32");
  return {};
}

}  // namespace

// The workspace of one solve: the state, the partial sums (the vector passes', then the
// product's p.Ap when CG's product sums it, dot.hpp), the method's vectors and the Spmv's
// temporary storage, each 16-byte aligned.
struct KrylovLayout {
  uint64_t state = 0, partials = 0, dot_partials = 0, spmv = 0, total = 0;
  uint64_t vec[kVecCount] = {};  // offsets; roles a method does not use stay 0
  uint32_t groups = 1;
  KrylovLayout() = default;
  KrylovLayout(KrylovMethod m, bool jacobi, uint64_t rows, uint32_t esz, uint64_t spmv_bytes,
               uint64_t product_partials = 0) {
    groups = tuning::solver_groups(rows);
    uint64_t at = 0;
    auto take = [&at](uint64_t bytes) {
      const uint64_t here = at;
      at += align16(bytes);
      return here;
    };
    state = take(kSolverStateBytes);
    partials = take(uint64_t(kSolverPartialSlots) * groups * esz);
    if (product_partials) dot_partials = take(product_partials * esz);
    const uint64_t vb = rows * esz;
    vec[kVecR] = take(vb);
    vec[kVecP] = take(vb);
    vec[kVecQ] = take(vb);
    if (m != KrylovMethod::cg) {  // CG's z = M r is recomputed where it is read
      vec[kVecR0] = take(vb);
      vec[kVecS] = take(vb);
      vec[kVecT] = take(vb);
      vec[kVecY] = jacobi ? take(vb) : vec[kVecP];
      vec[kVecZ] = jacobi ? take(vb) : vec[kVecS];
    }
    spmv = take(spmv_bytes);
    total = at;
  }
};

struct KrylovPlan {
  const ContextImpl* ctx = nullptr;
  ValueType type = ValueType::f32;
  uint32_t esz = 4;
  KrylovOptions opt;
  Pipeline vector, scalar, diagonal[2];
  std::optional<Spmv> spmv;
  std::optional<Copy> copy;
  std::optional<Fill> fill;
  std::optional<Buffer> owned_temp, inv_diag;
  // prepare(): the matrix's shape and the product's analysis.
  bool prepared = false;
  uint64_t p_rows = 0, p_nnz = 0;
  bool p_row_ptr_64 = false;
  SpmvAnalysis analysis;
  // CG: the product's partials of p.Ap (SpmvDotAccess::partials; 0: the p.q pass sums them).
  uint64_t product_partials = 0;
  // bind(): the system.
  bool bound = false;
  CsrView a;
  BufferView b, x, temp;
  KrylovLayout L;
  uint32_t max_iterations = 0;

  bool jacobi() const { return opt.preconditioner == Preconditioner::jacobi; }
  bool cg() const { return opt.method == KrylovMethod::cg; }

  // CG's workspace has room for the most product partials the plan takes (policy.hpp).
  uint64_t partials_room(uint64_t rows) const {
    return cg() ? tuning::solver_product_partials_max(rows) : 0;
  }
  uint64_t temp_bytes(uint64_t rows, uint64_t nnz) const {
    return KrylovLayout(opt.method, jacobi(), rows, esz, spmv->temp_bytes(rows, nnz),
                        partials_room(rows))
        .total;
  }

  Status check_matrix(const CsrView& m, const char* who) const {
    const std::string w = who;
    if (m.complex)
      return make_error(Errc::unsupported, w + ": the solvers take real matrices (f32 or f64), not complex ones");
    if (m.value_type != type)
      return bad(w + ": the matrix holds " + to_string(m.value_type) +
                 " values, the solver is for " + to_string(type));
    if (m.rows != m.cols)
      return bad(w + ": the matrix is " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                 ", not square");
    if (m.rows >= (uint64_t(1) << 32)) return bad(w + ": rows must be < 2^32");
    if (!m.row_ptr_64 && m.nnz >= (uint64_t(1) << 32))
      return bad(w + ": nnz >= 2^32 needs a 64-bit row pointer");
    const uint64_t rp = m.row_ptr_64 ? 8 : 4;
    const auto fits = vkprim::detail::view_fits;
    if (m.rows && !fits(m.row_ptr, (m.rows + 1) * rp, rp))
      return bad(w + ": row_ptr must hold rows + 1 aligned " + std::to_string(rp * 8) +
                 "-bit entries");
    if (!fits(m.col_idx, m.nnz * 4, 4)) return bad(w + ": col_idx must hold nnz aligned u32");
    if (!fits(m.values, m.nnz * esz, esz))
      return bad(w + ": values must hold nnz aligned elements");
    return {};
  }

  void vec_pass(VkCommandBuffer cmd, SolverVectorOp op) const {
    SolverVectorPush p{};
    const uint64_t base = temp.address;
    p.state_addr = base + L.state;
    p.partials_addr = base + L.partials;
    p.inv_diag_addr = jacobi() && inv_diag ? inv_diag->address() : 0;
    for (uint32_t k = 0; k < kVecCount; ++k) p.v[k] = L.vec[k] ? base + L.vec[k] : 0;
    p.v[kVecB] = b.address;
    p.v[kVecX] = x.address;
    p.n = uint32_t(a.rows);
    p.groups = L.groups;
    p.op = op;
    compute_to_compute_barrier(*ctx, cmd);
    vector.dispatch(cmd, &p, L.groups);
  }
  // partials_addr / groups: the partials the pass adds (0: the vector passes', L.groups each).
  void scalar_pass(VkCommandBuffer cmd, SolverScalarOp op, uint64_t partials_addr = 0,
                   uint64_t groups = 0) const {
    SolverScalarPush p{};
    p.state_addr = temp.address + L.state;
    p.partials_addr = partials_addr ? partials_addr : temp.address + L.partials;
    p.tol2_bits = value_bits(opt.tolerance * opt.tolerance, type);
    p.groups = uint32_t(groups ? groups : L.groups);
    p.op = op;
    p.max_iterations = max_iterations;
    compute_to_compute_barrier(*ctx, cmd);
    scalar.dispatch(cmd, &p, 1);
  }
  // y = A x over vectors of the workspace (roles).
  Status product(VkCommandBuffer cmd, SolverVec in, SolverVec out) const {
    const uint64_t vb = a.rows * esz;
    compute_to_compute_barrier(*ctx, cmd);
    return spmv->record(cmd, a, temp.sub(L.vec[in], vb), temp.sub(L.vec[out], vb), 1.0, 0.0,
                        analysis, temp.sub(L.spmv, L.total - L.spmv));
  }

  Status record_iteration(VkCommandBuffer cmd) const {
    if (cg()) {
      if (product_partials) {  // q = A p with the partials of p.q
        const uint64_t vb = a.rows * esz;
        compute_to_compute_barrier(*ctx, cmd);
        VKPRIM_TRY(SpmvDotAccess::record(*spmv, cmd, a, temp.sub(L.vec[kVecP], vb),
                                         temp.sub(L.vec[kVecQ], vb), analysis,
                                         temp.address + L.dot_partials));
        scalar_pass(cmd, kSopCgAlpha, temp.address + L.dot_partials, product_partials);
      } else {
        VKPRIM_TRY(product(cmd, kVecP, kVecQ));
        vec_pass(cmd, kOpCgDot);
        const uint64_t pq = temp.address + L.partials + uint64_t(kSolverSlotPq) * L.groups * esz;
        scalar_pass(cmd, kSopCgAlpha, pq, L.groups);
      }
      vec_pass(cmd, kOpCgUpdate);
      scalar_pass(cmd, kSopCgBeta);
      vec_pass(cmd, kOpCgP);
      return {};
    }
    vec_pass(cmd, kOpBiP);
    VKPRIM_TRY(product(cmd, kVecY, kVecQ));
    vec_pass(cmd, kOpBiDotR0v);
    scalar_pass(cmd, kSopBiAlpha);
    vec_pass(cmd, kOpBiS);
    VKPRIM_TRY(product(cmd, kVecZ, kVecT));
    vec_pass(cmd, kOpBiDotT);
    scalar_pass(cmd, kSopBiOmega);
    vec_pass(cmd, kOpBiX);
    scalar_pass(cmd, kSopBiEnd);
    return {};
  }
};

}  // namespace detail

using detail::KrylovPlan;
using vkprim::detail::align16;
using vkprim::detail::compute_to_compute_barrier;
using vkprim::detail::overlap;

KrylovSolver::KrylovSolver(std::unique_ptr<KrylovPlan> p) : plan_(std::move(p)) {}
KrylovSolver::KrylovSolver(KrylovSolver&&) noexcept = default;
KrylovSolver& KrylovSolver::operator=(KrylovSolver&&) noexcept = default;
KrylovSolver::~KrylovSolver() = default;

Result<KrylovSolver> KrylovSolver::create(const Context& context, ValueType type,
                                          const KrylovOptions& o) {
  namespace tuning = detail::tuning;
  const auto& ctx = context.impl();
  if (type != ValueType::f32 && type != ValueType::f64)
    return detail::bad(std::string("values must be f32 or f64, not ") + to_string(type));
  if (type == ValueType::f64 && !ctx.caps.shader_float64)
    return make_error(Errc::unsupported,
                      "KrylovSolver<f64>: the device has no shaderFloat64 (use f32 values)");
  if (uint32_t(o.method) > uint32_t(KrylovMethod::bicgstab))
    return detail::bad("unknown KrylovMethod");
  if (uint32_t(o.preconditioner) > uint32_t(Preconditioner::jacobi))
    return detail::bad("unknown Preconditioner");
  VKPRIM_TRY(detail::check_limits(o.tolerance, o.max_iterations, o.check_every));
  auto plan = std::make_unique<KrylovPlan>();
  plan->ctx = &ctx;
  plan->type = type;
  plan->esz = uint32_t(size_of(type));
  plan->opt = o;
  namespace variants = vkprim::detail::variants;
  const auto real = variants::real_axis(type);
  auto vec = detail::Pipeline::create(ctx, variants::solver_vector(real),
                                      detail::kSolverVectorPushBytes, tuning::kSolverWorkgroup, 1);
  if (!vec) return vec.error();
  plan->vector = std::move(*vec);
  const uint32_t scalar_wg = tuning::solver_scalar_workgroup(
      ctx.device_class.cpu(), ctx.caps.max_workgroup_invocations, ctx.caps.max_shared_memory,
      plan->esz);
  auto sc = detail::Pipeline::create(ctx, variants::solver_scalar(real),
                                     detail::kSolverScalarPushBytes, scalar_wg, 1);
  if (!sc) return sc.error();
  plan->scalar = std::move(*sc);
  if (o.preconditioner == Preconditioner::jacobi)
    for (int w = 0; w < 2; ++w) {
      auto d = detail::Pipeline::create(
          ctx, variants::solver_diagonal(real, variants::row_ptr_axis(w == 1)),
          detail::kSolverDiagonalPushBytes, tuning::kSolverDiagonalWorkgroup, 1);
      if (!d) return d.error();
      plan->diagonal[w] = std::move(*d);
    }
  auto sp = Spmv::create(context, type, o.spmv);
  if (!sp) return sp.error();
  plan->spmv = std::move(*sp);
  if (o.method == KrylovMethod::cg) VKPRIM_TRY(detail::SpmvDotAccess::enable(*plan->spmv));
  auto copy = Copy::create(context);
  if (!copy) return copy.error();
  plan->copy = std::move(*copy);
  auto fill = Fill::create(context);
  if (!fill) return fill.error();
  plan->fill = std::move(*fill);
  return KrylovSolver(std::move(plan));
}

ValueType KrylovSolver::type() const { return plan_->type; }
const KrylovOptions& KrylovSolver::options() const { return plan_->opt; }

Status KrylovSolver::set_limits(double tolerance, uint64_t max_iterations, uint32_t check_every) {
  VKPRIM_TRY(detail::check_limits(tolerance, max_iterations, check_every));
  plan_->opt.tolerance = tolerance;
  plan_->opt.max_iterations = max_iterations;
  plan_->opt.check_every = check_every;
  plan_->bound = false;
  return {};
}

uint64_t KrylovSolver::temp_bytes(uint64_t rows, uint64_t nnz) const {
  return plan_->temp_bytes(rows, nnz);
}

Status KrylovSolver::reserve(uint64_t rows, uint64_t nnz) {
  return vkprim::detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(rows, nnz));
}

Status KrylovSolver::prepare(Runtime& rt, const CsrView& a) {
  KrylovPlan& p = *plan_;
  VKPRIM_TRY(p.check_matrix(a, "prepare"));
  p.prepared = false;
  p.bound = false;
  auto an = p.spmv->analyze(rt, a);
  if (!an) return an.error();
  // One product with this analysis and temporary storage, so that record_iterations() never
  // meets an error of Spmv::record after it has recorded passes of its own.
  if (a.rows) {
    auto xy = rt.alloc(align16(a.rows * p.esz) * 2);
    if (!xy) return xy.error();
    auto spmv_temp = rt.alloc(std::max<uint64_t>(16, p.spmv->temp_bytes(a.rows, a.nnz)));
    if (!spmv_temp) return spmv_temp.error();
    const uint64_t vb = align16(a.rows * p.esz);
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(p.fill->record(cmd, xy->view().sub(0, vb), 0, 4));
      compute_to_compute_barrier(*p.ctx, cmd);
      return p.spmv->record(cmd, a, xy->view().sub(0, vb), xy->view().sub(vb, vb), 1.0, 0.0, *an,
                            spmv_temp->view());
    }));
  }
  if (p.jacobi() && a.rows) {
    if (!p.inv_diag || p.inv_diag->size() < a.rows * p.esz) {
      p.inv_diag.reset();
      auto buf = vkprim::detail::create_buffer(*p.ctx, a.rows * p.esz, MemoryUsage::device);
      if (!buf) return buf.error();
      p.inv_diag = std::move(*buf);
    }
    auto badw = rt.alloc(16);
    if (!badw) return badw.error();
    const int w = a.row_ptr_64 ? 1 : 0;
    detail::SolverDiagonalPush dp{a.row_ptr.address,
                                  a.col_idx.address,
                                  a.values.address,
                                  p.inv_diag->address(),
                                  badw->address(),
                                  uint32_t(a.rows)};
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(p.fill->record(cmd, badw->view().sub(0, 8), 0xFFFFFFFFu, 4));
      compute_to_compute_barrier(*p.ctx, cmd);
      p.diagonal[w].dispatch(
          cmd, &dp, vkprim::detail::grid_groups(*p.ctx, a.rows, p.diagonal[w].tile_items()));
      return {};
    }));
    auto words = rt.download<uint32_t>(badw->view(), 2);
    if (!words) return words.error();
    const uint32_t missing = (*words)[0], zero = (*words)[1];
    if (missing != 0xFFFFFFFFu || zero != 0xFFFFFFFFu) {
      if (missing <= zero)
        return detail::bad("Jacobi preconditioner: row " + std::to_string(missing) +
                           " has no diagonal entry");
      return detail::bad("Jacobi preconditioner: row " + std::to_string(zero) +
                         " has a zero or non-finite diagonal entry");
    }
  }
  p.analysis = *an;
  p.product_partials = 0;
  if (p.cg()) {
    const uint64_t parts = detail::SpmvDotAccess::partials(*p.spmv, a, *an);
    if (parts <= p.partials_room(a.rows)) p.product_partials = parts;
  }
  p.p_rows = a.rows;
  p.p_nnz = a.nnz;
  p.p_row_ptr_64 = a.row_ptr_64;
  p.prepared = true;
  return {};
}

bool KrylovSolver::product_sums_dot() const {
  return plan_->prepared && plan_->product_partials != 0;
}

Status KrylovSolver::bind(const CsrView& a, BufferView b, BufferView x, BufferView temp) {
  KrylovPlan& p = *plan_;
  p.bound = false;
  if (!p.prepared) return detail::bad("bind before prepare(): call prepare(rt, A) once per matrix");
  VKPRIM_TRY(p.check_matrix(a, "bind"));
  if (a.rows != p.p_rows || a.nnz != p.p_nnz || a.row_ptr_64 != p.p_row_ptr_64)
    return detail::bad("bind: the matrix (" + std::to_string(a.rows) + " rows, " +
                       std::to_string(a.nnz) + " nonzeros) is not the prepared one (" +
                       std::to_string(p.p_rows) + " rows, " + std::to_string(p.p_nnz) +
                       " nonzeros)");
  const uint64_t vb = a.rows * p.esz;
  VKPRIM_TRY(vkprim::detail::check_view("KrylovSolver::bind", "b", b, vb, p.esz));
  VKPRIM_TRY(vkprim::detail::check_view("KrylovSolver::bind", "x", x, vb, p.esz));
  const uint64_t need = p.temp_bytes(a.rows, a.nnz);
  auto t = vkprim::detail::resolve_temp("KrylovSolver::bind", temp, p.owned_temp, need,
                                        "temp_bytes(rows, nnz)");
  if (!t) return t.error();
  const BufferView tv = *t;
  const uint64_t rp = a.row_ptr_64 ? 8 : 4;
  const auto hits_matrix = [&](BufferView v, uint64_t bytes) {
    return overlap(v, bytes, a.values, a.nnz * p.esz) || overlap(v, bytes, a.col_idx, a.nnz * 4) ||
           overlap(v, bytes, a.row_ptr, a.rows ? (a.rows + 1) * rp : 0);
  };
  if (overlap(x, vb, b, vb) || hits_matrix(x, vb) || overlap(x, vb, tv, need))
    return detail::bad("bind: x overlaps b, the matrix or the workspace");
  if (hits_matrix(tv, need) || overlap(tv, need, b, vb))
    return detail::bad("bind: the workspace overlaps b or the matrix");
  p.a = a;
  p.b = b;
  p.x = x;
  p.temp = tv;
  p.L = detail::KrylovLayout(p.opt.method, p.jacobi(), a.rows, p.esz,
                             p.spmv->temp_bytes(a.rows, a.nnz), p.partials_room(a.rows));
  const uint64_t max_it = p.opt.max_iterations ? p.opt.max_iterations : 2 * a.rows;
  p.max_iterations = uint32_t(std::min<uint64_t>(max_it, 0xFFFFFFFFu));
  p.bound = true;
  return {};
}

Status KrylovSolver::record_start(VkCommandBuffer cmd) const {
  const KrylovPlan& p = *plan_;
  if (!p.bound) return detail::bad("record_start before bind()");
  p.vec_pass(cmd, p.cg() ? detail::kOpCgInit : detail::kOpBiInit);
  p.scalar_pass(cmd, p.cg() ? detail::kSopCgInit : detail::kSopBiInit);
  return {};
}

Status KrylovSolver::record_iterations(VkCommandBuffer cmd, uint32_t count) const {
  const KrylovPlan& p = *plan_;
  if (!p.bound) return detail::bad("record_iterations before bind()");
  for (uint32_t i = 0; i < count; ++i) VKPRIM_TRY(p.record_iteration(cmd));
  return {};
}

Status KrylovSolver::record_status(VkCommandBuffer cmd, BufferView dst) const {
  const KrylovPlan& p = *plan_;
  if (!p.bound) return detail::bad("record_status before bind()");
  VKPRIM_TRY(
      vkprim::detail::check_view("KrylovSolver::record_status", "dst", dst, kStatusBytes, 4));
  compute_to_compute_barrier(*p.ctx, cmd);
  return p.copy->record(cmd, p.temp.sub(p.L.state, kStatusBytes), dst, kStatusBytes);
}

SolverStatus KrylovSolver::decode_status(const void* bytes) const {
  const auto* b = static_cast<const unsigned char*>(bytes);
  uint32_t w[4];
  std::memcpy(w, b, 16);
  double rr = 0, bb = 0;
  const uint32_t esz = plan_->esz;
  if (esz == 4) {
    float f[2];
    std::memcpy(f, b + 16, 8);
    rr = f[0];
    bb = f[1];
  } else {
    std::memcpy(&rr, b + 16, 8);
    std::memcpy(&bb, b + 24, 8);
  }
  SolverStatus s;
  s.reason = w[0] <= 3 ? StopReason(w[0]) : StopReason::breakdown;
  s.iterations = w[1];
  s.cause = w[2] <= 5 ? BreakdownCause(w[2]) : BreakdownCause::none;
  s.residual = bb > 0 ? std::sqrt(rr / bb) : (rr == 0 ? 0.0 : std::sqrt(rr));
  return s;
}

Result<SolverStatus> KrylovSolver::solve(Runtime& rt,
                                         const std::function<void(const SolverStatus&)>& on_block) {
  const KrylovPlan& p = *plan_;
  if (!p.bound) return detail::bad("solve before bind()");
  auto rb = rt.alloc(kStatusBytes, MemoryUsage::readback);
  if (!rb) return rb.error();
  SolverStatus s;
  bool first = true;
  uint64_t recorded = 0;
  while (true) {
    const uint64_t left = p.max_iterations > s.iterations ? p.max_iterations - s.iterations : 0;
    const uint32_t block =
        uint32_t(std::min<uint64_t>(p.opt.check_every, std::max<uint64_t>(left, 1)));
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) -> Status {
      if (first) VKPRIM_TRY(record_start(cmd));
      VKPRIM_TRY(record_iterations(cmd, block));
      VKPRIM_TRY(record_status(cmd, rb->view()));
      full_barrier(rt.context(), cmd);  // the status copy -> the host's read
      return {};
    }));
    first = false;
    recorded += block;
    VKPRIM_TRY(rb->invalidate());
    s = decode_status(rb->mapped());
    if (on_block) on_block(s);
    if (s.done()) return s;
    // The scalar pass stops every solve at max_iterations: a status still running past it
    // means the status did not come back, and the loop ends rather than spin.
    if (recorded > uint64_t(p.max_iterations) + p.opt.check_every)
      return make_error(Errc::vulkan_error,
                        "KrylovSolver::solve: the status still reads running after " +
                            std::to_string(recorded) + " iterations (max_iterations " +
                            std::to_string(p.max_iterations) + ")");
  }
}

const char* to_string(KrylovMethod m) {
  switch (m) {
    case KrylovMethod::cg:
      return "cg";
    case KrylovMethod::bicgstab:
      return "bicgstab";
  }
  return "?";
}
const char* to_string(Preconditioner p) {
  switch (p) {
    case Preconditioner::none:
      return "none";
    case Preconditioner::jacobi:
      return "jacobi";
  }
  return "?";
}
const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::running:
      return "running";
    case StopReason::converged:
      return "converged";
    case StopReason::iteration_limit:
      return "iteration_limit";
    case StopReason::breakdown:
      return "breakdown";
  }
  return "?";
}
const char* to_string(BreakdownCause c) {
  switch (c) {
    case BreakdownCause::none:
      return "none";
    case BreakdownCause::rho:
      return "rho";
    case BreakdownCause::p_ap:
      return "p.Ap";
    case BreakdownCause::r0_v:
      return "r0.v";
    case BreakdownCause::omega:
      return "omega";
    case BreakdownCause::residual:
      return "residual";
  }
  return "?";
}

}  // namespace vkprim::sparse
