// CSR construction on the GPU from COO triplets, and CSR -> CSC (transpose):
//   1. keys row << col_bits | col (u32 when the shape's bits fit, else u64);
//   2. stable LSD radix sort (vkprim::RadixSort) on only the row + column bits the shape needs,
//      the values riding along as the payload (duplicates stay in input order);
//   3. compaction in one pass: the run ends of equal keys are ranked by a single-pass count
//      with decoupled look-back (each run's output position, no flag array or separate scan);
//      each run's last element sums the run's values serially from its first element, in
//      input order, writes (column, sum) at its position, and the row pointers of the rows
//      that start there (up to 64; a longer run of empty rows is listed);
//   4. the listed runs of empty rows, a workgroup each (no atomics on the row pointer).
// Result = Eigen's setFromTriplets bit for bit: any input order, duplicates summed left to right
// in input order (the same float operations as Eigen), explicit zeros kept, columns sorted
// within each row; identical from run to run. A run of d duplicates is summed by one invocation
// in O(d) steps.
//
// Limits: any number of triplets the device's buffers hold (the passes run in dispatches of at
// most 2^31 entries; 2^32 triplets or more need a 64-bit row pointer); rows < 2^32 - 1 (rows + 1
// row pointers), cols < 2^32.
// Temporary storage and synchronization as for spmv.hpp (temp_bytes/reserve; the caller owes
// the barriers before and after: the triplets or `a` are the inputs, `out`'s arrays and
// `counts` the outputs). State overwritten: compute pipeline, push constants.
#pragma once

#include <memory>
#include <vector>
#include <vkprim/buffer.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sort.hpp>
#include <vkprim/sparse/coo.hpp>
#include <vkprim/sparse/device_csr.hpp>

namespace vkprim::sparse {

struct CsrBuildOptions {
  bool use_subgroup_ops = true;
  // The radix sort's algorithm (SortOptions::algorithm): automatic is the sort's own choice
  // for the build's keys; either gives the same CSR.
  SortAlgorithm sort_algorithm = SortAlgorithm::automatic;
  // Whether each call records its own compute-to-compute barrier before its first pass
  // (elementwise.hpp: "Leading barrier"). false: the caller orders what came before the call,
  // the earlier calls on this object's reserved storage included.
  bool leading_barrier = true;
};

namespace detail {
struct CsrBuildPlan;
}
}  // namespace vkprim::sparse
namespace vkprim::detail {
struct PlanAccess;  // the library's own construction from a plan
}
namespace vkprim::sparse {

class CsrBuilder {
 public:
  // Pipelines for `values` (f32 or f64, else invalid_argument); Errc::unsupported for f64
  // without shaderFloat64 and when the device cannot run the radix sort.
  static Result<CsrBuilder> create(const Context& ctx, ValueType values,
                                   const CsrBuildOptions& options = {});

  // Temporary storage of a build of n triplets into a rows x cols matrix; reserve() allocates it
  // as owned storage (outside recording; grows only; out_of_device_memory on failure).
  uint64_t temp_bytes(uint64_t n, uint64_t rows, uint64_t cols) const;
  Status reserve(uint64_t n, uint64_t rows, uint64_t cols);
  // The same for record_transpose of `a` (a.rows x a.cols, a.nnz entries).
  uint64_t transpose_temp_bytes(const CsrView& a) const;
  Status reserve_transpose(const CsrView& a);

  // Builds CSR from n triplets (coo_rows, coo_cols: u32; coo_values: the builder's type).
  // `out` describes the destination: out.rows/cols the shape, out.row_ptr rows + 1 entries of
  // its width (out.row_ptr_64), out.col_idx and out.values room for n entries (out.nnz is
  // ignored). `counts` is 3 u32 written by the build: [0] the entry count after summing
  // duplicates (its low 32 bits), [1] status: bit 0 set when some triplet lay outside rows x cols
  // (it was counted as an entry at (0, 0)), [2] the entry count's high 32 bits. Inputs are not
  // modified; writes out's three arrays, counts and temp. invalid_argument for views too small
  // or misaligned, an output of another value type than the builder's, rows or cols of 2^32 or
  // more, counts of fewer than 3 words, 2^32 triplets and more with a 32-bit row pointer, or no
  // temporary storage; limit_exceeded for 2^32 - 1 rows; and the errors of its sort
  // (RadixSort::sort_pairs of the keys it makes in temp, with coo_values: e.g. coo_values
  // overlapping the sorted values in temp). Nothing is recorded on an error.
  Status record(VkCommandBuffer cmd, BufferView coo_rows, BufferView coo_cols,
                BufferView coo_values, uint64_t n, const CsrView& out, BufferView counts,
                BufferView temp = {}) const;

  // CSC of `a`, i.e. the CSR of its transpose, into `out` (out.rows = a.cols, out.cols = a.rows,
  // room for a.nnz entries); counts as above. Entries of a row keep their relative order.
  // invalid_argument also for `a` or `out` of another value type or shape, or input views too
  // small; otherwise the errors of record().
  Status record_transpose(VkCommandBuffer cmd, const CsrView& a, const CsrView& out,
                          BufferView counts, BufferView temp = {}) const;

  CsrBuilder(CsrBuilder&&) noexcept;
  CsrBuilder& operator=(CsrBuilder&&) noexcept;
  ~CsrBuilder();

 private:
  friend struct vkprim::detail::PlanAccess;
  explicit CsrBuilder(std::unique_ptr<detail::CsrBuildPlan>);
  std::unique_ptr<detail::CsrBuildPlan> plan_;
};

// Simple forms on the owned runtime (block until done). build_csr uploads m's triplets
// (symmetric storage not expanded: call expand_symmetry first) and builds on the GPU;
// Errc::invalid_argument for triplets outside the shape. transpose returns A^T in CSR (= A in
// CSC) with options.values of A and a row pointer as wide as needed. The GPU build, transpose
// and split_columns move real values only: a complex matrix (Field::complex,
// DeviceCsrOptions::complex, CsrView::complex) gives Errc::unsupported; upload it from a host
// CSR instead (to_csr, then DeviceCsr::upload).
Result<DeviceCsr> build_csr(Runtime& rt, const CooMatrix& m, const DeviceCsrOptions& options = {},
                            const CsrBuildOptions& build = {});
Result<DeviceCsr> transpose(Runtime& rt, const DeviceCsr& a, const CsrBuildOptions& build = {});
// The same with a builder created once (its pipelines are reused; its owned temporary storage
// grows as needed). The builder's value type must be options.values / a.value_type().
Result<DeviceCsr> build_csr(Runtime& rt, CsrBuilder& builder, const CooMatrix& m,
                            const DeviceCsrOptions& options = {});
Result<DeviceCsr> transpose(Runtime& rt, CsrBuilder& builder, const DeviceCsr& a);

// Column blocks: A split by columns into `blocks` CSR matrices of A's shape (rows x cols, A's
// value type and row-pointer width), block b holding the entries of A whose column lies in
// [cols * b / blocks, cols * (b + 1) / blocks), in A's order; A = the sum of the blocks. Their
// products summed give A x (Spmv::record over blocks), each gathering from its part of x only:
// on GPUs, where x does not stay in the cache beside the streamed matrix,
// SpmvAnalysis::column_blocks recommends it (include/vkprim/sparse/spmv.hpp). Runs on the GPU
// (per block: a flag pass, an exclusive scan, a scatter; one small read-back each) and blocks
// until done; the blocks together take as much memory as A, and the split temporarily one
// position per entry (as wide as A's row pointer, so any nnz a DeviceCsr holds).
// Errc::invalid_argument for blocks outside [1, min(cols, kMaxColumnBlocks)] (1 for a matrix
// without columns) or a malformed view; Errc::unsupported for a complex matrix.
inline constexpr uint32_t kMaxColumnBlocks = 64;
Result<std::vector<DeviceCsr>> split_columns(Runtime& rt, const CsrView& a, uint32_t blocks);

}  // namespace vkprim::sparse
