// Distributed sparse matrices and SpMV over MPI, one rank per Vulkan device (docs/distributed.md).
//
// A DistributedCsr is a rows x cols CSR matrix spread over the ranks of an MPI communicator:
// rank r owns the contiguous rows [row_partition[r], row_partition[r + 1]) and the entries of
// x in [col_partition[r], col_partition[r + 1]) (the column partition is the row partition for
// a square matrix, so that x and y are laid out alike). Each rank holds its rows on its device
// as two CSR blocks:
//
// * the local block: the entries whose column the rank owns, columns renumbered from its first
//   owned column (a rows_local x cols_local matrix);
// * the ghost block: the other entries, their columns renumbered compactly in the order of their
//   global index, and only the rows that hold such entries (a ghost_rows x ghost_count matrix;
//   ghost_rows() lists their local row indices; the ghosts owned by one rank are consecutive,
//   since partitions are contiguous).
//
// The halo plan, built once by the constructor: for every other rank, which of this rank's x
// entries it needs (the send list, as u32 indices into the local x, on the device) and which
// ghost entries come from it (a range of the ghost vector).
//
// DistributedSpmv computes y = alpha * A * x + beta * y with x and y distributed by the
// partitions: the x entries to send are packed on the GPU (Gather) into host-visible staging,
// exchanged with non-blocking point-to-point MPI (host memory only: no GPU-aware MPI is
// assumed), the local block's product runs on the device while the exchange is in flight, and
// the ghost block's product then adds into the rows of y it holds (those rows gathered, the
// product added with beta = 1, the rows scattered back: the work follows the ghost entries,
// not the rank's rows).
//
// Collective calls and errors. Every call below that takes or uses a communicator is
// collective: every rank of the communicator makes it, in the same order, with the same
// arguments where the call says so. Such a call never hangs on a failure of one rank and never
// throws: a rank that fails (a file missing on rank 0, a block that does not fit its device, a
// bad partition, host or device memory exhausted) reaches the same agreement point as the
// others, and every rank returns the same Error: the first failing rank's (the lowest rank
// number), its message prefixed with "rank R" and how many ranks failed. Communication errors
// of MPI itself follow the communicator's MPI error handler (by default MPI aborts the job).
//
// DistributedKrylovSolver solves A x = b by CG or BiCGSTAB (with no preconditioner or Jacobi) over
// the ranks, with the single-GPU KrylovSolver's iteration and stopping rule (solvers.hpp): A p
// is a DistributedSpmv, the vector updates run on each rank's GPU, and each global dot product
// is the rank's partial sum on its GPU (a fixed-order reduction) followed by an MPI_Allgather of
// the partials, which every rank adds in rank order (so all ranks hold the same bits and take
// the same branch).
//
// Requirements: MPI is initialized before and finalized after every object here is destroyed;
// the calls are made from one thread of each rank, the only thread that calls MPI (a product's
// worker thread never does): MPI_THREAD_FUNNELED when that is the thread that initialized MPI.
// Objects keep a duplicate of the communicator (their messages never match the caller's) and a
// pointer to the Runtime they were created on, which must outlive them.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>
#include <vkprim/buffer.hpp>
#include <vkprim/error.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sparse/coo.hpp>
#include <vkprim/sparse/device_csr.hpp>
#include <vkprim/sparse/solvers.hpp>
#include <vkprim/sparse/spmv.hpp>
#include <vkprim/types.hpp>

namespace vkprim::sparse {

// ---------------------------------------------------------------------------------------------
// Agreement and devices

// The collective agreement every call below ends its phases with: returns `local` when every
// rank of `comm` passes an ok Status, else, on every rank, the Error of the lowest failing rank
// (code, VkResult and message, the message prefixed with "rank R: ", and "(K ranks failed)"
// when more than one did). Collective.
Status agree(MPI_Comm comm, const Status& local);

// This rank's number among the ranks of `comm` that share its node (MPI_Comm_split_type with
// MPI_COMM_TYPE_SHARED). Collective.
Result<int> node_local_rank(MPI_Comm comm);

// The Runtime of this rank: `info` as given, except that where info.device_selector is empty
// and VKPRIM_DEVICE is unset, the device is number (node-local rank mod K) among the K usable
// devices of the most preferred type present (discrete GPU, then integrated, virtual, CPU), in
// enumeration order. So ranks on one node spread over its GPUs, and more ranks than GPUs share
// them round robin. A selector, given or from VKPRIM_DEVICE, overrides the choice on every
// rank. Collective; errors agreed (a rank whose device cannot be created fails every rank).
Result<Runtime> create_rank_runtime(MPI_Comm comm, CreateInfo info = {});

// ---------------------------------------------------------------------------------------------
// Partitions

// Row offsets per rank: rank r owns [offsets[r], offsets[r + 1]); offsets has ranks + 1
// entries, non-decreasing, from 0 to the row (or column) count. A rank may own no rows.
using Partition = std::vector<int64_t>;

// invalid_argument, naming the fault, unless `p` partitions `count` rows over `ranks` ranks.
Status validate_partition(std::span<const int64_t> p, int64_t count, int ranks);

// Contiguous blocks balanced by nonzeros: rank r starts at the first row whose prefix of
// entries reaches r * nnz / ranks (row_offsets: a CSR row pointer of rows + 1 entries). A row
// holding more than nnz / ranks entries leaves the ranks after it fewer rows, or none.
Partition partition_by_nonzeros(std::span<const int64_t> row_offsets, int ranks);

// Blocks of rows / ranks rows (the first rows % ranks ranks get one more).
Partition partition_evenly(int64_t rows, int ranks);

// ---------------------------------------------------------------------------------------------
// Poisson matrices, generated by rows

// The 2-D 5-point (nz == 1) or 3-D 7-point Laplacian on an nx x ny x nz grid with Dirichlet
// boundaries: nx * ny * nz rows, the point (i, j, k) is row i + nx * (j + ny * k); diagonal 4
// (2-D) or 6 (3-D), -1 for each neighbour inside the grid. Symmetric positive definite.
struct PoissonGrid {
  int64_t nx = 0, ny = 0, nz = 1;
  int dims() const { return nz > 1 ? 3 : 2; }
  // "poisson2d:N" (N x N) or "poisson3d:N" (N x N x N); invalid_argument otherwise.
  static Result<PoissonGrid> parse(const std::string& spec);
};

// invalid_argument for a dimension < 1, or 2^62 / 7 rows or more.
Status validate(const PoissonGrid& g);
int64_t poisson_rows(const PoissonGrid& g);
// Entries of rows [0, row): the row pointer's value at `row`, in O(1) (0 <= row <= rows).
int64_t poisson_entries_before(const PoissonGrid& g, int64_t row);
// Rows [begin, end) of the matrix as a host CSR (rows end - begin, cols the global row count,
// global column indices, sorted within each row, real values). Requires validate(g) and
// 0 <= begin <= end <= rows, else invalid_argument; out_of_host_memory.
Result<CsrMatrix> poisson_block(const PoissonGrid& g, int64_t begin, int64_t end);
// Balanced by nonzeros, as partition_by_nonzeros, from poisson_entries_before (no row pointer).
Partition poisson_partition(const PoissonGrid& g, int ranks);

// ---------------------------------------------------------------------------------------------
// The distributed matrix

struct DistributedCsrOptions {
  ValueType values = ValueType::f32;  // f32 or f64 (f64 needs shaderFloat64 for SpMV)
  // The row partition (ranks + 1 offsets, the same on every rank); empty: balanced by nonzeros.
  Partition row_partition;
  // The partition of x (ranks + 1 offsets, the same on every rank); empty: the row partition
  // for a square matrix, else cols / ranks columns per rank (partition_evenly).
  Partition col_partition;
};

// What one rank sends and receives in a product (the halo plan).
struct HaloPlan {
  // For each rank q: [send_offsets[q], send_offsets[q + 1]) of the send list are the local x
  // indices whose values go to q; [recv_offsets[q], recv_offsets[q + 1]) of the ghost vector
  // come from q. Both have ranks + 1 entries; this rank's own ranges are empty.
  std::vector<int64_t> send_offsets;
  std::vector<int64_t> recv_offsets;
  std::vector<uint32_t> send_indices;  // the send list (also on the device)
  std::vector<int64_t> ghost_columns;  // the global column of each ghost entry, ascending
  int64_t send_count() const { return send_offsets.empty() ? 0 : send_offsets.back(); }
  int64_t recv_count() const { return recv_offsets.empty() ? 0 : recv_offsets.back(); }
  // Ranks this one sends to / receives from.
  int send_neighbors() const;
  int recv_neighbors() const;
};

namespace detail {
struct DistributedCsrState;
struct DistributedAccess;
}  // namespace detail

class DistributedCsr {
 public:
  // Rank 0's host matrix `root` (read on rank 0 only; nullptr, or anything, elsewhere) spread
  // over the ranks: rank 0 checks it (a well-formed CSR; real, integer or pattern values —
  // complex is Errc::unsupported; symmetry metadata is not expanded: expand it before building
  // the CSR), picks the partition (options.row_partition, else balanced by nonzeros) and sends
  // each rank its rows. Collective; errors agreed.
  static Result<DistributedCsr> scatter(Runtime& rt, MPI_Comm comm, const CsrMatrix* root,
                                        const DistributedCsrOptions& options = {});
  // Rank 0 reads `path` (read_matrix_file: Matrix Market or Binsparse), expands symmetric
  // storage, sums duplicates and scatters as above; `path` is read on rank 0 only. A file
  // rank 0 cannot read fails every rank with rank 0's error (io_error, parse_error, ...).
  static Result<DistributedCsr> read(Runtime& rt, MPI_Comm comm, const std::filesystem::path& path,
                                     const DistributedCsrOptions& options = {});
  // The Poisson matrix of `grid`, each rank generating only its own rows (poisson_block); the
  // partition is options.row_partition, else poisson_partition. `grid` the same on every rank.
  static Result<DistributedCsr> poisson(Runtime& rt, MPI_Comm comm, const PoissonGrid& grid,
                                        const DistributedCsrOptions& options = {});
  // Each rank's own rows as a host CSR (mine.rows rows of `cols` global columns, global column
  // indices, real/integer/pattern values): the row partition is the ranks' row counts in rank
  // order (options.row_partition, when given, must equal it). rows and cols the same on every
  // rank. Collective; errors agreed.
  static Result<DistributedCsr> from_rows(Runtime& rt, MPI_Comm comm, int64_t rows, int64_t cols,
                                          const CsrMatrix& mine,
                                          const DistributedCsrOptions& options = {});

  MPI_Comm comm() const;  // the duplicate this object communicates on
  int rank() const;
  int ranks() const;
  int64_t rows() const;  // global
  int64_t cols() const;
  int64_t nnz() const;
  ValueType value_type() const;
  const Partition& row_partition() const;
  const Partition& col_partition() const;
  int64_t row_begin() const { return row_partition()[rank()]; }
  int64_t local_rows() const { return row_partition()[rank() + 1] - row_begin(); }
  int64_t col_begin() const { return col_partition()[rank()]; }
  int64_t local_cols() const { return col_partition()[rank() + 1] - col_begin(); }

  // This rank's blocks on its device: the local block (local_rows() x local_cols()) and the
  // ghost block (its rows with ghost entries only x the ghost count), whose row i is local row
  // ghost_rows()[i] (ghost_block().rows u32, ascending; at least 4 bytes).
  CsrView local_block() const;
  CsrView ghost_block() const;
  BufferView ghost_rows() const;
  const HaloPlan& halo() const;
  // The send list on the device: halo().send_count() u32 (at least 4 bytes).
  BufferView send_indices() const;
  Runtime& runtime() const;

  DistributedCsr(DistributedCsr&&) noexcept;
  DistributedCsr& operator=(DistributedCsr&&) noexcept;
  ~DistributedCsr();

 private:
  friend struct detail::DistributedAccess;
  explicit DistributedCsr(std::unique_ptr<detail::DistributedCsrState>);
  std::unique_ptr<detail::DistributedCsrState> s_;
};

// ---------------------------------------------------------------------------------------------
// Distributed SpMV

// Wall-clock times of one run() on this rank, in milliseconds.
struct DistributedSpmvTimes {
  double pack = 0;      // the gather of the send list into host-visible staging (submit + wait)
  double exchange = 0;  // from posting the MPI sends to all receives complete
  double local = 0;     // the local block's product (submit + wait), beside the exchange
  double ghost = 0;     // the ghost entries' upload and the ghost block's product (its rows
                        // of y gathered, the product, the rows scattered back)
  double agree = 0;     // the closing agreement (an MPI_Allreduce: waits for the slowest rank)
  double total = 0;
};

namespace detail {
struct DistributedSpmvState;
}

class DistributedSpmv {
 public:
  // Plans the products of `a` (`a` and its Runtime outlive the object; moving `a` is fine): an
  // Spmv for a's value type with `options`, and, under SpmvKernel::automatic, an analysis of
  // each block (one submission each); the staging buffers of the halo, the ghost vector and the
  // ghost block's rows of y.
  // Collective; errors agreed (Errc::unsupported for f64 without shaderFloat64, as
  // Spmv::create; for complex options).
  static Result<DistributedSpmv> create(const DistributedCsr& a, const SpmvOptions& options = {});
  // The same with the caller's Spmv plan (for a's value type, real; it must outlive the object),
  // so that the products of many matrices share one plan and its pipelines. The blocks are
  // analyzed when plan.kernel_option() is SpmvKernel::automatic. invalid_argument for a plan of
  // another value type (a complex plan is refused by run(), as Spmv::record refuses it).
  static Result<DistributedSpmv> create(const DistributedCsr& a, const Spmv& plan);

  // y = alpha * A * x + beta * y over the ranks: x holds this rank's local_cols() entries and y
  // its local_rows() entries of a's value type, device buffers aligned to the element, not
  // overlapping. The semantics of Spmv::record, per rank: beta == 0 does not read y,
  // alpha == 0 reads neither A nor x (and exchanges nothing). alpha and beta the same on every
  // rank. Blocks until this rank's y is written. Its work goes in up to three submissions on
  // a's Runtime, each beginning and ending with a full barrier, so writes of x and y the caller
  // submitted earlier on that Runtime need no barrier of their own. Collective; errors
  // agreed: a rank whose arguments are refused (invalid_argument) or whose device fails still
  // takes part in the exchange, so that no rank waits for it, and every rank returns the lowest
  // failing rank's error.
  // The sums: y_i's local and ghost parts are each summed in Spmv's fixed order and then added,
  // so the result differs from the single-device product by rounding only, and is the same
  // from run to run.
  Status run(BufferView x, BufferView y, double alpha = 1.0, double beta = 0.0);

  const DistributedSpmvTimes& last_times() const;
  // The kernels the analyses chose for the local and ghost blocks (SpmvKernel::merge without).
  const SpmvAnalysis& local_analysis() const;
  const SpmvAnalysis& ghost_analysis() const;

  DistributedSpmv(DistributedSpmv&&) noexcept;
  DistributedSpmv& operator=(DistributedSpmv&&) noexcept;
  ~DistributedSpmv();

 private:
  friend struct detail::DistributedAccess;
  explicit DistributedSpmv(std::unique_ptr<detail::DistributedSpmvState>);
  std::unique_ptr<detail::DistributedSpmvState> s_;
};

// ---------------------------------------------------------------------------------------------
// Distributed Krylov solvers

struct DistributedKrylovOptions {
  KrylovMethod method = KrylovMethod::cg;                // cg or bicgstab
  Preconditioner preconditioner = Preconditioner::none;  // none or jacobi
  // Relative residual to stop at: ||r|| <= tolerance * ||b|| (r the recursively updated
  // residual; checked on the host, in double, after every iteration).
  double tolerance = 1e-8;
  // At most this many iterations; 0: 2 * rows (global), as KrylovSolver.
  uint64_t max_iterations = 0;
  // The options of the DistributedSpmv that computes A p (complex is refused).
  SpmvOptions spmv = {};
};

// Wall-clock times of the last solve() on this rank, in milliseconds.
struct DistributedSolveTimes {
  double total = 0;      // the whole solve
  double spmv = 0;       // the distributed products (DistributedSpmv::run, agreement included)
  double reduce = 0;     // the global sums (MPI_Allgather of the partials: waits for the slowest)
  uint64_t products = 0;    // distributed products run
  uint64_t reductions = 0;  // global sums made (each one MPI_Allgather)
  // Per iteration: total / iterations (0 after 0 iterations).
  double per_iteration(uint64_t iterations) const {
    return iterations ? total / double(iterations) : 0.0;
  }
};

namespace detail {
struct DistributedKrylovState;
}

// One iteration, with D the Jacobi preconditioner (the identity without one):
//
// * CG: q = A p (one distributed product); p.q (one global sum); x += alpha p, r -= alpha q,
//   z = D^-1 r, then r.r and r.z (one global sum); p = z + beta p.
// * BiCGSTAB (right preconditioned, as KrylovSolver): p = r + beta (p - omega v), y = D^-1 p,
//   v = A y (one product); r0.v (one sum); s = r - alpha v, z = D^-1 s, t = A z (one product);
//   s.s, t.s, t.t (one sum; s.s <= tolerance^2 b.b takes the half step, omega = 0);
//   x += alpha y + omega z, r = s - omega t, then r.r and r0.r (one sum).
//
// So an iteration costs CG 1 product and 2 global sums, BiCGSTAB 2 products and 3 sums; each
// product's closing agreement is one more MPI_Allreduce. Breakdowns, causes and the stop reason
// are KrylovSolver's: a zero or non-finite divisor (p.Ap, r.z, r0.v, r0.r, omega) or a
// non-finite r.r or b.b stops the solve as a breakdown, x at the last complete iterate, never
// reported as converged; b == 0 gives x = 0, converged after 0 iterations.
class DistributedKrylovSolver {
 public:
  // A solver for `a` (square, its column partition equal to its row partition, f32 or f64;
  // `a` and its Runtime outlive the solver; moving `a` is fine): the distributed product, the
  // pipelines of the vector updates and partial sums, the workspace for this rank's rows and,
  // with Jacobi, the inverse of the diagonal of this rank's rows (read from the local block:
  // one download of the block, once). Collective; errors agreed: invalid_argument for a matrix
  // that is not square or whose partitions differ, a tolerance negative or not finite,
  // max_iterations >= 2^32, an unknown method or preconditioner; with Jacobi, invalid_argument
  // naming the first global row whose diagonal entry is missing, zero or not finite
  // ("Jacobi preconditioner: row 17 has no diagonal entry"); Errc::unsupported for f64 without
  // shaderFloat64 and for complex SpmvOptions.
  static Result<DistributedKrylovSolver> create(const DistributedCsr& a,
                                                const DistributedKrylovOptions& options = {});
  // The same with the caller's Spmv plan (for a's value type, real; it must outlive the solver)
  // for the distributed product and the partial sums, so that solvers share one plan's
  // pipelines (options.spmv is then unused). The plan's kernel option should be
  // SpmvKernel::automatic: the partial sums are products of rows of n entries. invalid_argument
  // for a plan of another value type.
  static Result<DistributedKrylovSolver> create(const DistributedCsr& a,
                                                const DistributedKrylovOptions& options,
                                                const Spmv& plan);

  // Solves A x = b from x = 0: b and x hold this rank's local_rows() entries of a's value type,
  // device buffers aligned to the element, not overlapping (x is written, b only read). Blocks
  // until the solve stops; returns the status, the same on every rank (iterations, stop reason,
  // breakdown cause, ||r|| / ||b|| of the recursively updated residual). Each step is a
  // submission on a's Runtime that begins and ends with a full barrier, so the caller's earlier
  // writes of b on that Runtime need no barrier of their own. Collective; errors agreed: a rank
  // whose arguments are refused (invalid_argument) or whose device fails still takes part in
  // the next global sum, which carries the failure, and every rank returns the lowest failing
  // rank's error.
  Result<SolverStatus> solve(BufferView b, BufferView x);

  const DistributedKrylovOptions& options() const;
  const DistributedSolveTimes& last_times() const;

  DistributedKrylovSolver(DistributedKrylovSolver&&) noexcept;
  DistributedKrylovSolver& operator=(DistributedKrylovSolver&&) noexcept;
  ~DistributedKrylovSolver();

 private:
  explicit DistributedKrylovSolver(std::unique_ptr<detail::DistributedKrylovState>);
  std::unique_ptr<detail::DistributedKrylovState> s_;
};

}  // namespace vkprim::sparse
