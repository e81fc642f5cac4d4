// Sparse matrix times dense vector on the GPU: y = alpha * A * x + beta * y, A in CSR
// (device_csr.hpp), f32 or f64 (f64 where the device has shaderFloat64; Errc::unsupported
// otherwise), real or complex (SpmvOptions::complex: complex64 / complex128, real alpha and
// beta; the row kernel, the merge path and the nonzero tiles, see "Complex values" below).
//
// Five kernels (docs/sparse-gpu.md):
//
// * merge path (SpmvKernel::merge), the robust one: merge-based SpMV (Merrill & Garland,
//   "Merge-based Parallel Sparse Matrix-Vector Multiplication", SC16). The work is the merge of
//   the row end offsets with the nonzero indices, cut into fixed tiles of rows + nonzeros, one
//   tile per workgroup; inside a tile, each invocation sums 8 consecutive nonzeros and a
//   workgroup segmented scan (Blelloch's segmented-sum operator) joins them; rows crossing
//   tiles are finished by a segmented scan over the tiles' partial sums and a fix-up pass —
//   no float atomics. Robust on every row-length distribution: very long
//   rows (split across tiles), many empty rows (each costs one merge item), very short rows,
//   power-law. Passes: partition, tiles and, when there is more than one tile, a deterministic
//   segmented scan over tiles and the fix-up (6 dispatches; 3 when record() has an analysis
//   whose longest row is shorter than a tile: every tile then ends a row and the fix-up reads
//   the carries directly, with the same bits). Needs temporary storage.
// * row kernel (SpmvKernel::rows), the fast path for regular matrices: one dispatch, no
//   temporary storage, no atomics, no barrier of its own. L consecutive lanes of a subgroup
//   own one row (L a power of two up to the subgroup size, from the mean row length: the
//   largest power of two <= ceil(ceil(nnz / rows) / 8), / 4 under 2^20 rows, or
//   SpmvOptions::row_lanes), stride
//   over its nonzeros with coalesced loads (4 entries per lane per loop step, their loads
//   issued before their x gathers) and combine their sums by a fixed shuffle tree (shared
//   memory without subgroup operations: the same tree). A row of length n costs its lane
//   group ceil(n / (4 L)) steps, so one long row stalls its subgroup: this kernel alone is
//   only for rows of similar length. (On lavapipe, whose llvmpipe compiler stops any loop
//   after 65535 iterations, a forced row kernel drops the tail of rows longer than
//   65535 * 4 * L entries; `automatic` never sends such rows to it.)
// * split kernel (SpmvKernel::split), for irregular rows: the row kernel for every row of at
//   most 32 steps (128 L entries), skipping the longer rows, which a pass over the row
//   pointer lists first (integer atomics). Rows of up to 16384 entries get one workgroup
//   each, longer ("huge") rows several workgroups each whose partial sums a last pass adds in
//   a fixed order (spmv_long.comp) — no float atomics; the long rows run alongside the row
//   kernel (no barrier between them). 4 to 6 dispatches (with one tiny fill), temporary
//   storage for the lists and partials; with no long rows (by the analysis) it is the row
//   kernel alone. More than 65535 long or huge rows: the merge path instead.
// * nonzero tiles (SpmvKernel::nnz): the merge path's tile pass and fix-up over fixed tiles of
//   256 * 8 nonzeros instead of merge items (aligned: full tiles load 4 entries at once). A
//   tile writes every row that ends in it, so empty rows make its work unbounded: `automatic`
//   takes it only for matrices without empty rows, where the split kernel cannot run.
// * stream kernel (SpmvKernel::stream; CSR-Stream, Greathouse & Daga SC14), for regular
//   matrices: one dispatch, no temporary
//   storage, no atomics, no subgroup operations. A workgroup of 256 invocations owns 256
//   consecutive rows; it walks their nonzeros in chunks of 256 * items_per_invocation entries
//   (8 by default), each staged in shared memory as products A[k] * x[col[k]] by coalesced loads,
//   and invocation t adds the part of row t of the block lying in the chunk, serially. Balanced
//   within a workgroup only by nonzeros, so a long row among short ones stalls its workgroup.
//   (On lavapipe, whose loop cap counts a row's serial sum across chunks, rows longer than
//   about 65535 * 4 entries, or blocks of more than 65535 chunks, are lost.)
//
// Choosing (SpmvOptions::kernel): `automatic` picks from row-length statistics computed once per
// matrix by analyze() (a small GPU pass over the row pointer, read back). Regular rows — max row
// length <= 8 * mean + 32 (mean = nnz / rows over all rows, empty ones included) and the longest
// row takes a row-kernel lane group at most 1024 loop steps of 4 * L entries — go to the row kernel
// (f32 and f64: on regular rows it is faster than the stream kernel, docs/sparse-gpu.md); the
// split kernel takes the rest (power-law and arrow matrices, a
// dense row among short ones, a few very long rows; on matrices of fewer than 2^17 rows with a
// subgroup per row, L = the subgroup size, since such products are latency-bound), or, when they
// have more than 65535 long rows,
// the nonzero tiles (no empty row) or the merge path; on GPUs, 4-byte values on 2^20 rows or more
// with no empty row and a mean row length above 12 take the nonzero tiles (on such rows they are
// faster than the split kernel in f32, not in f64). The bound's constants are not tuned on a
// GPU (sparse/spmv/pass.hpp). Empty rows are not a veto by themselves: one costs the row kernel
// a row-pointer read and a y write, as it costs the merge path a merge item; where at least 90 % of
// the rows are empty the row kernel skips them (SpmvAnalysis::skip_empty_rows: each workgroup
// lists the non-empty rows of its window first, so no lane group waits on an empty row; the same
// sums, bit for bit); on GPUs, rows whose columns spread over all of x get more lanes per row.
// Column blocks: on GPUs, where the row or split kernel's rows gather at random over an x too
// large to stay in the GPU's cache beside the streamed matrix (x over 16 MiB, 2^20 rows or more,
// at least half the non-empty rows spread over more than a quarter of x, at least 3 entries per
// element of x), SpmvAnalysis::column_blocks recommends splitting A by columns into 2 blocks
// (split_columns in csr_build.hpp, once per matrix) and recording the product over the blocks
// (the record() taking blocks below); docs/sparse-gpu.md.
// The simple form spmv() does not split (a split pays only over repeated products).
// Without an SpmvAnalysis, record() runs the merge path under `automatic` (it cannot read
// statistics back while recording); `merge`, `nnz`, `rows`, `stream` and `split` force a kernel
// with or without one (the split kernel without an analysis makes room for every row that could
// be long). The simple form spmv() and `vkprim spmv` analyze and use `automatic` unless told
// otherwise.
//
// Determinism: every kernel gives bit-identical results from run to run on a device (every
// sum has a fixed order and every y element exactly one writer). The kernels (and the row
// kernel with different L) sum in different orders, so they may differ from each other by
// rounding; the row kernel's subgroup and shared-memory builds use the same tree and agree
// bit for bit; the stream kernel sums each row serially in entry order (a serial CPU loop's
// order); the split kernel's long-row lists are filled in any order, but a row's sum does not
// depend on its place in the list (fixed chunks, fixed trees, partials added in piece order).
// All differ from a serial CPU sum by rounding, within ~ (row length) * eps * sum |a_ij x_j|.
//
// Complex values (SpmvOptions::complex, CsrView::complex): complex builds of the row kernel
// (the same lane groups, loop and fixed tree, each sum per part), the merge path and the
// nonzero tiles (the same tiles; the in-tile segmented scan runs once per part with the same
// heads, and the tiles' carries are stored split by part, so the carries' segmented scan and
// the fix-up run once per part); products are complex. `automatic` with an analysis takes the
// row kernel on regular rows (the real rule, empty-row windows included) and otherwise the
// nonzero tiles (no empty row) or the merge path; without one, the merge path. The split and
// stream kernels are real-only: forcing one for complex values is Errc::unsupported at create().
// No column blocks are recommended. A complex tile holds twice the bytes: without
// SpmvOptions::workgroup_size the plan halves the tile until it fits the shared memory.
// Deterministic as the real kernels, bit for bit from run to run, at every subgroup size.
//
// BLAS conventions: beta == 0 means y is not read (NaNs in y do not propagate); alpha == 0 means
// A and x are not read (y = beta * y).
//
// Temporary storage (merge path, nonzero tiles, split kernel): temp_bytes(rows, nnz) tells what
// a call needs (a few words per tile of Spmv::tile_items() rows + nonzeros, or the split kernel's
// lists and partials if larger; 0 for a plan forced to the row or stream kernel);
// pass a buffer that large, or call reserve() once and pass none. Calls sharing a temp buffer
// are ordered by the barrier each call records first.
//
// Synchronization owed by the caller (as elementwise.hpp): before — writes of A, x, y ->
// COMPUTE_SHADER / SHADER_READ (and prior readers of y -> SHADER_WRITE); after — COMPUTE_SHADER
// / SHADER_WRITE -> the consumer of y. State overwritten: compute pipeline, push constants.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vkprim/buffer.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sparse/device_csr.hpp>
#include <vkprim/types.hpp>

namespace vkprim::sparse {

// Which kernel record() runs (see the top of this file).
enum class SpmvKernel : uint32_t {
  automatic = 0,  // from SpmvAnalysis when one is given, else the merge path
  merge = 1,      // merge path (robust on any row-length distribution)
  rows = 2,       // row kernel (regular rows)
  stream = 3,     // stream kernel (regular rows)
  split = 4,      // row kernel for rows up to a threshold, long rows split over workgroups
  nnz = 5,        // fixed tiles of nonzeros (any row-length distribution)
};
const char* to_string(SpmvKernel k);  // "auto", "merge", "rows", "stream", "split", "nnz"

struct SpmvOptions {
  // Use subgroup operations where the device has them (in-tile scan: shuffles, ballot; row
  // kernel: relative shuffles and subgroupMax); otherwise, or when false, shared memory only.
  bool use_subgroup_ops = true;
  // Tile shape of the merge path and the nonzero tiles: invocations per workgroup (32..1024, a
  // power of two; 0: 256) times 8 items each (fixed at build time); limit_exceeded where the
  // tile's shared memory does not fit the device. Small tiles are a testing aid: they make rows
  // cross many tile boundaries on small matrices. items_per_invocation (1..16; 0: 8) is the
  // stream kernel's chunk entries per invocation (its workgroup is always 256).
  uint32_t workgroup_size = 0;
  uint32_t items_per_invocation = 0;
  // Kernel choice. A plan builds the pipelines of the kernels it may run: all of them under
  // `automatic`, one otherwise (the split kernel: also the row kernel and the merge path).
  SpmvKernel kernel = SpmvKernel::automatic;
  // Row kernel: lanes per row (a power of two, at most the subgroup size — at most the
  // workgroup size without subgroup operations). 0: from the mean row length.
  uint32_t row_lanes = 0;
  // Complex values (CsrView::complex): A, x and y hold complex64 (type f32) or complex128
  // (type f64) values, each two parts of `type`, real part first; alpha and beta stay real.
  // Such a plan runs the row kernel, the merge path and the nonzero tiles (`automatic`,
  // `rows`, `merge`, `nnz`); forcing `stream` or `split` is Errc::unsupported at create().
  bool complex = false;
  // Whether each call records its own compute-to-compute barrier before its first pass
  // (elementwise.hpp: "Leading barrier"). false: the caller orders what came before the call,
  // the earlier calls on this object's reserved storage included.
  bool leading_barrier = true;
};

// Row-length statistics of one matrix (analyze(); or computed elsewhere, e.g. on the host).
struct SpmvRowStats {
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t nnz = 0;
  uint64_t max_row_length = 0;  // saturates at 2^32 - 1 when computed on the GPU
  uint64_t empty_rows = 0;
  // Rows longer than long_threshold entries (the split kernel's long rows; analyze() counts
  // them for the threshold the split kernel will use; 0 / 0 when unknown).
  uint64_t long_rows = 0;
  uint64_t long_threshold = 0;
  // Of those, rows longer than huge_threshold (split over several workgroups each).
  uint64_t huge_rows = 0;
  uint64_t huge_threshold = 0;
  // Rows whose first and last column indices differ by more than wide_span (analyze(): cols / 4;
  // 0 / 0 when unknown): where at least half the non-empty rows are wide, the row kernel takes
  // more lanes per row on GPUs (its gathers hit all of x).
  uint64_t wide_rows = 0;
  uint64_t wide_span = 0;
  double mean_row_length() const { return rows ? double(nnz) / double(rows) : 0.0; }
};

// What record() will run for one matrix: the statistics and the kernel chosen from them.
struct SpmvAnalysis {
  SpmvRowStats stats;
  SpmvKernel kernel = SpmvKernel::merge;  // merge, rows or stream, never automatic
  uint32_t row_lanes = 1;                 // lanes per row when kernel == rows or split
  // kernel == rows, chosen automatically for matrices with many empty rows: each workgroup first
  // lists the non-empty rows of its window of rows (writing y of the empty ones), so that every
  // lane group sums a non-empty row; row_lanes then follows their mean length.
  bool skip_empty_rows = false;
  // Recommended column blocks (1: none): the row kernel's gathers of x would run faster split
  // into this many blocks of columns (split_columns in csr_build.hpp, then the record() over
  // blocks below). On GPUs, for rows that gather all over an x larger than the cache keeps
  // beside the streamed matrix (sparse/spmv/pass.hpp); never on CPU devices.
  uint32_t column_blocks = 1;
};

namespace detail {
struct SpmvPlan;
struct SpmvDotAccess;  // the Krylov solvers' product with p.Ap (sparse/spmv/dot.hpp)
}

class Spmv {
 public:
  // Builds the pipelines for `type` (f32 or f64; with options.complex the type of each part),
  // both row-pointer widths. Errc::unsupported for f64 without shaderFloat64 and for complex
  // values with the stream or split kernel forced; invalid_argument for another type
  // or a bad tile shape, limit_exceeded when the tile does not fit the device's shared memory.
  static Result<Spmv> create(const Context& ctx, ValueType type, const SpmvOptions& options = {});

  ValueType type() const;
  // Rows + nonzeros per tile (merge items).
  uint32_t tile_items() const;
  bool uses_subgroup_ops() const;

  // The kernels this plan may run (SpmvOptions::kernel).
  SpmvKernel kernel_option() const;

  // Row-length statistics of `a` (a small GPU pass over the row pointer and each row's first and
  // last column index, submitted on `rt` and read back: call it once per matrix, not per
  // product) and the kernel choice for it. Requires the matrix to be written (the barrier of a
  // submission on rt).
  Result<SpmvAnalysis> analyze(Runtime& rt, const CsrView& a) const;
  // The recording form of analyze(): writes the statistics of `a` as 8 u32 words (the longest
  // row's length, saturated at 2^32 - 1; the number of empty rows; the split kernel's long-row
  // count and threshold; its huge-row count and threshold; the number of wide rows, whose first
  // and last column indices differ by more than cols / 4, and cols / 4) into `stats`
  // (kRowStatsBytes, 4-byte aligned device memory the caller reads back after the
  // submission), then hands them to analysis(). Same barriers as record().
  static constexpr uint64_t kRowStatsBytes = 32;
  Status record_row_stats(VkCommandBuffer cmd, const CsrView& a, BufferView stats) const;
  static SpmvRowStats row_stats_from_words(const CsrView& a, const uint32_t words[8]);
  // The kernel choice for statistics (the rule at the top of this file), honouring
  // SpmvOptions::kernel and row_lanes.
  SpmvAnalysis analysis(const SpmvRowStats& stats) const;

  uint64_t temp_bytes(uint64_t rows, uint64_t nnz) const;
  uint64_t temp_bytes(const CsrView& a) const { return temp_bytes(a.rows, a.nnz); }
  // Owned temporary storage for matrices up to rows x nnz (outside recording).
  Status reserve(uint64_t rows, uint64_t nnz);

  // y[0, rows) = alpha * A * x + beta * y. Requires A.value_type == type() and A.complex as
  // the plan's SpmvOptions::complex; x holds A.cols and y A.rows elements of that type
  // (complex: pairs), aligned (complex: to a part); x and y do not overlap (and neither overlaps
  // A); A as CsrView requires. Writes y[0, rows) and temp only. Errc::invalid_argument names the
  // broken requirement (row_lanes that are not a power of two up to the subgroup size included,
  // and missing temporary storage); limit_exceeded for more rows or tiles than the device's
  // dispatch limits cover; nothing is recorded then.
  // Without an analysis, SpmvKernel::automatic runs the merge path.
  Status record(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y,
                double alpha = 1.0, double beta = 0.0, BufferView temp = {}) const;
  // With the analysis of this matrix (same rows and nnz, else invalid_argument): runs
  // analysis.kernel (a forced SpmvOptions::kernel still wins). The row kernel needs no temp.
  Status record(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y, double alpha,
                double beta, const SpmvAnalysis& analysis, BufferView temp = {}) const;
  // A given as column blocks (split_columns: matrices of one shape and value type whose sum is
  // A), each with its analysis (analyses.size() == blocks.size()): y = alpha * A * x + beta * y,
  // one record() per block, the first with beta, the others adding to y, with a barrier between
  // them. Temporary storage for the block with the most nonzeros (temp_bytes(rows, that nnz)).
  // Where every block runs the split kernel or a kernel without temporary storage and the
  // storage also holds every split block's long-row lists, those lists are made first, all at
  // once (fewer dispatches and barriers); otherwise block by block. The same results either
  // way. Invalid arguments, too little temporary storage included, are reported before
  // anything is recorded.
  Status record(VkCommandBuffer cmd, std::span<const CsrView> blocks, BufferView x, BufferView y,
                double alpha, double beta, std::span<const SpmvAnalysis> analyses,
                BufferView temp = {}) const;

  Spmv(Spmv&&) noexcept;
  Spmv& operator=(Spmv&&) noexcept;
  ~Spmv();

 private:
  explicit Spmv(std::unique_ptr<detail::SpmvPlan>);
  friend struct detail::SpmvDotAccess;
  std::unique_ptr<detail::SpmvPlan> plan_;
};

// The simple form on the owned runtime: creates a plan (pipelines come from the context's
// pipeline cache after the first call; options.complex follows a.complex), analyzes A when
// options.kernel is automatic (one more submission), records, submits and waits. x and y are
// device buffers of A's value type (complex: pairs). For
// repeated products, create a Spmv and analyze A once, and record it instead.
Status spmv(Runtime& rt, const CsrView& a, BufferView x, BufferView y, double alpha = 1.0,
            double beta = 0.0, const SpmvOptions& options = {});

}  // namespace vkprim::sparse
