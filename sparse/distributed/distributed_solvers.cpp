// DistributedKrylovSolver: CG and BiCGSTAB over the ranks, KrylovSolver's iteration with the
// dot products summed over the ranks (include/vkprim/sparse/distributed.hpp).
//
// Each step of an iteration is one submission on the rank's Runtime (full barriers around it)
// built from vkprim's primitives: Map::axpby for the vector updates, Copy and Fill for the
// start, DistributedSpmv for A p, and Spmv for the rest:
//
// * a rank's partial dot products u.w and u'.w, for vectors u and u' adjacent in the workspace,
//   are one Spmv of the "dot matrix": k rows (k = 1 or 2) of n entries in columns 0..n-1 whose
//   values are the k vectors themselves, times w. Its rows are summed in Spmv's fixed order, so
//   a partial is the same from run to run;
// * the Jacobi preconditioner z = D^-1 r is one Spmv of the diagonal matrix whose values are the
//   inverse diagonal.
//
// The partials go to host-visible memory; one MPI_Allgather brings every rank's partials (and a
// flag saying whether the rank failed) to every rank, which adds them in rank order: every rank
// holds the same sums, bit for bit, and makes the same decision (MPI_Allreduce does not promise
// the same bits on every rank). The scalars (alpha, beta, omega) and the stopping rule are
// computed on the host in double, as KrylovSolver's scalar passes compute them on the GPU.
//
// Errors: a rank that fails a step records nothing more and carries the failure to the next
// global sum, where every rank sees the flag and calls agree(): every rank returns the lowest
// failing rank's error at the same point, and no rank waits for another.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <vkprim/barrier.hpp>
#include <vkprim/elementwise.hpp>
#include <vkprim/sparse/distributed.hpp>

#include "distributed_state.hpp"
#include "mpi_support.hpp"

namespace vkprim::sparse {

namespace detail {

// The vectors of the workspace, by role. The dot products read adjacent pairs: CG [r | z],
// BiCGSTAB [r | r0] and [s | t].
enum KrylovVec : int { kR, kZ, kP, kQ, kR0, kS, kT, kV, kY, kKrylovVecs };

struct DistributedKrylovState {
  const DistributedCsrState* a = nullptr;
  DistributedKrylovOptions opt;
  ValueType type = ValueType::f32;
  uint64_t es = 4;  // bytes per element
  uint64_t n = 0;   // this rank's rows
  uint64_t max_iterations = 0;
  std::optional<DistributedSpmv> product;
  std::optional<Spmv> owned;       // the product's plan, when create() made it
  std::optional<Spmv> owned_sums;  // an automatic plan, when the product's forces a kernel
  const Spmv* spmv = nullptr;  // the product's plan, also for the dot matrices and Jacobi
  std::optional<Map> map;
  std::optional<Copy> copy;
  std::optional<Fill> fill;
  Buffer work;                          // the vectors, n elements each, without padding
  int64_t off[kKrylovVecs] = {};        // byte offsets into work; -1: the role is not used
  bool dot_row_ptr_64 = false;
  Buffer dot_rows, dot_cols;            // the dot matrices: row pointer 0, n, 2n; columns 0..n-1 twice
  Buffer diag_rows, inv_diag;           // the Jacobi matrix: row pointer 0..n (columns: dot_cols)
  SpmvAnalysis dot_an[2], diag_an;
  Buffer temp;                          // Spmv's temporary storage (at least 16 bytes)
  Buffer sums;                          // readback: up to 3 partials of this rank
  Buffer dummy;                         // the product's x and y on a rank without rows
  std::vector<double> gathered;         // room for every rank's partials and flag
  DistributedSolveTimes times;

  bool jacobi() const { return opt.preconditioner == Preconditioner::jacobi; }
  bool cg() const { return opt.method == KrylovMethod::cg; }
  MPI_Comm comm() const { return a->comm.get(); }
  Runtime& rt() const { return *a->rt; }
  BufferView vec(int role) const { return work.view().sub(uint64_t(off[role]), n * es); }
};

}  // namespace detail

namespace {

using detail::DistributedKrylovState;
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

Error bad(std::string m) {
  return make_error(Errc::invalid_argument, "DistributedKrylovSolver: " + std::move(m));
}

bool finite(double v) { return std::isfinite(v); }

// y = A w for the dot matrix of k rows whose values start at byte `values` of the workspace:
// y[j] = (row j's vector) . w, written to sums[slot .. slot + k).
Status record_dot(const DistributedKrylovState& s, VkCommandBuffer cmd, uint32_t k, int values,
                  int w, uint32_t slot) {
  CsrView m;
  m.rows = k;
  m.cols = s.n;
  m.nnz = k * s.n;
  m.value_type = s.type;
  m.row_ptr_64 = s.dot_row_ptr_64;
  m.row_ptr = s.dot_rows.view().sub(0, (k + 1) * (s.dot_row_ptr_64 ? 8 : 4));
  m.col_idx = s.dot_cols.view().sub(0, k * s.n * 4);
  m.values = s.work.view().sub(uint64_t(s.off[values]), k * s.n * s.es);
  full_barrier(s.rt().context(), cmd);
  return s.spmv->record(cmd, m, s.vec(w), s.sums.view().sub(slot * s.es, k * s.es), 1.0, 0.0,
                        s.dot_an[k - 1], s.temp.view());
}

CsrView diag_view(const DistributedKrylovState& s) {
  CsrView m;
  m.rows = m.cols = m.nnz = s.n;
  m.value_type = s.type;
  m.row_ptr = s.diag_rows.view().sub(0, (s.n + 1) * 4);
  m.col_idx = s.dot_cols.view().sub(0, s.n * 4);
  m.values = s.inv_diag.view().sub(0, s.n * s.es);
  return m;
}

// out = D^-1 in (Jacobi).
Status record_precondition(const DistributedKrylovState& s, VkCommandBuffer cmd, int in, int out) {
  full_barrier(s.rt().context(), cmd);
  return s.spmv->record(cmd, diag_view(s), s.vec(in), s.vec(out), 1.0, 0.0, s.diag_an,
                        s.temp.view());
}

// The sums over the ranks of `count` partials (`mine`), into `out`, in rank order; `st` is this
// rank's status so far. One MPI_Allgather, which also carries whether each rank failed: when
// any did, every rank returns the agreed error (agree()).
Status global_sum(DistributedKrylovState& s, const Status& st, const double* mine, int count,
                  double* out) {
  const Clock::time_point t0 = Clock::now();
  const int ranks = s.a->ranks;
  const int w = count + 1;
  double buf[4] = {0, 0, 0, 0};
  for (int i = 0; i < count; ++i) buf[i] = st ? mine[i] : 0.0;
  buf[count] = st ? 0.0 : 1.0;
  s.gathered.resize(size_t(w) * size_t(ranks));
  MPI_Allgather(buf, w, MPI_DOUBLE, s.gathered.data(), w, MPI_DOUBLE, s.comm());
  bool failed = false;
  for (int i = 0; i < count; ++i) out[i] = 0.0;
  for (int q = 0; q < ranks; ++q) {
    const double* g = &s.gathered[size_t(q) * size_t(w)];
    for (int i = 0; i < count; ++i) out[i] += g[i];
    failed = failed || g[count] != 0.0;
  }
  ++s.times.reductions;
  s.times.reduce += ms_since(t0);
  if (failed) return agree(s.comm(), st.ok() ? Status{} : st);
  return {};
}

// One step: `record` in one submission on the rank's Runtime (skipped once this rank has
// failed, and on a rank without rows), then, when count > 0, the global sums of the `count`
// partials it wrote to s.sums. A failure is kept in `st` until the next global sum reports it.
template <class T, class Fn>
Status step(DistributedKrylovState& s, Status& st, int count, double* out, Fn&& record) {
  double mine[3] = {0, 0, 0};
  if (st && s.n > 0) {
    Runtime& rt = s.rt();
    st = detail::guarded("DistributedKrylovSolver::solve", [&]() -> Status {
      return rt.submit([&](VkCommandBuffer cmd) -> Status {
        full_barrier(rt.context(), cmd);
        VKPRIM_TRY(record(cmd));
        full_barrier(rt.context(), cmd);  // the partials -> the host's read
        return {};
      });
    });
    if (st && count > 0) st = s.sums.invalidate();
    if (st && count > 0) {
      T v[3] = {};
      std::memcpy(v, s.sums.mapped(), size_t(count) * sizeof(T));
      for (int i = 0; i < count; ++i) mine[i] = double(v[i]);
    }
  }
  if (count == 0) return {};
  return global_sum(s, st, mine, count, out);
}

// The distributed product y = A x of two workspace vectors (dummy views on a rank without rows).
Status product(DistributedKrylovState& s, int x, int y) {
  const Clock::time_point t0 = Clock::now();
  const BufferView xv = s.n ? s.vec(x) : s.dummy.view().sub(0, 16);
  const BufferView yv = s.n ? s.vec(y) : s.dummy.view().sub(16, 16);
  const Status r = s.product->run(xv, yv, 1.0, 0.0);
  ++s.times.products;
  s.times.spmv += ms_since(t0);
  return r;
}

void stop(SolverStatus& st, StopReason r, BreakdownCause c = BreakdownCause::none) {
  st.reason = r;
  st.cause = c;
}

template <class T>
Result<SolverStatus> solve_cg(DistributedKrylovState& s, Status st, BufferView b, BufferView x) {
  using namespace detail;
  const Context& ctx = s.rt().context();
  const uint64_t n = s.n, vb = n * s.es;
  const double tol2 = s.opt.tolerance * s.opt.tolerance;
  const bool pre = s.jacobi();
  const int z = pre ? kZ : kR;
  const uint32_t k = pre ? 2 : 1;  // [r | z] . r: r.r and r.z
  SolverStatus out;
  double sum[3];
  // r = b, x = 0, z = M r, p = z; r.r, r.z.
  VKPRIM_TRY(step<T>(s, st, int(k), sum, [&](VkCommandBuffer cmd) -> Status {
    VKPRIM_TRY(s.copy->record(cmd, b, s.vec(kR), vb));
    VKPRIM_TRY(s.fill->record(cmd, x.sub(0, vb), 0, uint32_t(s.es)));
    if (pre) VKPRIM_TRY(record_precondition(s, cmd, kR, kZ));
    full_barrier(ctx, cmd);
    VKPRIM_TRY(s.copy->record(cmd, s.vec(z), s.vec(kP), vb));
    return record_dot(s, cmd, k, kR, kR, 0);
  }));
  double rr = sum[0], rz = pre ? sum[1] : sum[0];
  const double bb = rr, thr = tol2 * bb;
  double rho = rz;
  if (!finite(rr))
    stop(out, StopReason::breakdown, BreakdownCause::residual);
  else if (rr == 0.0 || rr <= thr)
    stop(out, StopReason::converged);
  else if (s.max_iterations == 0)
    stop(out, StopReason::iteration_limit);
  else if (rho == 0.0 || !finite(rho))
    stop(out, StopReason::breakdown, BreakdownCause::rho);
  while (!out.done()) {
    VKPRIM_TRY(product(s, kP, kQ));  // q = A p
    VKPRIM_TRY(step<T>(s, st, 1, sum, [&](VkCommandBuffer cmd) -> Status {
      return record_dot(s, cmd, 1, kQ, kP, 0);
    }));
    const double pq = sum[0], alpha = rho / pq;
    if (pq == 0.0 || !finite(pq) || !finite(alpha)) {
      stop(out, StopReason::breakdown, BreakdownCause::p_ap);
      break;
    }
    // x += alpha p, r -= alpha q, z = M r; r.r, r.z.
    VKPRIM_TRY(step<T>(s, st, int(k), sum, [&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(s.map->axpby(cmd, s.vec(kP), x, x, T(alpha), T(1), n));
      VKPRIM_TRY(s.map->axpby(cmd, s.vec(kQ), s.vec(kR), s.vec(kR), T(-alpha), T(1), n));
      if (pre) VKPRIM_TRY(record_precondition(s, cmd, kR, kZ));
      return record_dot(s, cmd, k, kR, kR, 0);
    }));
    ++out.iterations;
    rr = sum[0];
    rz = pre ? sum[1] : sum[0];
    if (!finite(rr)) {
      stop(out, StopReason::breakdown, BreakdownCause::residual);
    } else if (rr <= thr) {
      stop(out, StopReason::converged);
    } else if (out.iterations >= s.max_iterations) {
      stop(out, StopReason::iteration_limit);
    } else if (rz == 0.0 || !finite(rz)) {
      stop(out, StopReason::breakdown, BreakdownCause::rho);
    } else {
      const double beta = rz / rho;
      rho = rz;
      // p = z + beta p
      VKPRIM_TRY(step<T>(s, st, 0, nullptr, [&](VkCommandBuffer cmd) -> Status {
        return s.map->axpby(cmd, s.vec(z), s.vec(kP), s.vec(kP), T(1), T(beta), n);
      }));
    }
  }
  out.residual = bb > 0 ? std::sqrt(rr / bb) : (rr == 0 ? 0.0 : std::sqrt(rr));
  return out;
}

template <class T>
Result<SolverStatus> solve_bicgstab(DistributedKrylovState& s, Status st, BufferView b,
                                    BufferView x) {
  using namespace detail;
  const Context& ctx = s.rt().context();
  const uint64_t n = s.n, vb = n * s.es;
  const double tol2 = s.opt.tolerance * s.opt.tolerance;
  const bool pre = s.jacobi();
  const int y = pre ? kY : kP;  // M p
  const int z = pre ? kZ : kS;  // M s
  SolverStatus out;
  double sum[3];
  // r = r0 = b, x = p = v = 0; r.r.
  VKPRIM_TRY(step<T>(s, st, 1, sum, [&](VkCommandBuffer cmd) -> Status {
    VKPRIM_TRY(s.copy->record(cmd, b, s.vec(kR), vb));
    VKPRIM_TRY(s.copy->record(cmd, b, s.vec(kR0), vb));
    VKPRIM_TRY(s.fill->record(cmd, x.sub(0, vb), 0, uint32_t(s.es)));
    VKPRIM_TRY(s.fill->record(cmd, s.vec(kP), 0, uint32_t(s.es)));
    VKPRIM_TRY(s.fill->record(cmd, s.vec(kV), 0, uint32_t(s.es)));
    return record_dot(s, cmd, 1, kR, kR, 0);
  }));
  double rr = sum[0];
  const double bb = rr, thr = tol2 * bb;
  double rho = rr, alpha = 1.0, omega = 1.0, beta = 0.0;
  if (!finite(rr))
    stop(out, StopReason::breakdown, BreakdownCause::residual);
  else if (rr == 0.0 || rr <= thr)
    stop(out, StopReason::converged);
  else if (s.max_iterations == 0)
    stop(out, StopReason::iteration_limit);
  while (!out.done()) {
    // p = r + beta (p - omega v), y = M p
    VKPRIM_TRY(step<T>(s, st, 0, nullptr, [&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(s.map->axpby(cmd, s.vec(kV), s.vec(kP), s.vec(kP), T(-omega), T(1), n));
      full_barrier(ctx, cmd);
      VKPRIM_TRY(s.map->axpby(cmd, s.vec(kR), s.vec(kP), s.vec(kP), T(1), T(beta), n));
      if (pre) VKPRIM_TRY(record_precondition(s, cmd, kP, kY));
      return {};
    }));
    VKPRIM_TRY(product(s, y, kV));  // v = A y
    VKPRIM_TRY(step<T>(s, st, 1, sum, [&](VkCommandBuffer cmd) -> Status {
      return record_dot(s, cmd, 1, kV, kR0, 0);
    }));
    const double r0v = sum[0];
    alpha = rho / r0v;
    if (r0v == 0.0 || !finite(r0v) || !finite(alpha)) {
      stop(out, StopReason::breakdown, BreakdownCause::r0_v);
      break;
    }
    // s = r - alpha v, z = M s
    VKPRIM_TRY(step<T>(s, st, 0, nullptr, [&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(s.map->axpby(cmd, s.vec(kV), s.vec(kR), s.vec(kS), T(-alpha), T(1), n));
      if (pre) VKPRIM_TRY(record_precondition(s, cmd, kS, kZ));
      return {};
    }));
    VKPRIM_TRY(product(s, z, kT));  // t = A z
    // [s | t] . s: s.s, t.s; t . t.
    VKPRIM_TRY(step<T>(s, st, 3, sum, [&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(record_dot(s, cmd, 2, kS, kS, 0));
      return record_dot(s, cmd, 1, kT, kT, 2);
    }));
    const double ss = sum[0], ts = sum[1], tt = sum[2];
    if (finite(ss) && ss <= thr) {
      omega = 0.0;  // the half step reaches the tolerance
    } else {
      omega = ts / tt;
      if (tt == 0.0 || !finite(tt) || !finite(ts) || !finite(omega)) {
        stop(out, StopReason::breakdown, BreakdownCause::omega);
        break;
      }
    }
    // x += alpha y + omega z, r = s - omega t; [r | r0] . r: r.r, r0.r.
    VKPRIM_TRY(step<T>(s, st, 2, sum, [&](VkCommandBuffer cmd) -> Status {
      VKPRIM_TRY(s.map->axpby(cmd, s.vec(y), x, x, T(alpha), T(1), n));
      if (omega != 0.0) {
        VKPRIM_TRY(s.map->axpby(cmd, s.vec(kT), s.vec(kS), s.vec(kR), T(-omega), T(1), n));
        full_barrier(ctx, cmd);
        VKPRIM_TRY(s.map->axpby(cmd, s.vec(z), x, x, T(omega), T(1), n));
      } else {
        VKPRIM_TRY(s.copy->record(cmd, s.vec(kS), s.vec(kR), vb));
      }
      return record_dot(s, cmd, 2, kR, kR, 0);
    }));
    ++out.iterations;
    rr = sum[0];
    const double r0r = sum[1];
    if (!finite(rr)) {
      stop(out, StopReason::breakdown, BreakdownCause::residual);
    } else if (rr <= thr) {
      stop(out, StopReason::converged);
    } else if (out.iterations >= s.max_iterations) {
      stop(out, StopReason::iteration_limit);
    } else if (r0r == 0.0 || !finite(r0r)) {
      stop(out, StopReason::breakdown, BreakdownCause::rho);
    } else {
      beta = (r0r / rho) * (alpha / omega);
      if (omega == 0.0 || !finite(beta))
        stop(out, StopReason::breakdown, BreakdownCause::omega);
      else
        rho = r0r;
    }
  }
  out.residual = bb > 0 ? std::sqrt(rr / bb) : (rr == 0 ? 0.0 : std::sqrt(rr));
  return out;
}

// The inverse diagonal of this rank's rows, from its local block (the diagonal of global row
// row_begin + i is the block's column i: the partitions are equal): 1 / (the sum of the row's
// stored entries in that column, in entry order, in T), as KrylovSolver computes it.
template <class T>
Status jacobi_diagonal(DistributedKrylovState& s) {
  Runtime& rt = s.rt();
  const CsrView L = s.a->local.view();
  const uint64_t n = s.n;
  std::vector<int64_t> rp(n + 1, 0);
  if (L.row_ptr_64) {
    auto v = rt.download<uint64_t>(L.row_ptr, n + 1);
    if (!v) return v.error();
    std::copy(v->begin(), v->end(), rp.begin());
  } else {
    auto v = rt.download<uint32_t>(L.row_ptr, n + 1);
    if (!v) return v.error();
    std::copy(v->begin(), v->end(), rp.begin());
  }
  std::vector<uint32_t> cols;
  std::vector<T> vals;
  if (L.nnz) {
    auto c = rt.download<uint32_t>(L.col_idx, L.nnz);
    if (!c) return c.error();
    cols = std::move(*c);
    auto v = rt.download<T>(L.values, L.nnz);
    if (!v) return v.error();
    vals = std::move(*v);
  }
  std::vector<T> inv(n);
  const int64_t first = s.a->row_part[size_t(s.a->rank)];
  for (uint64_t i = 0; i < n; ++i) {
    T d = T(0);
    bool found = false;
    for (int64_t k = rp[i]; k < rp[i + 1]; ++k)
      if (cols[size_t(k)] == i) {
        d += vals[size_t(k)];
        found = true;
      }
    if (!found)
      return bad("Jacobi preconditioner: row " + std::to_string(first + int64_t(i)) +
                 " has no diagonal entry");
    if (d == T(0) || !std::isfinite(d))
      return bad("Jacobi preconditioner: row " + std::to_string(first + int64_t(i)) +
                 " has a zero or non-finite diagonal entry");
    inv[i] = T(1) / d;
  }
  auto buf = rt.upload(inv);
  if (!buf) return buf.error();
  s.inv_diag = std::move(*buf);
  std::vector<uint32_t> rows(n + 1);
  for (uint64_t i = 0; i <= n; ++i) rows[i] = uint32_t(i);
  auto r = rt.upload(rows);
  if (!r) return r.error();
  s.diag_rows = std::move(*r);
  return {};
}

// Everything a solve needs on this rank besides the product (s.opt, s.a, s.type, s.n, s.spmv
// set).
Status prepare(DistributedKrylovState& s) {
  using namespace detail;
  Runtime& rt = s.rt();
  const Context& ctx = rt.context();
  auto m = Map::create(ctx, s.type);
  if (!m) return m.error();
  s.map.emplace(std::move(*m));
  auto c = Copy::create(ctx);
  if (!c) return c.error();
  s.copy.emplace(std::move(*c));
  auto f = Fill::create(ctx);
  if (!f) return f.error();
  s.fill.emplace(std::move(*f));
  auto d = rt.alloc(32);
  if (!d) return d.error();
  s.dummy = std::move(*d);
  auto sums = rt.alloc(4 * 8, MemoryUsage::readback);
  if (!sums) return sums.error();
  s.sums = std::move(*sums);
  std::fill(std::begin(s.off), std::end(s.off), -1);
  if (s.n == 0) return {};

  const uint64_t n = s.n;
  std::vector<int> roles;
  if (s.cg()) {
    roles = {kR};
    if (s.jacobi()) roles.push_back(kZ);
    roles.insert(roles.end(), {kP, kQ});
  } else {
    roles = {kR, kR0, kS, kT, kV, kP};
    if (s.jacobi()) roles.insert(roles.end(), {kY, kZ});
  }
  for (size_t i = 0; i < roles.size(); ++i) s.off[roles[i]] = int64_t(i * n * s.es);
  auto w = rt.alloc(roles.size() * n * s.es);
  if (!w) return w.error();
  s.work = std::move(*w);

  // The dot matrices: 2 rows of n entries at most.
  s.dot_row_ptr_64 = needs_row_ptr_64(2 * n, false);
  if (s.dot_row_ptr_64) {
    auto r = rt.upload(std::vector<uint64_t>{0, n, 2 * n});
    if (!r) return r.error();
    s.dot_rows = std::move(*r);
  } else {
    auto r = rt.upload(std::vector<uint32_t>{0, uint32_t(n), uint32_t(2 * n)});
    if (!r) return r.error();
    s.dot_rows = std::move(*r);
  }
  std::vector<uint32_t> cols(2 * n);
  for (uint64_t i = 0; i < n; ++i) cols[i] = cols[n + i] = uint32_t(i);
  auto cb = rt.upload(cols);
  if (!cb) return cb.error();
  s.dot_cols = std::move(*cb);
  if (s.jacobi())
    VKPRIM_TRY(s.type == ValueType::f64 ? jacobi_diagonal<double>(s) : jacobi_diagonal<float>(s));

  // The analyses (one submission each) and the temporary storage of the largest product.
  uint64_t temp = 16;
  for (uint32_t k = 1; k <= 2; ++k) {
    CsrView v;
    v.rows = k;
    v.cols = n;
    v.nnz = k * n;
    v.value_type = s.type;
    v.row_ptr_64 = s.dot_row_ptr_64;
    v.row_ptr = s.dot_rows.view().sub(0, (k + 1) * (s.dot_row_ptr_64 ? 8 : 4));
    v.col_idx = s.dot_cols.view().sub(0, k * n * 4);
    v.values = s.work.view().sub(0, k * n * s.es);
    auto an = s.spmv->analyze(rt, v);
    if (!an) return an.error();
    s.dot_an[k - 1] = *an;
    temp = std::max(temp, s.spmv->temp_bytes(v));
  }
  if (s.jacobi()) {
    auto an = s.spmv->analyze(rt, diag_view(s));
    if (!an) return an.error();
    s.diag_an = *an;
    temp = std::max(temp, s.spmv->temp_bytes(diag_view(s)));
  }
  auto t = rt.alloc(temp);
  if (!t) return t.error();
  s.temp = std::move(*t);
  return {};
}

}  // namespace

DistributedKrylovSolver::DistributedKrylovSolver(std::unique_ptr<detail::DistributedKrylovState> s)
    : s_(std::move(s)) {}
DistributedKrylovSolver::DistributedKrylovSolver(DistributedKrylovSolver&&) noexcept = default;
DistributedKrylovSolver& DistributedKrylovSolver::operator=(DistributedKrylovSolver&&) noexcept =
    default;
DistributedKrylovSolver::~DistributedKrylovSolver() = default;

namespace {

Result<DistributedKrylovSolver> create_solver(
    const DistributedCsr& a, const DistributedKrylovOptions& options, const Spmv* plan,
    const std::function<DistributedKrylovSolver(std::unique_ptr<DistributedKrylovState>)>& wrap) {
  return detail::guarded("DistributedKrylovSolver::create",
                         [&]() -> Result<DistributedKrylovSolver> {
    auto s = std::make_unique<detail::DistributedKrylovState>();
    s->a = &detail::DistributedAccess::state(a);
    s->opt = options;
    s->type = a.value_type();
    s->es = size_of(s->type);
    s->n = uint64_t(a.local_rows());
    // The options and the matrix's shape: the same on every rank, agreed all the same.
    const Status checked = [&]() -> Status {
      const auto& o = options;
      if (uint32_t(o.method) > uint32_t(KrylovMethod::bicgstab)) return bad("unknown KrylovMethod");
      if (uint32_t(o.preconditioner) > uint32_t(Preconditioner::jacobi))
        return bad("unknown Preconditioner");
      if (!(o.tolerance >= 0.0) || !std::isfinite(o.tolerance))
        return bad("tolerance must be finite and >= 0, not " + std::to_string(o.tolerance));
      if (o.max_iterations >= (uint64_t(1) << 32)) return bad("max_iterations must be < 2^32");
      if (plan && plan->type() != s->type)
        return bad(std::string("the plan is for ") + to_string(plan->type()) +
                   " values, the matrix holds " + to_string(s->type));
      if (!plan && o.spmv.complex)
        return make_error(Errc::unsupported,
                          "DistributedKrylovSolver: complex values are not supported");
      if (a.rows() != a.cols())
        return bad("the matrix is " + std::to_string(a.rows()) + " x " +
                   std::to_string(a.cols()) + ", not square");
      if (a.row_partition() != a.col_partition())
        return bad("the column partition differs from the row partition (x and b must be "
                   "laid out alike)");
      if (s->type != ValueType::f32 && s->type != ValueType::f64)
        return bad(std::string("values must be f32 or f64, not ") + to_string(s->type));
      if (s->type == ValueType::f64 && !a.runtime().caps().shader_float64)
        return make_error(Errc::unsupported,
                          "DistributedKrylovSolver<f64>: the device has no shaderFloat64");
      return {};
    }();
    VKPRIM_TRY(agree(a.comm(), checked));
    s->max_iterations = options.max_iterations ? options.max_iterations : 2 * uint64_t(a.rows());
    // One plan for the product and the partial sums: the caller's, or one made here with
    // options.spmv (and, when that forces a kernel, an automatic one for the partial sums).
    const Status planned = detail::guarded("DistributedKrylovSolver::create", [&]() -> Status {
      if (plan) {
        s->spmv = plan;
        return {};
      }
      auto sp = Spmv::create(a.runtime().context(), s->type, options.spmv);
      if (!sp) return sp.error();
      s->owned.emplace(std::move(*sp));
      s->spmv = &*s->owned;
      return {};
    });
    VKPRIM_TRY(agree(a.comm(), planned));
    auto product = DistributedSpmv::create(a, *s->spmv);
    if (!product) return product.error();  // agreed
    s->product.emplace(std::move(*product));
    const Status made = detail::guarded("DistributedKrylovSolver::create", [&]() -> Status {
      if (s->spmv->kernel_option() != SpmvKernel::automatic) {
        auto sp = Spmv::create(a.runtime().context(), s->type);
        if (!sp) return sp.error();
        s->owned_sums.emplace(std::move(*sp));
        s->spmv = &*s->owned_sums;
      }
      return prepare(*s);
    });
    VKPRIM_TRY(agree(a.comm(), made));
    return wrap(std::move(s));
  });
}

}  // namespace

Result<DistributedKrylovSolver> DistributedKrylovSolver::create(
    const DistributedCsr& a, const DistributedKrylovOptions& options) {
  return create_solver(a, options, nullptr, [](std::unique_ptr<DistributedKrylovState> s) {
    return DistributedKrylovSolver(std::move(s));
  });
}

Result<DistributedKrylovSolver> DistributedKrylovSolver::create(
    const DistributedCsr& a, const DistributedKrylovOptions& options, const Spmv& plan) {
  return create_solver(a, options, &plan, [](std::unique_ptr<DistributedKrylovState> s) {
    return DistributedKrylovSolver(std::move(s));
  });
}

Result<SolverStatus> DistributedKrylovSolver::solve(BufferView b, BufferView x) {
  return detail::guarded("DistributedKrylovSolver::solve", [&]() -> Result<SolverStatus> {
    detail::DistributedKrylovState& s = *s_;
    s.times = {};
    const Clock::time_point t0 = Clock::now();
    // The arguments: a refused rank records nothing and reports at the first global sum.
    const uint64_t vb = s.n * s.es;
    const auto fits = [&](BufferView v) {
      return v.size >= vb && (vb == 0 || (v.address != 0 && v.address % s.es == 0));
    };
    Status st;
    if (!fits(b))
      st = bad("solve: b holds " + std::to_string(b.size) + " bytes, " + std::to_string(vb) +
               " (this rank's rows) needed, aligned");
    else if (!fits(x))
      st = bad("solve: x holds " + std::to_string(x.size) + " bytes, " + std::to_string(vb) +
               " (this rank's rows) needed, aligned");
    else if (vb && x.address < b.address + vb && b.address < x.address + vb)
      st = bad("solve: x and b overlap");
    auto r = s.cg() ? (s.type == ValueType::f64 ? solve_cg<double>(s, st, b, x)
                                                : solve_cg<float>(s, st, b, x))
                    : (s.type == ValueType::f64 ? solve_bicgstab<double>(s, st, b, x)
                                                : solve_bicgstab<float>(s, st, b, x));
    s.times.total = ms_since(t0);
    return r;
  });
}

const DistributedKrylovOptions& DistributedKrylovSolver::options() const { return s_->opt; }
const DistributedSolveTimes& DistributedKrylovSolver::last_times() const { return s_->times; }

}  // namespace vkprim::sparse
