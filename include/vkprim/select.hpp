// Compaction: select (copy_if), partition, unique, unique-by-key with a sum of each run, and the
// "count -> exclusive scan -> write at offset" allocation helper (OffsetAllocator).
//
// Algorithm. Select and unique: one pass over tiles with the single-pass scan's decoupled
// look-back over the tiles' selected counts (scan.hpp; decoupled fallback, so it never waits
// unboundedly on another workgroup): each tile reads its input once, coalesced, ranks its
// selected elements (subgroup sums of each lane's selection bits; a bitmask in shared memory
// without subgroup operations) and writes them at the offset the look-back found. Partition:
// stable, each tile counts its selected elements and the counts are added up first (the total
// is where the rejected elements start, which a single pass cannot know in advance), then one
// pass as select's writes the selected elements at the look-back's offsets and the rejected ones
// after the total; with the rejected elements reversed (PartitionOrder), select's pass alone
// writes them back from the end. Unique-by-key: count -> scan -> scatter (reduce-then-scan, as in Merrill &
// Grimshaw 2011): each tile counts its selected elements, the counts are scanned
// (vkprim::Scan), and each tile re-evaluates its selection and writes at its offsets.
// Output order is input order (stable) everywhere; results are deterministic (integer counts).
//
// The number selected is written to a GPU buffer (`count_out`, a u32 or, with
// SelectOptions::count_u64, a u64) so later work can read it without a CPU round trip, e.g. as
// Count::on_device. Counts: any count given on the host (select and unique past 2^31 elements
// as several dispatches, each starting its outputs after the total of those before; partition,
// unique-by-key and the allocator with 64-bit indices in one); from 2^32 elements on, the number
// selected needs SelectOptions::count_u64 (Errc::limit_exceeded without it; the allocator's
// total wraps as its offsets do). A count on the GPU (Count::on_device: a u32, or a u64 such as
// a count_u64 count_out) works the same way; past 2^32 - 1 elements it is a u64 (a u32's max
// there: Errc::invalid_argument), and select and unique's dispatches each take their part of it.
//
// Temporary storage: as for scan.hpp (temp_bytes(max_n) + a caller buffer, or reserve()).
// Synchronization owed by the caller: as for elementwise.hpp (inputs, flags, the count buffer
// for Count::on_device; outputs and count_out). State overwritten: compute pipeline and push
// constants. Outputs must not overlap inputs.
//
// Errors of every recording call below (reported before anything is recorded):
// invalid_argument for an input, output, flags or count_out view too small for its elements,
// not addressable or not aligned to its element; an output overlapping an input or count_out; a
// count buffer that is not an aligned u32 or u64, or a u32 count whose max passes 2^32 - 1; no
// temporary storage, or temp smaller than temp_bytes(n) or not 16-byte aligned.
// limit_exceeded for 2^32 elements or more without SelectOptions::count_u64 (not the
// allocator), or more elements than the device's dispatch limits cover.
#pragma once

#include <vkprim/buffer.hpp>
#include <vkprim/scan.hpp>
#include <vkprim/types.hpp>

#include <cstring>
#include <memory>

namespace vkprim {

// A built-in predicate on elements of the Select's type T, compared as T (floats as floats: a
// NaN satisfies only not_equal). mask_equal tests (bits(x) & a) == b on the raw bits.
enum class SelectOp { less, less_equal, greater, greater_equal, equal, not_equal, mask_equal, in_range };

struct Predicate {
  SelectOp op = SelectOp::less;
  ValueType type = ValueType::u32;
  uint64_t a = 0, b = 0;  // raw bit patterns of the operands

  template <Value T> static Predicate less(T v) { return make(SelectOp::less, v, T{}); }
  template <Value T> static Predicate less_equal(T v) { return make(SelectOp::less_equal, v, T{}); }
  template <Value T> static Predicate greater(T v) { return make(SelectOp::greater, v, T{}); }
  template <Value T> static Predicate greater_equal(T v) { return make(SelectOp::greater_equal, v, T{}); }
  template <Value T> static Predicate equal(T v) { return make(SelectOp::equal, v, T{}); }
  template <Value T> static Predicate not_equal(T v) { return make(SelectOp::not_equal, v, T{}); }
  // (x & mask) == value, on the bits of T (CUB's anchor "(x & 1) == 0" is mask_equal(1u, 0u)).
  template <Value T> static Predicate mask_equal(T mask, T value) { return make(SelectOp::mask_equal, mask, value); }
  // lo <= x < hi.
  template <Value T> static Predicate in_range(T lo, T hi) { return make(SelectOp::in_range, lo, hi); }

 private:
  template <Value T>
  static Predicate make(SelectOp op, T a, T b) {
    Predicate p;
    p.op = op;
    p.type = value_type_of<T>();
    std::memcpy(&p.a, &a, sizeof(T));
    std::memcpy(&p.b, &b, sizeof(T));
    return p;
  }
};

// Where partition puts the rejected elements. stable: after the selected ones, in input order
// (the counts are added up first: one pass more over the input). rejected_reversed: after the
// selected ones, in reverse input order (the last rejected element first), as CUB's
// DevicePartition::If writes them; select's single pass alone, which reads and writes every
// element once.
enum class PartitionOrder { stable, rejected_reversed };

struct SelectOptions {
  bool count_u64 = false;         // count_out receives a u64 instead of a u32
  bool use_subgroup_ops = true;   // as ScanOptions::use_subgroup_ops
  // Whether each call records its own compute-to-compute barrier before its first pass
  // (elementwise.hpp: "Leading barrier"). false: the caller orders what came before the call,
  // the earlier calls on this object's reserved storage included.
  bool leading_barrier = true;
};

namespace detail {
struct SelectPlan;
struct PlanAccess;  // the library's own construction from a plan
}

// Compaction of elements of one ValueType (4 or 8 bytes). Only predicates look at the type;
// flags and unique move and compare raw bits.
class Select {
 public:
  // Errc::unsupported for f64 without shaderFloat64.
  static Result<Select> create(const Context& ctx, ValueType type, const SelectOptions& options = {});
  // Bytes of temporary storage a call of up to max_n elements needs.
  uint64_t temp_bytes(uint64_t max_n) const;
  // Allocates owned temporary storage for calls of up to max_n elements (outside recording;
  // grows only). out_of_device_memory where the allocation fails.
  Status reserve(uint64_t max_n);

  // out[0, k) = the in[i] with flags[i] != 0 (u32 flags), in input order; k -> count_out.
  // out must hold max n elements; out[k, n) is not written. Writes out, count_out and temp.
  Status flagged(VkCommandBuffer cmd, BufferView in, BufferView flags, BufferView out,
                 BufferView count_out, Count n, BufferView temp = {}) const;
  // As flagged, selecting the in[i] for which `pred` holds. Errc::invalid_argument if pred's
  // type is not the Select's.
  Status predicated(VkCommandBuffer cmd, BufferView in, const Predicate& pred, BufferView out,
             BufferView count_out, Count n, BufferView temp = {}) const;
  // out[0, k) = the selected elements in input order, out[k, n) = the rejected ones in input
  // order (PartitionOrder::stable) or in reverse input order (rejected_reversed); k -> count_out.
  // Writes out[0, n), count_out and temp.
  Status partition_flagged(VkCommandBuffer cmd, BufferView in, BufferView flags, BufferView out,
                           BufferView count_out, Count n, BufferView temp = {},
                           PartitionOrder order = PartitionOrder::stable) const;
  Status partition_predicated(VkCommandBuffer cmd, BufferView in, const Predicate& pred, BufferView out,
                              BufferView count_out, Count n, BufferView temp = {},
                              PartitionOrder order = PartitionOrder::stable) const;
  // out[0, k) = the first element of each run of bit-identical consecutive elements (so for
  // floats -0.0 and +0.0 differ, and equal NaN bit patterns form one run); k -> count_out.
  // out[k, n) is not written.
  Status unique(VkCommandBuffer cmd, BufferView in, BufferView out, BufferView count_out, Count n,
                BufferView temp = {}) const;

  Select(Select&&) noexcept;
  Select& operator=(Select&&) noexcept;
  ~Select();

 private:
  friend struct detail::PlanAccess;
  explicit Select(std::unique_ptr<detail::SelectPlan>);
  std::unique_ptr<detail::SelectPlan> plan_;
};

// Unique by key with a sum of each run (CUB's ReduceByKey with a sum): for each run of
// bit-identical consecutive keys, keys_out[r] = the run's first key and values_out[r] = the sum
// of its values (a segmented scan, vkprim::SegmentedScan: integer sums wrap, float sums are not
// bit-exact against a serial sum); the number of runs -> count_out.
class UniqueByKey {
 public:
  // Errc::unsupported for an f64 key or value type without shaderFloat64.
  static Result<UniqueByKey> create(const Context& ctx, ValueType key_type, ValueType value_type,
                                    const SelectOptions& options = {});
  uint64_t temp_bytes(uint64_t max_n) const;  // as Select's
  Status reserve(uint64_t max_n);             // as Select's
  // Reads keys_in and values_in [0, n); writes keys_out[0, k), values_out[0, k), count_out and
  // temp (keys_out and values_out hold n elements each). invalid_argument also for values views
  // too small or misaligned, values_out overlapping values_in or keys_out, and values_in
  // overlapping the run sums in temp (its segmented scan's input and output).
  Status record(VkCommandBuffer cmd, BufferView keys_in, BufferView values_in, BufferView keys_out,
                BufferView values_out, BufferView count_out, Count n, BufferView temp = {}) const;

  UniqueByKey(UniqueByKey&&) noexcept;
  UniqueByKey& operator=(UniqueByKey&&) noexcept;
  ~UniqueByKey();

 private:
  explicit UniqueByKey(std::unique_ptr<detail::SelectPlan>);
  std::unique_ptr<detail::SelectPlan> plan_;
};

// The allocation helper: each of n producers asks for counts[i] slots (u32); offsets[i] =
// counts[0] + ... + counts[i - 1] (u32, wrapping past 2^32 - 1) and the total -> total_out (u32,
// or u64 with SelectOptions::count_u64, zero-extended). offsets may be counts (in place).
class OffsetAllocator {
 public:
  static Result<OffsetAllocator> create(const Context& ctx, const SelectOptions& options = {});
  uint64_t temp_bytes(uint64_t max_n) const;  // as Select's
  Status reserve(uint64_t max_n);             // as Select's
  // Reads counts[0, n); writes offsets[0, n), total_out and temp. invalid_argument also for
  // counts and offsets that overlap without being the same range, or total_out overlapping
  // either.
  Status record(VkCommandBuffer cmd, BufferView counts, BufferView offsets, BufferView total_out,
                Count n, BufferView temp = {}) const;

  OffsetAllocator(OffsetAllocator&&) noexcept;
  OffsetAllocator& operator=(OffsetAllocator&&) noexcept;
  ~OffsetAllocator();

 private:
  explicit OffsetAllocator(std::unique_ptr<detail::SelectPlan>);
  std::unique_ptr<detail::SelectPlan> plan_;
};

}  // namespace vkprim
