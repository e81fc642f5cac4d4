// DistributedSpmv: y = alpha * A * x + beta * y over the ranks. One run():
//
//   1. post the receives of the ghost entries (into host-visible staging);
//   2. gather the x entries the other ranks need into host-visible staging on the GPU
//      (submission 1, waited for);
//   3. post the sends; the local block's product runs (submission 2) on a worker thread while
//      this thread waits for the exchange (only this thread calls MPI);
//   4. copy the ghost entries to the device and add the ghost block's product into the rows of
//      y it holds: those rows gathered, the product with beta = 1, the rows scattered back
//      (submission 3);
//   5. agree on the outcome.
//
// Every message has the size the halo plan fixes, whatever happened on the GPU, so a rank that
// fails a step still completes the exchange and reaches the agreement: no rank waits forever.
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vkprim/barrier.hpp>
#include <vkprim/elementwise.hpp>
#include <vkprim/gather_scatter.hpp>
#include <vkprim/sparse/distributed.hpp>

#include "distributed_state.hpp"
#include "mpi_support.hpp"

namespace vkprim::sparse {

namespace detail {
// The matrix as a product sees it, through its state: moving the DistributedCsr keeps it valid.
struct CsrRef {
  const DistributedCsrState* p = nullptr;
  Runtime& runtime() const { return *p->rt; }
  MPI_Comm comm() const { return p->comm.get(); }
  int ranks() const { return p->ranks; }
  ValueType value_type() const { return p->type; }
  CsrView local_block() const { return p->local.view(); }
  CsrView ghost_block() const { return p->ghost.view(); }
  const HaloPlan& halo() const { return p->halo; }
  BufferView send_indices() const { return p->send_idx.view(); }
  BufferView ghost_rows() const { return p->ghost_rows.view(); }
  int64_t local_rows() const {
    return p->row_part[size_t(p->rank) + 1] - p->row_part[size_t(p->rank)];
  }
  int64_t local_cols() const {
    return p->col_part[size_t(p->rank) + 1] - p->col_part[size_t(p->rank)];
  }
};

struct DistributedSpmvState {
  CsrRef a;
  std::optional<Spmv> owned;  // the plan create() made, if it made one
  const Spmv* plan = nullptr;
  Buffer temp;  // the plan's temporary storage for the larger block (none when it needs none)
  std::optional<Gather> gather;
  std::optional<Scatter> scatter;
  std::optional<Copy> copy;
  SpmvAnalysis local_an, ghost_an;
  bool analyzed = false;
  Buffer send_stage;  // readback memory: the packed x entries, read by MPI
  Buffer recv_stage;  // upload memory: the ghost entries, written by MPI
  Buffer ghost_x;     // the ghost entries on the device
  Buffer ghost_y;     // the ghost block's rows of y (at least one element)
  Buffer dummy;       // x of a block with no columns (a view is never empty)
  DistributedSpmvTimes times;
  std::vector<MPI_Request> reqs;  // room for every message of a product, made once
};
}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

MPI_Datatype mpi_value(ValueType t) { return t == ValueType::f64 ? MPI_DOUBLE : MPI_FLOAT; }

}  // namespace

DistributedSpmv detail::DistributedAccess::make(std::unique_ptr<DistributedSpmvState> s) {
  return DistributedSpmv(std::move(s));
}

DistributedSpmv::DistributedSpmv(std::unique_ptr<detail::DistributedSpmvState> s)
    : s_(std::move(s)) {}
DistributedSpmv::DistributedSpmv(DistributedSpmv&&) noexcept = default;
DistributedSpmv& DistributedSpmv::operator=(DistributedSpmv&&) noexcept = default;
DistributedSpmv::~DistributedSpmv() = default;

namespace {

// The analyses, the temporary storage, the halo's staging and the ghost vector, for s.plan.
Status prepare(detail::DistributedSpmvState& s, bool automatic) {
  const detail::CsrRef a = s.a;
  Runtime& rt = a.runtime();
  const Context& ctx = rt.context();
  const Spmv& plan = *s.plan;
  if (plan.type() != a.value_type())
    return make_error(Errc::invalid_argument,
                      std::string("DistributedSpmv: the plan is for ") + to_string(plan.type()) +
                          " values, the matrix holds " + to_string(a.value_type()));
  const CsrView local = a.local_block(), ghost = a.ghost_block();
  if (automatic) {
    if (local.rows) {
      auto an = plan.analyze(rt, local);
      if (!an) return an.error();
      s.local_an = *an;
    }
    if (local.rows && ghost.nnz) {
      auto an = plan.analyze(rt, ghost);
      if (!an) return an.error();
      s.ghost_an = *an;
    }
    s.analyzed = true;
  }
  // One temporary buffer serves both blocks: their products run one after the other.
  const uint64_t temp = std::max(plan.temp_bytes(local), plan.temp_bytes(ghost));
  if (temp) {
    auto t = rt.alloc(temp);
    if (!t) return t.error();
    s.temp = std::move(*t);
  }
  s.reqs.reserve(size_t(2 * a.ranks()));
  auto g = Gather::create(ctx);
  if (!g) return g.error();
  s.gather.emplace(std::move(*g));
  auto sc = Scatter::create(ctx);
  if (!sc) return sc.error();
  s.scatter.emplace(std::move(*sc));
  auto c = Copy::create(ctx);
  if (!c) return c.error();
  s.copy.emplace(std::move(*c));
  const uint64_t es = size_of(a.value_type());
  const HaloPlan& h = a.halo();
  // Each buffer holds at least one element, so that no view is empty.
  const uint64_t send_bytes = std::max<uint64_t>(uint64_t(h.send_count()), 1) * es;
  const uint64_t recv_bytes = std::max<uint64_t>(uint64_t(h.recv_count()), 1) * es;
  auto b1 = rt.alloc(send_bytes, MemoryUsage::readback);
  if (!b1) return b1.error();
  s.send_stage = std::move(*b1);
  auto b2 = rt.alloc(recv_bytes, MemoryUsage::upload);
  if (!b2) return b2.error();
  s.recv_stage = std::move(*b2);
  auto b3 = rt.alloc(recv_bytes);
  if (!b3) return b3.error();
  s.ghost_x = std::move(*b3);
  auto b5 = rt.alloc(std::max<uint64_t>(ghost.rows, 1) * es);
  if (!b5) return b5.error();
  s.ghost_y = std::move(*b5);
  auto b4 = rt.alloc(16);
  if (!b4) return b4.error();
  s.dummy = std::move(*b4);
  return {};
}

}  // namespace

Result<DistributedSpmv> DistributedSpmv::create(const DistributedCsr& a,
                                                const SpmvOptions& options) {
  auto s = std::make_unique<detail::DistributedSpmvState>();
  s->a = detail::CsrRef{&detail::DistributedAccess::state(a)};
  const Status made = detail::guarded("DistributedSpmv::create", [&]() -> Status {
    if (options.complex)
      return make_error(Errc::unsupported, "DistributedSpmv: complex values are not distributed");
    auto plan = Spmv::create(a.runtime().context(), a.value_type(), options);
    if (!plan) return plan.error();
    s->owned.emplace(std::move(*plan));
    s->plan = &*s->owned;
    return prepare(*s, options.kernel == SpmvKernel::automatic);
  });
  VKPRIM_TRY(agree(a.comm(), made));
  return detail::DistributedAccess::make(std::move(s));
}

Result<DistributedSpmv> DistributedSpmv::create(const DistributedCsr& a, const Spmv& plan) {
  auto s = std::make_unique<detail::DistributedSpmvState>();
  s->a = detail::CsrRef{&detail::DistributedAccess::state(a)};
  s->plan = &plan;
  const Status made = detail::guarded("DistributedSpmv::create", [&]() -> Status {
    return prepare(*s, plan.kernel_option() == SpmvKernel::automatic);
  });
  VKPRIM_TRY(agree(a.comm(), made));
  return detail::DistributedAccess::make(std::move(s));
}

Status DistributedSpmv::run(BufferView x, BufferView y, double alpha, double beta) {
  return detail::guarded("DistributedSpmv::run", [&]() -> Status {
    detail::DistributedSpmvState& s = *s_;
    const detail::CsrRef a = s.a;
    Runtime& rt = a.runtime();
    const MPI_Comm comm = a.comm();
    const HaloPlan& h = a.halo();
    const uint64_t es = size_of(a.value_type());
    const CsrView local = a.local_block(), ghost = a.ghost_block();
    const uint64_t xb = uint64_t(a.local_cols()) * es, yb = uint64_t(a.local_rows()) * es;
    s.times = {};
    const Clock::time_point t0 = Clock::now();

    // The arguments, checked before anything is recorded; a refused rank still exchanges.
    Status st;
    const auto fits = [es](BufferView v, uint64_t bytes) {
      return v.size >= bytes && (bytes == 0 || (v.address != 0 && v.address % es == 0));
    };
    if (!fits(x, xb))
      st = make_error(Errc::invalid_argument,
                      "DistributedSpmv::run: x holds " + std::to_string(x.size) + " bytes, " +
                          std::to_string(xb) + " (this rank's columns) needed, aligned");
    else if (!fits(y, yb))
      st = make_error(Errc::invalid_argument,
                      "DistributedSpmv::run: y holds " + std::to_string(y.size) + " bytes, " +
                          std::to_string(yb) + " (this rank's rows) needed, aligned");
    else if (xb && yb && x.address < y.address + yb && y.address < x.address + xb)
      st = make_error(Errc::invalid_argument, "DistributedSpmv::run: x and y overlap");
    const BufferView x_local = xb ? x.sub(0, xb) : s.dummy.view();
    const BufferView y_local = y.sub(0, yb);
    const auto record_block = [&](VkCommandBuffer cmd, const CsrView& m, BufferView xv, BufferView yv,
                                  double b, const SpmvAnalysis& an) -> Status {
      const BufferView temp = s.temp.view();
      if (s.analyzed) return s.plan->record(cmd, m, xv, yv, alpha, b, an, temp);
      return s.plan->record(cmd, m, xv, yv, alpha, b, temp);
    };

    const bool exchange = alpha != 0.0;  // alpha == 0 reads neither A nor x
    const int ranks = a.ranks();
    std::vector<MPI_Request>& reqs = s.reqs;
    reqs.clear();
    if (exchange) {
      auto* recv = static_cast<char*>(s.recv_stage.mapped());
      for (int q = 0; q < ranks; ++q) {
        const int64_t b = h.recv_offsets[size_t(q)], n = h.recv_offsets[size_t(q) + 1] - b;
        if (n == 0) continue;
        reqs.emplace_back();
        MPI_Irecv(recv + b * int64_t(es), int(n), mpi_value(a.value_type()), q, 0, comm,
                  &reqs.back());
      }
      // Between the posted messages and their completion nothing may leave this function:
      // each step is guarded.
      if (st && h.send_count() > 0)
        st = detail::guarded("DistributedSpmv::run", [&]() -> Status {
          return rt.submit([&](VkCommandBuffer cmd) -> Status {
            full_barrier(rt.context(), cmd);
            VKPRIM_TRY(s.gather->record(cmd, x_local, a.send_indices(), s.send_stage.view(),
                                        uint64_t(h.send_count()), uint32_t(es)));
            full_barrier(rt.context(), cmd);
            return {};
          });
        });
      if (st) st = s.send_stage.invalidate();
      s.times.pack = ms_since(t0);
      const auto* send = static_cast<const char*>(s.send_stage.mapped());
      for (int q = 0; q < ranks; ++q) {
        const int64_t b = h.send_offsets[size_t(q)], n = h.send_offsets[size_t(q) + 1] - b;
        if (n == 0) continue;
        reqs.emplace_back();
        MPI_Isend(send + b * int64_t(es), int(n), mpi_value(a.value_type()), q, 0, comm,
                  &reqs.back());
      }
    }

    // The local block's product (alpha == 0: y = beta * y) beside the exchange.
    Status local_st;
    double local_ms = 0;
    const bool run_local = st.ok() && local.rows > 0;
    const auto local_product = [&] {
      const Clock::time_point tl = Clock::now();
      local_st = detail::guarded("DistributedSpmv::run", [&]() -> Status {
        return rt.submit([&](VkCommandBuffer cmd) -> Status {
          full_barrier(rt.context(), cmd);
          VKPRIM_TRY(record_block(cmd, local, x_local, y_local, beta, s.local_an));
          full_barrier(rt.context(), cmd);
          return {};
        });
      });
      local_ms = ms_since(tl);
    };
    const Clock::time_point te = Clock::now();
    if (run_local && !reqs.empty()) {
      std::optional<std::thread> worker;
      try {
        worker.emplace(local_product);
      } catch (const std::exception&) {
        // No thread to be had: the product runs after the exchange instead.
      }
      MPI_Waitall(int(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
      s.times.exchange = ms_since(te);
      if (worker)
        worker->join();
      else
        local_product();
    } else {
      MPI_Waitall(int(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
      s.times.exchange = ms_since(te);
      if (run_local) local_product();
    }
    s.times.local = local_ms;
    if (st) st = local_st;

    // The ghost block adds into its rows of y: gathered beside the ghost entries' upload, the
    // product added (beta = 1), scattered back.
    const Clock::time_point tg = Clock::now();
    if (st && exchange && local.rows > 0 && ghost.nnz > 0) {
      st = s.recv_stage.flush();
      if (st)
        st = detail::guarded("DistributedSpmv::run", [&]() -> Status {
          return rt.submit([&](VkCommandBuffer cmd) -> Status {
            full_barrier(rt.context(), cmd);
            const uint64_t bytes = uint64_t(h.recv_count()) * es;
            const BufferView gy = s.ghost_y.view().sub(0, ghost.rows * es);
            VKPRIM_TRY(s.copy->record(cmd, s.recv_stage.view(), s.ghost_x.view(), bytes));
            VKPRIM_TRY(s.gather->record(cmd, y_local, a.ghost_rows(), gy, ghost.rows, uint32_t(es)));
            full_barrier(rt.context(), cmd);
            VKPRIM_TRY(record_block(cmd, ghost, s.ghost_x.view().sub(0, bytes), gy, 1.0, s.ghost_an));
            full_barrier(rt.context(), cmd);
            VKPRIM_TRY(s.scatter->record(cmd, gy, a.ghost_rows(), y_local, ghost.rows, uint32_t(es)));
            full_barrier(rt.context(), cmd);
            return {};
          });
        });
    }
    s.times.ghost = ms_since(tg);
    const Clock::time_point ta = Clock::now();
    const Status agreed = agree(comm, st);
    s.times.agree = ms_since(ta);
    s.times.total = ms_since(t0);
    return agreed;
  });
}

const DistributedSpmvTimes& DistributedSpmv::last_times() const { return s_->times; }
const SpmvAnalysis& DistributedSpmv::local_analysis() const { return s_->local_an; }
const SpmvAnalysis& DistributedSpmv::ghost_analysis() const { return s_->ghost_an; }

}  // namespace vkprim::sparse
