// Sparse matrix times dense vector on the GPU: y = alpha * A * x + beta * y, A in CSR
// (device_csr.hpp), f32 or f64 (f64 where the device has shaderFloat64; Errc::unsupported
// otherwise).
//
// Algorithm (docs/sparse-gpu.md): merge-based SpMV (Merrill & Garland, "Merge-based Parallel
// Sparse Matrix-Vector Multiplication", SC16). The work is the merge of the row end offsets
// with the nonzero indices, cut into fixed tiles of rows + nonzeros, one tile per workgroup;
// inside a tile, a segmented reduction (Blelloch's segmented-sum operator); rows crossing tiles
// are finished by a segmented scan over the tiles' partial sums and a fix-up pass — no float
// atomics. Robust on every shape of NOTES §6: very long rows (split across tiles), many empty
// rows (each costs one merge item, never a stalled tile), very short rows, power-law.
//
// Passes: partition (a binary search per tile boundary), tiles, and — when there is more than
// one tile — a deterministic segmented scan over tiles and the fix-up. Traffic: the matrix
// once (row_ptr + col_idx + values), x gathered, y read (beta != 0) and written once.
//
// Determinism: results are bit-identical from run to run on a device (every sum has a fixed
// order and every y element exactly one writer); they differ from a serial CPU sum by rounding
// (the order differs), within ~ (row length) * eps * sum |a_ij x_j|.
//
// BLAS conventions: beta == 0 means y is not read (NaNs in y do not propagate); alpha == 0 means
// A and x are not read (y = beta * y).
//
// Temporary storage: temp_bytes(rows, nnz) tells what a call needs (a few words per tile of
// Spmv::tile_items() rows + nonzeros); pass a buffer that large, or call reserve() once and pass
// none. Calls sharing a temp buffer are ordered by the barrier each call records first.
//
// Synchronization owed by the caller (as elementwise.hpp): before — writes of A, x, y ->
// COMPUTE_SHADER / SHADER_READ (and prior readers of y -> SHADER_WRITE); after — COMPUTE_SHADER
// / SHADER_WRITE -> the consumer of y. State overwritten: compute pipeline, push constants.
#pragma once

#include <memory>
#include <vkprim/buffer.hpp>
#include <vkprim/runtime.hpp>
#include <vkprim/sparse/device_csr.hpp>
#include <vkprim/types.hpp>

namespace vkprim::sparse {

struct SpmvOptions {
  // Use subgroup operations in the in-tile scan where the device has them (shuffles, ballot);
  // otherwise, or when false, shared memory only.
  bool use_subgroup_ops = true;
  // Tile shape: invocations per workgroup (32..1024, a power of two) and merge items per
  // invocation (1..16). 0: the tuned default for the value type and the device's shared memory.
  // Small tiles are a testing aid: they make rows cross many tile boundaries on small matrices.
  uint32_t workgroup_size = 0;
  uint32_t items_per_invocation = 0;
};

namespace detail {
struct SpmvPlan;
}

class Spmv {
 public:
  // Builds the pipelines for `type` (f32 or f64), both row-pointer widths. Errc::unsupported
  // for f64 without shaderFloat64; invalid_argument for another type or a bad tile shape,
  // limit_exceeded when the tile does not fit the device's shared memory.
  static Result<Spmv> create(const Context& ctx, ValueType type, const SpmvOptions& options = {});

  ValueType type() const;
  // Rows + nonzeros per tile (merge items).
  uint32_t tile_items() const;
  bool uses_subgroup_ops() const;

  uint64_t temp_bytes(uint64_t rows, uint64_t nnz) const;
  uint64_t temp_bytes(const CsrView& a) const { return temp_bytes(a.rows, a.nnz); }
  // Owned temporary storage for matrices up to rows x nnz (outside recording).
  Status reserve(uint64_t rows, uint64_t nnz);

  // y[0, rows) = alpha * A * x + beta * y. Requires A.value_type == type(); x holds A.cols and
  // y A.rows elements of that type, aligned; x and y do not overlap (and neither overlaps A).
  // Errc::invalid_argument names the broken requirement; nothing is recorded then.
  Status record(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y,
                double alpha = 1.0, double beta = 0.0, BufferView temp = {}) const;

  Spmv(Spmv&&) noexcept;
  Spmv& operator=(Spmv&&) noexcept;
  ~Spmv();

 private:
  explicit Spmv(std::unique_ptr<detail::SpmvPlan>);
  std::unique_ptr<detail::SpmvPlan> plan_;
};

// The simple form on the owned runtime: creates a plan (pipelines come from the context's
// pipeline cache after the first call), records, submits and waits. x and y are device buffers
// of A's value type. For repeated products, create a Spmv once and record it instead.
Status spmv(Runtime& rt, const CsrView& a, BufferView x, BufferView y, double alpha = 1.0,
            double beta = 0.0, const SpmvOptions& options = {});

}  // namespace vkprim::sparse
