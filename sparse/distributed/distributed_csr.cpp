// DistributedCsr: the partitions, the local/ghost split of each rank's rows, the halo plan, and
// the uploads. Every constructor runs in phases, each ending with agree(): a rank that fails in
// a phase (its error caught by guarded()) still reaches the same collectives as the others, and
// after a failed agreement every rank returns before the next phase.
#include <algorithm>
#include <climits>
#include <string>
#include <vkprim/sparse/distributed.hpp>
#include <vkprim/sparse/matrix_file.hpp>

#include "distributed_state.hpp"
#include "mpi_support.hpp"

namespace vkprim::sparse {

int HaloPlan::send_neighbors() const {
  int n = 0;
  for (size_t q = 0; q + 1 < send_offsets.size(); ++q) n += send_offsets[q + 1] > send_offsets[q];
  return n;
}
int HaloPlan::recv_neighbors() const {
  int n = 0;
  for (size_t q = 0; q + 1 < recv_offsets.size(); ++q) n += recv_offsets[q + 1] > recv_offsets[q];
  return n;
}

using detail::guarded;
using detail::OwnedComm;

namespace {

constexpr int kTagOffsets = 101, kTagColumns = 102, kTagValues = 103;
constexpr int64_t kU32Limit = int64_t(1) << 32;

double entry_value(const CsrMatrix& m, int64_t k) {
  switch (m.field) {
    case Field::real:
      return m.real_values[size_t(k)];
    case Field::integer:
      return double(m.integer_values[size_t(k)]);
    default:
      return 1.0;  // pattern
  }
}

// A host CSR's invariants, with its rows counted as `rows` and columns below `cols`.
Status check_host(const CsrMatrix& m, int64_t rows, int64_t cols, const char* who) {
  const auto bad = [who](Errc e, std::string msg) {
    return make_error(e, std::string(who) + ": " + std::move(msg));
  };
  if (m.field == Field::complex)
    return bad(Errc::unsupported,
               "complex matrices are not distributed (real, integer or "
               "pattern values only)");
  if (m.rows != rows)
    return bad(Errc::invalid_argument, "the matrix holds " + std::to_string(m.rows) +
                                           " rows, the partition gives this rank " +
                                           std::to_string(rows));
  if (m.row_offsets.size() != size_t(rows) + 1 || m.row_offsets.front() != 0 ||
      m.row_offsets.back() != m.nnz())
    return bad(Errc::invalid_argument, "row_offsets must hold rows + 1 offsets from 0 to nnz");
  for (int64_t r = 0; r < rows; ++r)
    if (m.row_offsets[size_t(r) + 1] < m.row_offsets[size_t(r)])
      return bad(Errc::invalid_argument, "row_offsets decrease at local row " + std::to_string(r));
  const size_t want = size_t(m.nnz());
  if ((m.field == Field::real && m.real_values.size() != want) ||
      (m.field == Field::integer && m.integer_values.size() != want))
    return bad(Errc::invalid_argument, "the value array must hold nnz entries");
  for (int64_t k = 0; k < m.nnz(); ++k)
    if (m.col_indices[size_t(k)] < 0 || m.col_indices[size_t(k)] >= cols)
      return bad(Errc::invalid_argument, "column index " +
                                             std::to_string(m.col_indices[size_t(k)]) +
                                             " outside [0, " + std::to_string(cols) + ")");
  return {};
}

// Every rank holds the same value (an argument the call requires equal on every rank).
Status check_same(MPI_Comm comm, int64_t v, const char* what, const char* who) {
  int64_t lo = 0, hi = 0;
  MPI_Allreduce(&v, &lo, 1, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(&v, &hi, 1, MPI_INT64_T, MPI_MAX, comm);
  if (lo == hi) return {};
  return make_error(Errc::invalid_argument,
                    std::string(who) + ": " + what + " differs between ranks (from " +
                        std::to_string(lo) + " to " + std::to_string(hi) + ")");
}

// The partition of `count` items: `given` (validated, and equal on every rank), else the one
// `fallback` makes on rank 0, broadcast. Collective; errors agreed.
template <class Fallback>
Status resolve_partition(MPI_Comm comm, const Partition& given, int64_t count, const char* what,
                         const char* who, Fallback&& fallback, Partition& out) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  VKPRIM_TRY(agree(comm, check_same(comm, given.empty() ? 0 : 1,
                                    (std::string("whether ") + what + " is given").c_str(), who)));
  if (given.empty()) {
    Status made = guarded(who, [&]() -> Status {
      if (rank == 0) out = fallback();
      return {};
    });
    VKPRIM_TRY(agree(comm, made));
    detail::bcast_vector(out, 0, comm);
    return {};
  }
  Status valid = validate_partition(given, count, ranks);
  if (!valid)
    valid = make_error(Errc::invalid_argument,
                       std::string(who) + ": " + what + ": " + valid.error().message);
  VKPRIM_TRY(agree(comm, valid));
  Partition first = given;
  MPI_Bcast(first.data(), int(first.size()), MPI_INT64_T, 0, comm);
  VKPRIM_TRY(agree(comm, first == given
                             ? Status{}
                             : make_error(Errc::invalid_argument, std::string(who) + ": " + what +
                                                                      " differs from rank 0's")));
  out = given;
  return {};
}

Status resolve_cols(MPI_Comm comm, const DistributedCsrOptions& o, int64_t rows, int64_t cols,
                    const Partition& row_part, const char* who, Partition& out) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  return resolve_partition(
      comm, o.col_partition, cols, "the column partition", who,
      [&] { return rows == cols ? row_part : partition_evenly(cols, ranks); }, out);
}

// This rank's rows split into the local and ghost blocks, in host form. The ghost block holds
// the rows with ghost entries only: ghost_rows are their local indices, ascending.
struct Split {
  std::vector<int64_t> local_rp, ghost_rp;
  std::vector<uint32_t> local_ci, ghost_ci, ghost_rows;
  std::vector<double> local_v, ghost_v;
};

Status split_rows(const CsrMatrix& mine, int64_t col_begin, int64_t col_end,
                  const Partition& col_part, detail::DistributedCsrState& s, Split& out) {
  const int64_t rows = mine.rows;
  const char* who = "DistributedCsr";
  if (rows >= kU32Limit || col_end - col_begin >= kU32Limit)
    return make_error(Errc::limit_exceeded,
                      std::string(who) + ": this rank's block of " + std::to_string(rows) +
                          " rows x " + std::to_string(col_end - col_begin) +
                          " owned columns passes a device CSR's 2^32 - 1 rows and columns; use "
                          "more ranks or another partition");
  std::vector<int64_t> ghosts;
  for (int64_t k = 0; k < mine.nnz(); ++k) {
    const int64_t c = mine.col_indices[size_t(k)];
    if (c < col_begin || c >= col_end) ghosts.push_back(c);
  }
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  if (int64_t(ghosts.size()) >= kU32Limit || int64_t(ghosts.size()) > INT_MAX)
    return make_error(Errc::limit_exceeded, std::string(who) + ": this rank's rows reach " +
                                                std::to_string(ghosts.size()) +
                                                " columns of other ranks, past 2^31 - 1");
  out.local_rp.assign(size_t(rows) + 1, 0);
  out.ghost_rp.assign(1, 0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = mine.row_offsets[size_t(r)]; k < mine.row_offsets[size_t(r) + 1]; ++k) {
      const int64_t c = mine.col_indices[size_t(k)];
      const double v = entry_value(mine, k);
      if (c >= col_begin && c < col_end) {
        out.local_ci.push_back(uint32_t(c - col_begin));
        out.local_v.push_back(v);
      } else {
        const auto at = std::lower_bound(ghosts.begin(), ghosts.end(), c) - ghosts.begin();
        out.ghost_ci.push_back(uint32_t(at));
        out.ghost_v.push_back(v);
      }
    }
    out.local_rp[size_t(r) + 1] = int64_t(out.local_ci.size());
    if (int64_t(out.ghost_ci.size()) > out.ghost_rp.back()) {
      out.ghost_rows.push_back(uint32_t(r));
      out.ghost_rp.push_back(int64_t(out.ghost_ci.size()));
    }
  }
  // The ghosts of rank q are those in q's column range: consecutive, as ghosts are sorted.
  const size_t ranks = col_part.size() - 1;
  s.halo.recv_offsets.assign(ranks + 1, 0);
  for (size_t q = 0; q < ranks; ++q)
    s.halo.recv_offsets[q + 1] =
        std::lower_bound(ghosts.begin(), ghosts.end(), col_part[q + 1]) - ghosts.begin();
  s.halo.ghost_columns = std::move(ghosts);
  return {};
}

// The collective core every constructor ends in: `mine` is this rank's rows (global columns)
// under partitions already agreed.
Result<DistributedCsr> build(Runtime& rt, OwnedComm comm, int64_t rows, int64_t cols,
                             Partition row_part, Partition col_part, const CsrMatrix& mine,
                             const DistributedCsrOptions& options) {
  const MPI_Comm c = comm.get();
  auto s = std::make_unique<detail::DistributedCsrState>();
  MPI_Comm_rank(c, &s->rank);
  MPI_Comm_size(c, &s->ranks);
  s->rt = &rt;
  s->rows = rows;
  s->cols = cols;
  s->type = options.values;
  const size_t ranks = size_t(s->ranks), me = size_t(s->rank);

  // Phase 1: check this rank's rows and split them.
  Split split;
  VKPRIM_TRY(agree(c, guarded("DistributedCsr", [&]() -> Status {
                     if (options.values != ValueType::f32 && options.values != ValueType::f64)
                       return make_error(Errc::invalid_argument,
                                         "DistributedCsr: values must be f32 or f64, not " +
                                             std::string(to_string(options.values)));
                     VKPRIM_TRY(
                         check_host(mine, row_part[me + 1] - row_part[me], cols, "DistributedCsr"));
                     return split_rows(mine, col_part[me], col_part[me + 1], col_part, *s, split);
                   })));
  int64_t local_nnz = mine.nnz();
  MPI_Allreduce(&local_nnz, &s->nnz, 1, MPI_INT64_T, MPI_SUM, c);

  // Phase 2: the halo plan. Each rank tells each owner how many of its columns it needs, then
  // which; the owners turn them into local indices (the send lists).
  std::vector<int64_t> need(ranks), give(ranks);
  for (size_t q = 0; q < ranks; ++q)
    need[q] = s->halo.recv_offsets[q + 1] - s->halo.recv_offsets[q];
  MPI_Alltoall(need.data(), 1, MPI_INT64_T, give.data(), 1, MPI_INT64_T, c);
  std::vector<int> scount(ranks), sdispl(ranks), rcount(ranks), rdispl(ranks);
  std::vector<int64_t> asked;
  VKPRIM_TRY(agree(c, guarded("DistributedCsr", [&]() -> Status {
                     int64_t total = 0;
                     for (size_t q = 0; q < ranks; ++q) total += give[q];
                     if (total > INT_MAX || total >= kU32Limit)
                       return make_error(Errc::limit_exceeded,
                                         "DistributedCsr: the other ranks need " +
                                             std::to_string(total) +
                                             " x entries of this rank, past 2^31 - 1");
                     s->halo.send_offsets.assign(ranks + 1, 0);
                     for (size_t q = 0; q < ranks; ++q) {
                       scount[q] = int(need[q]);
                       sdispl[q] = int(s->halo.recv_offsets[q]);
                       rcount[q] = int(give[q]);
                       rdispl[q] = int(s->halo.send_offsets[q]);
                       s->halo.send_offsets[q + 1] = s->halo.send_offsets[q] + give[q];
                     }
                     asked.resize(size_t(total));
                     return {};
                   })));
  MPI_Alltoallv(s->halo.ghost_columns.data(), scount.data(), sdispl.data(), MPI_INT64_T,
                asked.data(), rcount.data(), rdispl.data(), MPI_INT64_T, c);
  VKPRIM_TRY(agree(c, guarded("DistributedCsr", [&]() -> Status {
                     s->halo.send_indices.resize(asked.size());
                     for (size_t i = 0; i < asked.size(); ++i) {
                       if (asked[i] < col_part[me] || asked[i] >= col_part[me + 1])
                         return make_error(
                             Errc::invalid_argument,
                             "DistributedCsr: asked for column " + std::to_string(asked[i]) +
                                 ", which this rank does not own (the column partitions differ)");
                       s->halo.send_indices[i] = uint32_t(asked[i] - col_part[me]);
                     }
                     return {};
                   })));

  // Phase 3: the blocks and the send list on the device.
  s->row_part = std::move(row_part);
  s->col_part = std::move(col_part);
  VKPRIM_TRY(agree(
      c, guarded("DistributedCsr", [&]() -> Status {
        DeviceCsrOptions o;
        o.values = options.values;
        const uint64_t lrows = uint64_t(mine.rows);
        const uint64_t lcols = uint64_t(s->col_part[me + 1] - s->col_part[me]);
        auto local = DeviceCsr::upload<int64_t, uint32_t, double>(rt, lrows, lcols, split.local_rp,
                                                                  split.local_ci, split.local_v, o);
        if (!local)
          return Error{local.error().code, local.error().vk,
                       "DistributedCsr: this rank's local block (" + std::to_string(lrows) + " x " +
                           std::to_string(lcols) + ", " + std::to_string(split.local_ci.size()) +
                           " entries) does not fit its device: " + local.error().message};
        s->local = std::move(*local);
        const uint64_t gcols = s->halo.ghost_columns.size(), grows = split.ghost_rows.size();
        auto ghost = DeviceCsr::upload<int64_t, uint32_t, double>(rt, grows, gcols, split.ghost_rp,
                                                                  split.ghost_ci, split.ghost_v, o);
        if (!ghost)
          return Error{ghost.error().code, ghost.error().vk,
                       "DistributedCsr: this rank's ghost block (" + std::to_string(grows) + " x " +
                           std::to_string(gcols) + ", " + std::to_string(split.ghost_ci.size()) +
                           " entries) does not fit its device: " + ghost.error().message};
        s->ghost = std::move(*ghost);
        // The index lists on the device, each at least one word, so that no view is empty.
        const auto upload_indices = [&](std::vector<uint32_t> idx, Buffer& to) -> Status {
          if (idx.empty()) idx.push_back(0);
          auto b = rt.upload(idx);
          if (!b) return b.error();
          to = std::move(*b);
          return {};
        };
        VKPRIM_TRY(upload_indices(s->halo.send_indices, s->send_idx));
        return upload_indices(std::move(split.ghost_rows), s->ghost_rows);
      })));
  s->comm = std::move(comm);
  return detail::DistributedAccess::make(std::move(s));
}

}  // namespace

DistributedCsr::DistributedCsr(std::unique_ptr<detail::DistributedCsrState> s) : s_(std::move(s)) {}
DistributedCsr::DistributedCsr(DistributedCsr&&) noexcept = default;
DistributedCsr& DistributedCsr::operator=(DistributedCsr&&) noexcept = default;
DistributedCsr::~DistributedCsr() = default;

Result<DistributedCsr> DistributedCsr::from_rows(Runtime& rt, MPI_Comm comm, int64_t rows,
                                                 int64_t cols, const CsrMatrix& mine,
                                                 const DistributedCsrOptions& options) {
  return detail::guarded("DistributedCsr::from_rows", [&]() -> Result<DistributedCsr> {
    const char* who = "DistributedCsr::from_rows";
    OwnedComm oc(comm);
    const MPI_Comm c = oc.get();
    int ranks = 1;
    MPI_Comm_size(c, &ranks);
    VKPRIM_TRY(agree(c, check_same(c, rows, "the row count", who)));
    VKPRIM_TRY(agree(c, check_same(c, cols, "the column count", who)));
    VKPRIM_TRY(agree(
        c, rows < 0 || cols < 0
               ? make_error(Errc::invalid_argument, std::string(who) + ": negative dimensions")
               : Status{}));
    Partition row_part(size_t(ranks) + 1, 0);
    int64_t mine_rows = mine.rows;
    MPI_Allgather(&mine_rows, 1, MPI_INT64_T, row_part.data() + 1, 1, MPI_INT64_T, c);
    Status counts;
    for (int r = 0; r < ranks; ++r) {
      if (row_part[size_t(r) + 1] < 0)
        counts = make_error(Errc::invalid_argument, std::string(who) + ": a negative row count");
      row_part[size_t(r) + 1] += row_part[size_t(r)];
    }
    if (counts && row_part.back() != rows)
      counts = make_error(Errc::invalid_argument,
                          std::string(who) + ": the ranks hold " + std::to_string(row_part.back()) +
                              " rows together, the matrix has " + std::to_string(rows));
    if (counts && !options.row_partition.empty() && options.row_partition != row_part)
      counts = make_error(Errc::invalid_argument,
                          std::string(who) +
                              ": options.row_partition differs from the ranks' row "
                              "counts");
    VKPRIM_TRY(agree(c, counts));
    Partition col_part;
    VKPRIM_TRY(resolve_cols(c, options, rows, cols, row_part, who, col_part));
    return build(rt, std::move(oc), rows, cols, std::move(row_part), std::move(col_part), mine,
                 options);
  });
}

Result<DistributedCsr> DistributedCsr::poisson(Runtime& rt, MPI_Comm comm, const PoissonGrid& grid,
                                               const DistributedCsrOptions& options) {
  return detail::guarded("DistributedCsr::poisson", [&]() -> Result<DistributedCsr> {
    const char* who = "DistributedCsr::poisson";
    OwnedComm oc(comm);
    const MPI_Comm c = oc.get();
    int rank = 0, ranks = 1;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &ranks);
    VKPRIM_TRY(agree(c, validate(grid)));
    VKPRIM_TRY(agree(c, check_same(c, grid.nx, "grid.nx", who)));
    VKPRIM_TRY(agree(c, check_same(c, grid.ny, "grid.ny", who)));
    VKPRIM_TRY(agree(c, check_same(c, grid.nz, "grid.nz", who)));
    const int64_t n = poisson_rows(grid);
    Partition row_part, col_part;
    VKPRIM_TRY(resolve_partition(
        c, options.row_partition, n, "the row partition", who,
        [&] { return poisson_partition(grid, ranks); }, row_part));
    VKPRIM_TRY(resolve_cols(c, options, n, n, row_part, who, col_part));
    CsrMatrix mine;
    VKPRIM_TRY(agree(c, guarded(who, [&]() -> Status {
                       auto b =
                           poisson_block(grid, row_part[size_t(rank)], row_part[size_t(rank) + 1]);
                       if (!b) return b.error();
                       mine = std::move(*b);
                       return {};
                     })));
    return build(rt, std::move(oc), n, n, std::move(row_part), std::move(col_part), mine, options);
  });
}

Result<DistributedCsr> DistributedCsr::scatter(Runtime& rt, MPI_Comm comm, const CsrMatrix* root,
                                               const DistributedCsrOptions& options) {
  return detail::guarded("DistributedCsr::scatter", [&]() -> Result<DistributedCsr> {
    const char* who = "DistributedCsr::scatter";
    OwnedComm oc(comm);
    const MPI_Comm c = oc.get();
    int rank = 0, ranks = 1;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &ranks);
    // Rank 0 checks its matrix; the others learn its shape.
    int64_t head[2] = {0, 0};
    VKPRIM_TRY(agree(
        c, guarded(who, [&]() -> Status {
          if (rank != 0) return {};
          if (!root)
            return make_error(Errc::invalid_argument, std::string(who) + ": no matrix on rank 0");
          if (root->rows < 0 || root->cols < 0)
            return make_error(Errc::invalid_argument, std::string(who) + ": negative dimensions");
          VKPRIM_TRY(check_host(*root, root->rows, root->cols, who));
          head[0] = root->rows;
          head[1] = root->cols;
          return {};
        })));
    MPI_Bcast(head, 2, MPI_INT64_T, 0, c);
    const int64_t rows = head[0], cols = head[1];
    Partition row_part, col_part;
    VKPRIM_TRY(resolve_partition(
        c, options.row_partition, rows, "the row partition", who,
        [&] { return partition_by_nonzeros(root->row_offsets, ranks); }, row_part));
    VKPRIM_TRY(resolve_cols(c, options, rows, cols, row_part, who, col_part));

    // Each rank's entry count, then room for its rows (agreed before anything is sent, so that
    // no send waits on a rank that could not allocate).
    std::vector<int64_t> counts(size_t(ranks), 0);
    if (rank == 0)
      for (int q = 0; q < ranks; ++q)
        counts[size_t(q)] = root->row_offsets[size_t(row_part[size_t(q) + 1])] -
                            root->row_offsets[size_t(row_part[size_t(q)])];
    int64_t my_nnz = 0;
    MPI_Scatter(counts.data(), 1, MPI_INT64_T, &my_nnz, 1, MPI_INT64_T, 0, c);
    const int64_t b = row_part[size_t(rank)], e = row_part[size_t(rank) + 1];
    CsrMatrix mine;
    std::vector<int64_t> stage_rp;
    std::vector<double> stage_v;
    VKPRIM_TRY(agree(c, guarded(who, [&]() -> Status {
                       mine.rows = e - b;
                       mine.cols = cols;
                       mine.row_offsets.resize(size_t(e - b) + 1);
                       mine.col_indices.resize(size_t(my_nnz));
                       mine.real_values.resize(size_t(my_nnz));
                       if (rank == 0)
                         for (int q = 1; q < ranks; ++q) {
                           stage_rp.reserve(size_t(row_part[size_t(q) + 1] - row_part[size_t(q)]) +
                                            1);
                           stage_v.reserve(size_t(counts[size_t(q)]));
                         }
                       return {};
                     })));
    // Rank 0 sends each rank its rows: offsets rebased to 0, global columns, values as doubles.
    // Its staging was reserved above for the largest rank, so the sends allocate nothing and
    // cannot fail halfway; its own rows, copied last, are agreed after the receives.
    Status staged = guarded(who, [&]() -> Status {
      if (rank != 0) return {};
      for (int q = ranks - 1; q >= 1; --q) {
        const int64_t qb = row_part[size_t(q)], qe = row_part[size_t(q) + 1];
        const int64_t k0 = root->row_offsets[size_t(qb)], k1 = root->row_offsets[size_t(qe)];
        stage_rp.resize(size_t(qe - qb) + 1);
        for (int64_t r = qb; r <= qe; ++r)
          stage_rp[size_t(r - qb)] = root->row_offsets[size_t(r)] - k0;
        stage_v.resize(size_t(k1 - k0));
        for (int64_t k = k0; k < k1; ++k) stage_v[size_t(k - k0)] = entry_value(*root, k);
        detail::send_all(stage_rp.data(), int64_t(stage_rp.size()), q, kTagOffsets, c);
        detail::send_all(root->col_indices.data() + k0, k1 - k0, q, kTagColumns, c);
        detail::send_all(stage_v.data(), int64_t(stage_v.size()), q, kTagValues, c);
      }
      const int64_t k1 = root->row_offsets[size_t(e)];
      for (int64_t r = 0; r <= e; ++r) mine.row_offsets[size_t(r)] = root->row_offsets[size_t(r)];
      for (int64_t k = 0; k < k1; ++k) {
        mine.col_indices[size_t(k)] = root->col_indices[size_t(k)];
        mine.real_values[size_t(k)] = entry_value(*root, k);
      }
      return {};
    });
    if (rank != 0) {
      detail::recv_all(mine.row_offsets.data(), int64_t(mine.row_offsets.size()), 0, kTagOffsets,
                       c);
      detail::recv_all(mine.col_indices.data(), my_nnz, 0, kTagColumns, c);
      detail::recv_all(mine.real_values.data(), my_nnz, 0, kTagValues, c);
    }
    VKPRIM_TRY(agree(c, staged));
    return build(rt, std::move(oc), rows, cols, std::move(row_part), std::move(col_part), mine,
                 options);
  });
}

Result<DistributedCsr> DistributedCsr::read(Runtime& rt, MPI_Comm comm,
                                            const std::filesystem::path& path,
                                            const DistributedCsrOptions& options) {
  return detail::guarded("DistributedCsr::read", [&]() -> Result<DistributedCsr> {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    CsrMatrix host;
    const Status loaded = guarded("DistributedCsr::read", [&]() -> Status {
      if (rank != 0) return {};
      MatrixMarketReadOptions ro;
      ro.expand_symmetry = true;
      ro.sum_duplicates = true;
      auto m = read_matrix_file(path, ro);
      if (!m) return m.error();
      auto csr = to_csr(*m, true);
      if (!csr) return csr.error();
      host = std::move(*csr);
      return {};
    });
    VKPRIM_TRY(agree(comm, loaded));
    return scatter(rt, comm, rank == 0 ? &host : nullptr, options);
  });
}

MPI_Comm DistributedCsr::comm() const { return s_->comm.get(); }
int DistributedCsr::rank() const { return s_->rank; }
int DistributedCsr::ranks() const { return s_->ranks; }
int64_t DistributedCsr::rows() const { return s_->rows; }
int64_t DistributedCsr::cols() const { return s_->cols; }
int64_t DistributedCsr::nnz() const { return s_->nnz; }
ValueType DistributedCsr::value_type() const { return s_->type; }
const Partition& DistributedCsr::row_partition() const { return s_->row_part; }
const Partition& DistributedCsr::col_partition() const { return s_->col_part; }
CsrView DistributedCsr::local_block() const { return s_->local.view(); }
CsrView DistributedCsr::ghost_block() const { return s_->ghost.view(); }
BufferView DistributedCsr::ghost_rows() const { return s_->ghost_rows.view(); }
const HaloPlan& DistributedCsr::halo() const { return s_->halo; }
BufferView DistributedCsr::send_indices() const { return s_->send_idx.view(); }
Runtime& DistributedCsr::runtime() const { return *s_->rt; }

}  // namespace vkprim::sparse
