// Device-wide scan and reduce: Scan, Reduce, SegmentedScan, and Count, the element count
// every primitive takes.
//
// Strategies:
//  - single pass: chained scan with decoupled look-back (Merrill & Garland 2016), safe without
//    forward-progress guarantees by decoupled fallback (Smith, Levien & Owens, SPAA 2025): a
//    workgroup that waits too long on a predecessor reduces that tile's input itself. Tile ids
//    come from an atomic counter. Reads the input once: ~8 bytes moved per u32.
//  - reduce-then-scan: reduce contiguous ranges, scan the range totals, scan each range from its
//    prefix. Fixed combination order, so float results are bit-identical from run to run; reads
//    the input twice; works in place.
// The default (ScanStrategy::automatic) is single pass on GPUs and reduce-then-scan on CPU
// devices (lavapipe), and reduce-then-scan whenever the output is the input or
// ScanOptions::deterministic is set.
//
// Integer sums wrap modulo 2^bits (u32 sums past 2^32 - 1 wrap; use u64 for larger totals).
// Float sums are not bit-exact against a serial sum (the order differs); min/max with NaN
// inputs give unspecified results.
//
// Temporary storage: temp_bytes(max_n) tells what a call needs; pass a buffer that large (CUB's
// two phases), or call reserve(max_n) once, outside recording, and pass no temp buffer to use
// storage the object owns. The temp buffer is written by every call: calls sharing it are
// ordered by the barrier vkprim records at the start of each call.
//
// Synchronization owed by the caller: as for elementwise.hpp (inputs, the count buffer for the
// on_device form, outputs). State overwritten: compute pipeline and push constants.
//
// Errors of every recording call below (reported before anything is recorded):
// invalid_argument for an input or output too small for n elements, not addressable or not
// aligned to its element; input and output that overlap without being the same range; a count
// buffer that is not an aligned u32 or u64, or a u32 count whose max passes 2^32 - 1; no
// temporary storage, or temp smaller than temp_bytes(n) or not 16-byte aligned. limit_exceeded
// for more elements than the device's dispatch limits cover.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/types.hpp>

#include <memory>

namespace vkprim {

enum class ScanOp { sum, min, max };
enum class ScanStrategy { automatic, single_pass, reduce_then_scan };

struct ScanOptions {
  ScanStrategy strategy = ScanStrategy::automatic;
  // Bit-identical results from run to run, floats included (selects reduce-then-scan).
  bool deterministic = false;
  // f32/f64 sums only: compensated (Kahan-Babuska) summation, error ~ n·eps² instead of n·eps.
  bool compensated = false;
  // Use subgroup operations where the device has them and they are the faster path
  // (engine/scan/policy.hpp: all but 8-byte values on NVIDIA); otherwise, or when false, shared
  // memory only (also the path for devices without subgroup arithmetic).
  bool use_subgroup_ops = true;
  // Tuning aid: reduce-then-scan and reduce split the tiles into at most this many contiguous
  // ranges, one per workgroup (0: engine/scan/policy.hpp's default). Results stay
  // deterministic for a given value; sums of floats may differ between values.
  uint32_t range_groups = 0;
  // Whether each call records its own compute-to-compute barrier before its first pass
  // (elementwise.hpp: "Leading barrier"). false: the caller orders what came before the call,
  // the earlier calls on this object's reserved storage included.
  bool leading_barrier = true;
};

// An element count: on the host, or in a GPU buffer (at most `max`, which sizes the dispatch
// and the temporary storage) so work can be chained without a CPU round trip. A count on the
// GPU is a u32, or a u64 (`type`: ValueType::u64, e.g. a compaction's count_u64 count_out);
// its buffer must hold it at its natural alignment (invalid_argument otherwise, as for any
// other type). Past 2^32 - 1 elements every primitive takes a u64 count (a u32's max must stay
// below 2^32 for scans and compaction: invalid_argument; docs/api.md). A count on the GPU above
// `max` is taken as `max`: the call then writes what it writes for a host count of max, and
// reads and writes nothing past max elements.
struct Count {
  uint64_t n = 0;
  BufferView device{};
  ValueType device_type = ValueType::u32;
  Count(uint64_t host_n) : n(host_n) {}  // NOLINT: implicit, so a plain count reads naturally
  static Count on_device(BufferView count, uint64_t max, ValueType type = ValueType::u32) {
    Count c(max);
    c.device = count;
    c.device_type = type;
    return c;
  }
  bool is_device() const { return device.address != 0; }
};

namespace detail {
struct ScanPlan;
struct ScanInternals;  // the library's own callers of scans nested in their calls (engine/scan/pass.hpp)
struct PlanAccess;     // the library's own construction from a plan
}

class Scan {
 public:
  // Errc::unsupported for f64 without shaderFloat64; invalid_argument for `compensated` with
  // an integer type or another op than sum, and for `deterministic` with the single-pass strategy.
  static Result<Scan> create(const Context& ctx, ValueType type, ScanOp op = ScanOp::sum,
                             const ScanOptions& options = {});

  // Bytes of temporary storage a call of up to max_n elements needs.
  uint64_t temp_bytes(uint64_t max_n) const;
  // Allocates owned temporary storage for calls of up to max_n elements (outside recording;
  // grows only). out_of_device_memory where the allocation fails.
  Status reserve(uint64_t max_n);
  // The strategy calls use when the output is not the input.
  ScanStrategy strategy() const;
  bool uses_subgroup_ops() const;

  // out[i] = in[0] op ... op in[i] for i < n. `in` and `out` may be the same range (in place:
  // reduce-then-scan). Reads in[0, n); writes out[0, n) and temp.
  Status inclusive(VkCommandBuffer cmd, BufferView in, BufferView out, Count n,
                   BufferView temp = {}) const;
  // out[0] = identity, out[i] = in[0] op ... op in[i-1] for i < n. In place allowed. Reads and
  // writes as inclusive().
  Status exclusive(VkCommandBuffer cmd, BufferView in, BufferView out, Count n,
                   BufferView temp = {}) const;

  Scan(Scan&&) noexcept;
  Scan& operator=(Scan&&) noexcept;
  ~Scan();

 private:
  friend struct detail::ScanInternals;
  friend struct detail::PlanAccess;
  explicit Scan(std::unique_ptr<detail::ScanPlan>);
  std::unique_ptr<detail::ScanPlan> plan_;
};

// out[0] = in[0] op ... op in[n-1] (the identity for n = 0), as one T. Deterministic: a fixed
// combination order (two passes: contiguous ranges, then their totals).
class Reduce {
 public:
  // Errors as Scan::create.
  static Result<Reduce> create(const Context& ctx, ValueType type, ScanOp op = ScanOp::sum,
                               const ScanOptions& options = {});
  uint64_t temp_bytes(uint64_t max_n) const;  // as Scan's
  Status reserve(uint64_t max_n);             // as Scan's
  // Reads in[0, n); writes out[0] (out holds one aligned T) and temp. Errors as above.
  Status record(VkCommandBuffer cmd, BufferView in, BufferView out, Count n,
                BufferView temp = {}) const;

  Reduce(Reduce&&) noexcept;
  Reduce& operator=(Reduce&&) noexcept;
  ~Reduce();

 private:
  friend struct detail::PlanAccess;
  explicit Reduce(std::unique_ptr<detail::ScanPlan>);
  std::unique_ptr<detail::ScanPlan> plan_;
};

// Segmented sums: the scan restarts at every segment head. Segments are given by head flags
// (u32, nonzero = a segment starts here; element 0 always starts one) or by segment offsets
// (start indices, u32 or, for elements past 2^32, u64 (`offset_type`); in any order and any
// number; duplicates are empty segments; offsets >= n are ignored). Exclusive results are 0 at
// each segment's first element. invalid_argument for another offset type, or offsets that do
// not hold `segments` aligned indices.
class SegmentedScan {
 public:
  // Errc::unsupported for f64 without shaderFloat64; invalid_argument for `compensated`, and for
  // `deterministic` with the single-pass strategy.
  static Result<SegmentedScan> create(const Context& ctx, ValueType type,
                                      const ScanOptions& options = {});
  uint64_t temp_bytes(uint64_t max_n) const;  // as Scan's (the _by_offsets forms included)
  Status reserve(uint64_t max_n);             // as Scan's

  // Sums of in[0, n) by head flags heads[0, n) (u32; invalid_argument where heads does not hold
  // n aligned u32). Writes out[0, n) and temp; in place allowed.
  Status inclusive(VkCommandBuffer cmd, BufferView in, BufferView heads, BufferView out,
                   Count n, BufferView temp = {}) const;
  Status exclusive(VkCommandBuffer cmd, BufferView in, BufferView heads, BufferView out,
                   Count n, BufferView temp = {}) const;
  // The same by segment offsets: writes out[0, n) and temp (the head flags are made there).
  Status inclusive_by_offsets(VkCommandBuffer cmd, BufferView in, BufferView offsets,
                              uint64_t segments, BufferView out, uint64_t n,
                              BufferView temp = {}, ValueType offset_type = ValueType::u32) const;
  Status exclusive_by_offsets(VkCommandBuffer cmd, BufferView in, BufferView offsets,
                              uint64_t segments, BufferView out, uint64_t n,
                              BufferView temp = {}, ValueType offset_type = ValueType::u32) const;

  SegmentedScan(SegmentedScan&&) noexcept;
  SegmentedScan& operator=(SegmentedScan&&) noexcept;
  ~SegmentedScan();

 private:
  friend struct detail::ScanInternals;
  friend struct detail::PlanAccess;
  explicit SegmentedScan(std::unique_ptr<detail::ScanPlan>);
  std::unique_ptr<detail::ScanPlan> plan_;
};

}  // namespace vkprim
