// SpMV plan: the merge path (partition, tiles, segmented scan of the tiles' carries, fix-up),
// the row kernel, the stream kernel, the split kernel (row kernel + long rows over
// workgroups), and the row-length analysis that chooses between them
// (include/vkprim/sparse/spmv.hpp; shaders/spmv_*.comp; docs/sparse-gpu.md).
#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>
#include <vkprim/elementwise.hpp>
#include <vkprim/scan.hpp>
#include <vkprim/sparse/spmv.hpp>

#include "core/value_bits.hpp"
#include "core/call_checks.hpp"
#include "core/temp_storage.hpp"
#include "core/pipeline.hpp"
#include "scan/pass.hpp"  // ScanInternals: the carries' scan checked up front
#include "spmv/dot.hpp"
#include "spmv/pass.hpp"

namespace vkprim::sparse {
namespace detail {

using vkprim::detail::compute_to_compute_barrier;
using vkprim::detail::align16;
using vkprim::detail::overlap;
using vkprim::detail::ContextImpl;
using vkprim::detail::grid_groups;
using vkprim::detail::Pipeline;
using vkprim::detail::value_bits;

namespace {

}  // namespace

// Temporary storage of one call, for `tiles` tiles (each array 16-byte aligned).
struct SpmvTempLayout {
  uint64_t coords = 0, carry = 0, carry_head = 0, carry_scan = 0, head = 0, fix = 0, scan = 0,
           total = 0;
  SpmvTempLayout(uint64_t tiles, uint32_t esz, uint64_t scan_bytes) {
    uint64_t at = 0;
    auto take = [&at](uint64_t bytes) {
      const uint64_t here = at;
      at += align16(bytes);
      return here;
    };
    coords = take((tiles + 1) * 4);
    carry = take(tiles * esz);
    carry_head = take(tiles * 4);
    carry_scan = take(tiles * esz);
    head = take(tiles * esz);
    fix = take(tiles * 4);
    scan = take(scan_bytes);
    total = at;
  }
};

struct SpmvPlan {
  const ContextImpl* ctx = nullptr;
  bool leading_barrier = true;  // SpmvOptions
  ValueType type = ValueType::f32;
  // Complex values (SpmvOptions::complex): two parts of `type` each; esz is a value's bytes,
  // part its parts' (the alignment views need).
  bool complex = false;
  uint32_t esz = 4, part = 4, wg = tuning::kSpmvWorkgroup, items = tuning::kSpmvItems;
  bool subgroup = false;       // merge path's in-tile scan
  bool rows_subgroup = false;  // row kernel's reduction
  bool cpu = false;            // a CPU device (lavapipe): no column blocks recommended
  SpmvKernel kernel = SpmvKernel::automatic;  // the option: which kernels this plan has
  uint32_t row_lanes_option = 0;
  uint32_t max_lanes = 1;  // row kernel: lanes per row at most
  uint32_t stream_items = tuning::kSpmvStreamItems;
  // The split kernel falls back to the merge path when a matrix has too many long rows.
  // Complex values run on the row kernel, the merge path and the nonzero tiles; the split and
  // stream kernels are built for real values only.
  bool has_merge() const {
    return kernel == SpmvKernel::automatic || kernel == SpmvKernel::merge ||
           kernel == SpmvKernel::split;
  }
  bool has_nnz() const { return kernel == SpmvKernel::automatic || kernel == SpmvKernel::nnz; }
  // The tile pass, the carries' scan and the fix-up: the merge path and the nonzero tiles.
  bool has_tiles() const { return has_merge() || has_nnz(); }
  bool has_split() const {
    return !complex && (kernel == SpmvKernel::automatic || kernel == SpmvKernel::split);
  }
  bool has_rows() const {
    return has_split() || kernel == SpmvKernel::rows ||
           (complex && kernel == SpmvKernel::automatic);
  }
  // The row kernel over windows that skip empty rows: only an analysis under automatic asks.
  bool has_rows_window() const { return kernel == SpmvKernel::automatic; }
  bool has_stream() const {
    return !complex && (kernel == SpmvKernel::automatic || kernel == SpmvKernel::stream);
  }
  // [0]: u32 row pointer, [1]: u64. One tile pass for both partitions.
  Pipeline partition[2], nnz_partition[2], tiles[2], fixup;
  Pipeline rows_kernel[2], rows_window[2], stream_kernel[2], stats[2], list_kernel[2],
      long_kernel[2];
  // The row kernel's DOT build (dot.hpp), made by SpmvDotAccess::enable.
  Pipeline rows_dot[2];
  bool has_rows_dot = false;
  uint32_t rows_required_subgroup = 0;  // the row kernel's required subgroup size (0: none)
  std::optional<SegmentedScan> carry_scan;
  std::optional<Fill> fill;
  std::optional<Map> map;
  std::optional<Buffer> owned_temp;

  // Merge path: tiles of rows + nonzeros (merge items); nonzero tiles: of nonzeros only, at
  // least one (it writes the rows of a matrix without nonzeros).
  uint32_t tile_items() const { return wg * items; }
  uint64_t tile_count(uint64_t rows, uint64_t nnz, bool nnz_tiles) const {
    const uint64_t t = tile_items();
    return nnz_tiles ? std::max<uint64_t>(1, (nnz + t - 1) / t) : (rows + nnz + t - 1) / t;
  }
  uint64_t scan_bytes(uint64_t tiles) const {
    return tiles > 1 ? carry_scan->temp_bytes(tiles) : 0;
  }
  SpmvTempLayout layout(uint64_t rows, uint64_t nnz, bool nnz_tiles) const {
    const uint64_t t = tile_count(rows, nnz, nnz_tiles);
    return SpmvTempLayout(t, esz, scan_bytes(t));
  }
  uint64_t temp_bytes(uint64_t rows, uint64_t nnz) const {
    if (rows == 0 || !has_tiles()) return 0;
    uint64_t bytes = 0;
    if (has_merge()) bytes = layout(rows, nnz, false).total;
    if (has_nnz()) bytes = std::max(bytes, layout(rows, nnz, true).total);
    if (has_split()) {
      // Room for every possible long and huge row; pieces * huge rows <=
      // kSpmvLongTargetGroups + huge rows.
      const uint32_t t = split_threshold(rows, nnz);
      const uint64_t cap_long = split_capacity(rows, nnz, t);
      const uint64_t cap_huge = split_capacity(rows, nnz, huge_threshold(t));
      if (cap_long <= tuning::kSpmvLongMaxRows)
        bytes = std::max(bytes, split_bytes(cap_long, cap_huge,
                                            tuning::kSpmvLongTargetGroups + cap_huge));
    }
    return bytes;
  }

  uint32_t auto_lanes(uint64_t rows, uint64_t nnz) const {
    return row_lanes_option ? row_lanes_option : tuning::spmv_row_lanes(rows, nnz, max_lanes);
  }
  // The split kernel's lanes: its long-row threshold, the statistics' long-row count and its
  // temporary storage all follow from them.
  uint32_t split_lanes(uint64_t rows, uint64_t nnz) const {
    return row_lanes_option ? row_lanes_option
                            : tuning::spmv_split_row_lanes(rows, nnz, max_lanes);
  }
  static uint32_t long_threshold(uint32_t lanes) { return tuning::spmv_long_threshold(lanes); }
  uint32_t split_threshold(uint64_t rows, uint64_t nnz) const {
    return long_threshold(split_lanes(rows, nnz));
  }
  // Rows longer than `threshold` a matrix can have at most.
  static uint64_t split_capacity(uint64_t rows, uint64_t nnz, uint64_t threshold) {
    return std::min(rows, nnz / (threshold + 1));
  }
  static uint32_t huge_threshold(uint32_t long_threshold) {
    return std::max(long_threshold, tuning::kSpmvHugeRow);
  }
  // Split kernel's temporary storage: the lists' counts, the long and huge lists (rows), then
  // the huge rows' partial sums.
  static constexpr uint64_t kSplitCountBytes = 16;  // the lists' two u32 counts, padded
  uint64_t split_bytes(uint64_t cap_long, uint64_t cap_huge, uint64_t partials) const {
    return kSplitCountBytes + vkprim::detail::align16(cap_long * 4) +
           vkprim::detail::align16(cap_huge * 4) + vkprim::detail::align16(partials * esz);
  }

  SpmvAnalysis analysis(const SpmvRowStats& st) const {
    SpmvAnalysis an;
    an.stats = st;
    an.row_lanes = auto_lanes(st.rows, st.nnz);
    if (kernel != SpmvKernel::automatic) {
      an.kernel = kernel;
      if (kernel == SpmvKernel::split) an.row_lanes = split_lanes(st.rows, st.nnz);
      return an;
    }
    const double bound =
        tuning::kSpmvRowsMaxFactor * st.mean_row_length() + tuning::kSpmvRowsMaxSlack;
    const uint64_t steps = (st.max_row_length + tuning::kSpmvRowsUnroll * an.row_lanes - 1) /
                           (tuning::kSpmvRowsUnroll * an.row_lanes);
    const bool regular = double(st.max_row_length) <= bound && steps <= tuning::kSpmvRowsMaxSteps;
    if (complex) {
      // Complex values: the row kernel on regular rows (with the real rule's empty-row
      // windows), else the tiles (no split kernel for complex values): of nonzeros when no row
      // is empty, of merge items when some are. No column blocks (split_columns moves real
      // values only).
      if (!regular) {
        an.kernel = st.empty_rows == 0 ? SpmvKernel::nnz : SpmvKernel::merge;
        return an;
      }
      an.kernel = SpmvKernel::rows;
      if (st.empty_rows * 100 >= st.rows * tuning::kSpmvSkipEmptyPercent &&
          st.empty_rows < st.rows) {
        an.skip_empty_rows = true;
        if (!row_lanes_option)
          an.row_lanes = tuning::spmv_skip_row_lanes(st.rows, st.rows - st.empty_rows, st.nnz, esz,
                                                     false, max_lanes);
      }
      return an;
    }
    // Wide rows (gathering all over x; counted by the statistics) take more lanes on GPUs, and
    // column blocks where x is large.
    const bool wide = !cpu && st.wide_span == tuning::spmv_wide_span(st.cols) &&
                      st.wide_rows * 2 >= st.rows - st.empty_rows;
    if (regular) {
      an.kernel = SpmvKernel::rows;
      if (wide && st.rows >= tuning::kSpmvRowsManyRows && !row_lanes_option)
        an.row_lanes = tuning::spmv_wide_row_lanes(st.rows, st.nnz, esz, max_lanes);
      an.column_blocks = column_blocks(st, wide);
      if (st.empty_rows * 100 >= st.rows * tuning::kSpmvSkipEmptyPercent &&
          st.empty_rows < st.rows) {
        an.skip_empty_rows = true;
        if (!row_lanes_option)
          an.row_lanes = tuning::spmv_skip_row_lanes(st.rows, st.rows - st.empty_rows, st.nnz,
                                                     esz, wide, max_lanes);
      }
    } else {
      // Irregular rows: the split kernel when the statistics counted its long rows and there
      // are not too many of them; otherwise tiles, of nonzeros when no row is empty (a tile
      // then ends at most one row per nonzero), of merge items (bounded rows) when some are.
      // On GPUs, large matrices of 4-byte values whose rows take several split-kernel lanes
      // run faster in nonzero tiles (tuning::kSpmvTilesOverSplitLanes).
      const uint32_t t = split_threshold(st.rows, st.nnz);
      const bool tiles_win = !cpu && esz == 4 && st.empty_rows == 0 &&
                             st.rows >= tuning::kSpmvRowsManyRows &&
                             split_lanes(st.rows, st.nnz) >= tuning::kSpmvTilesOverSplitLanes;
      const bool split_ok = st.long_threshold == t && st.huge_threshold == huge_threshold(t) &&
                            st.long_rows <= tuning::kSpmvLongMaxRows && !tiles_win;
      if (split_ok) {
        an.row_lanes = split_lanes(st.rows, st.nnz);
        an.column_blocks = column_blocks(st, wide);
      }
      an.kernel = split_ok            ? SpmvKernel::split
                  : st.empty_rows == 0 ? SpmvKernel::nnz
                                       : SpmvKernel::merge;
    }
    return an;
  }

  // The column blocks recommended for the row and split kernels on rows whose gathers spread
  // over all of x (`wide`): on GPUs, by x's size (sparse/spmv/pass.hpp).
  uint32_t column_blocks(const SpmvRowStats& st, bool wide) const {
    const uint64_t x_bytes = st.cols * esz;
    if (cpu || !wide || st.rows < tuning::kSpmvRowsManyRows ||
        x_bytes <= tuning::kSpmvColumnBlockBytes ||
        st.nnz < tuning::kSpmvColumnBlockGathers * st.cols)
      return 1;
    const uint64_t b = (x_bytes + tuning::kSpmvColumnBlockBytes - 1) / tuning::kSpmvColumnBlockBytes;
    return uint32_t(std::min<uint64_t>({b, tuning::kSpmvAutoColumnBlocks, st.cols}));
  }

  // Validates the matrix view for the statistics pass.
  Status check_matrix(const CsrView& a, const char* who) const {
    const auto bad = [who](std::string m) {
      return make_error(Errc::invalid_argument, std::string(who) + ": " + std::move(m));
    };
    if (a.rows >= (uint64_t(1) << 32) || a.cols >= (uint64_t(1) << 32))
      return bad("rows and cols must be < 2^32");
    if (!a.row_ptr_64 && a.nnz >= (uint64_t(1) << 32))
      return bad("nnz >= 2^32 needs a 64-bit row pointer");
    const uint64_t rp = a.row_ptr_64 ? 8 : 4;
    if (a.rows && (a.row_ptr.size < (a.rows + 1) * rp || a.row_ptr.address == 0 ||
                   a.row_ptr.address % rp))
      return bad("row_ptr must hold rows + 1 aligned " + std::to_string(rp * 8) + "-bit entries");
    if (a.nnz && (a.col_idx.size < a.nnz * 4 || a.col_idx.address == 0 || a.col_idx.address % 4))
      return bad("col_idx must hold nnz aligned u32");
    return {};
  }

  Status record_stats(VkCommandBuffer cmd, const CsrView& a, BufferView out) const {
    VKPRIM_TRY(check_matrix(a, "Spmv::record_row_stats"));
    if (out.size < Spmv::kRowStatsBytes || out.address == 0 || out.address % 4)
      return make_error(Errc::invalid_argument,
                        "Spmv::record_row_stats: stats must hold " + std::to_string(Spmv::kRowStatsBytes) +
                            " bytes, 4-byte aligned");
    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of `out` are done
    VKPRIM_TRY(fill->record(cmd, out.sub(0, Spmv::kRowStatsBytes), 0, 4));
    if (a.rows == 0) return {};
    compute_to_compute_barrier(*ctx, cmd);
    const int w = a.row_ptr_64 ? 1 : 0;
    const uint32_t t = split_threshold(a.rows, a.nnz);
    SpmvStatsPush sp{a.row_ptr.address,         out.address, a.col_idx.address, uint32_t(a.rows), t,
                     huge_threshold(t), tuning::spmv_wide_span(a.cols)};
    stats[w].dispatch(cmd, &sp, grid_groups(*ctx, a.rows, stats[w].tile_items()));
    return {};
  }

  Status check(const CsrView& a, BufferView x, BufferView y) const {
    const auto bad = [](std::string m) {
      return make_error(Errc::invalid_argument, "Spmv: " + std::move(m));
    };
    if (a.value_type != type || a.complex != complex)
      return bad(std::string("the matrix holds ") + (a.complex ? "complex " : "") +
                 to_string(a.value_type) + " values, the plan is for " +
                 (complex ? "complex " : "") + to_string(type));
    if (a.rows >= (uint64_t(1) << 32) || a.cols >= (uint64_t(1) << 32))
      return bad("rows and cols must be < 2^32");
    if (!a.row_ptr_64 && a.nnz >= (uint64_t(1) << 32))
      return bad("nnz >= 2^32 needs a 64-bit row pointer");
    const uint64_t rp = a.row_ptr_64 ? 8 : 4;
    const auto view_ok = vkprim::detail::view_fits;
    if (a.rows && !view_ok(a.row_ptr, (a.rows + 1) * rp, rp))
      return bad("row_ptr must hold rows + 1 aligned " + std::to_string(rp * 8) + "-bit entries");
    if (!view_ok(a.col_idx, a.nnz * 4, 4)) return bad("col_idx must hold nnz aligned u32");
    if (!view_ok(a.values, a.nnz * esz, part)) return bad("values must hold nnz aligned elements");
    if (!view_ok(x, a.cols * esz, part))
      return bad("x holds " + std::to_string(x.size) + " bytes, " + std::to_string(a.cols * esz) +
                 " (cols elements) needed, aligned to the element");
    if (!view_ok(y, a.rows * esz, part))
      return bad("y holds " + std::to_string(y.size) + " bytes, " + std::to_string(a.rows * esz) +
                 " (rows elements) needed, aligned to the element");
    const uint64_t yb = a.rows * esz;
    if (overlap(y, yb, x, a.cols * esz) || overlap(y, yb, a.values, a.nnz * esz) ||
        overlap(y, yb, a.col_idx, a.nnz * 4) ||
        overlap(y, yb, a.row_ptr, a.rows ? (a.rows + 1) * rp : 0))
      return bad("y overlaps x or the matrix");
    return {};
  }

  Status check_tile_limits(const CsrView& a, bool nnz_tiles) const {
    const uint64_t tiles = tile_count(a.rows, a.nnz, nnz_tiles);
    const auto& caps = ctx->caps;
    if (tiles >= (uint64_t(1) << 32) - 1 ||
        tiles > uint64_t(caps.max_workgroup_count[0]) * caps.max_workgroup_count[1])
      return make_error(Errc::limit_exceeded,
                        "Spmv: " + std::to_string(a.rows + a.nnz) +
                            " rows + nonzeros exceed the device's dispatch limits");
    return {};
  }

  // Which kernel runs, and with how many lanes per row.
  Status resolve(const CsrView& a, const SpmvAnalysis* an, SpmvKernel& k, uint32_t& lanes,
                 bool& skip_empty) const {
    if (an && (an->stats.rows != a.rows || an->stats.nnz != a.nnz))
      return make_error(Errc::invalid_argument,
                        "Spmv: the analysis is of a " + std::to_string(an->stats.rows) +
                            "-row matrix with " + std::to_string(an->stats.nnz) +
                            " nonzeros, not of this one (" + std::to_string(a.rows) + " rows, " +
                            std::to_string(a.nnz) + " nonzeros)");
    k = kernel != SpmvKernel::automatic ? kernel : an ? an->kernel : SpmvKernel::merge;
    if (k == SpmvKernel::automatic) k = SpmvKernel::merge;
    lanes = an && an->row_lanes ? an->row_lanes
            : k == SpmvKernel::split ? split_lanes(a.rows, a.nnz)
                                     : auto_lanes(a.rows, a.nnz);
    skip_empty = k == SpmvKernel::rows && an && an->kernel == SpmvKernel::rows &&
                 an->skip_empty_rows && has_rows_window();
    // Split kernel with more possible long rows than one grid dimension: the merge path.
    if (k == SpmvKernel::split) {
      const auto [cap_long, cap_huge] = split_rows(a, an, lanes);
      if (std::max(cap_long, cap_huge) > tuning::kSpmvLongMaxRows) k = SpmvKernel::merge;
    }
    if ((k == SpmvKernel::rows || k == SpmvKernel::split) && (!std::has_single_bit(lanes) || lanes > max_row_lanes()))
      return make_error(Errc::invalid_argument,
                        "Spmv: row_lanes must be a power of two <= " +
                            std::to_string(max_row_lanes()) + ", not " + std::to_string(lanes));
    return {};
  }
  // Long rows (up to the huge threshold) and huge rows the split kernel must make room for:
  // the analysis's counts when it counted them for these thresholds, else the most the matrix
  // can have.
  bool counted(const SpmvAnalysis* an, uint32_t t) const {
    return an && an->stats.long_threshold == t && an->stats.huge_threshold == huge_threshold(t);
  }
  std::pair<uint64_t, uint64_t> split_rows(const CsrView& a, const SpmvAnalysis* an,
                                           uint32_t lanes) const {
    const uint32_t t = long_threshold(lanes);
    if (counted(an, t))
      return {an->stats.long_rows - an->stats.huge_rows, an->stats.huge_rows};
    return {split_capacity(a.rows, a.nnz, t), split_capacity(a.rows, a.nnz, huge_threshold(t))};
  }
  uint32_t max_row_lanes() const { return rows_subgroup ? max_lanes : tuning::kSpmvRowsWorkgroup; }

  // The dispatch limits of kernel k (resolve()'s choice) on `a`: what record_tiles,
  // record_rows and record_stream check before they record, checked for a whole call (every
  // block of a column-block product) before anything is recorded.
  Status check_limits(const CsrView& a, SpmvKernel k, uint32_t lanes, bool skip_empty) const {
    uint64_t gx = 1, gy = 1;
    switch (k) {
      case SpmvKernel::rows:
      case SpmvKernel::split: {
        const uint64_t per_group = skip_empty ? tuning::kSpmvRowsWindow : tuning::kSpmvRowsWorkgroup / lanes;
        return row_grid(a.rows, (a.rows + per_group - 1) / per_group, gx, gy);
      }
      case SpmvKernel::stream: {
        const uint64_t per_group = tuning::kSpmvStreamWorkgroup;
        return row_grid(a.rows, (a.rows + per_group - 1) / per_group, gx, gy);
      }
      default:
        return check_tile_limits(a, k == SpmvKernel::nnz);
    }
  }

  Status record(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y, double alpha,
                double beta, BufferView temp_in, const SpmvAnalysis* an) const {
    VKPRIM_TRY(check(a, x, y));
    SpmvKernel k = SpmvKernel::merge;
    uint32_t lanes = 1;
    bool skip_empty = false;
    VKPRIM_TRY(resolve(a, an, k, lanes, skip_empty));
    VKPRIM_TRY(check_limits(a, k, lanes, skip_empty));
    if (k == SpmvKernel::rows) return record_rows(cmd, a, x, y, alpha, beta, lanes, skip_empty);
    if (k == SpmvKernel::stream) return record_stream(cmd, a, x, y, alpha, beta);
    if (k == SpmvKernel::split) return record_split(cmd, a, x, y, alpha, beta, lanes, an, temp_in);
    return record_tiles(cmd, a, x, y, alpha, beta, temp_in, an, k == SpmvKernel::nnz);
  }

  // The temporary storage a call uses: `temp_in`, or the owned buffer when it is empty; at least
  // `need` bytes, 16-byte aligned.
  Status use_temp(const CsrView& a, BufferView temp_in, uint64_t need, BufferView& temp) const {
    temp = temp_in;
    if (temp.address == 0) {
      if (!owned_temp || owned_temp->size() < need)
        return make_error(Errc::invalid_argument,
                          "Spmv: no temporary storage: pass a buffer of temp_bytes(rows, nnz) = " +
                              std::to_string(temp_bytes(a.rows, a.nnz)) +
                              " bytes or call reserve(rows, nnz) first");
      temp = owned_temp->view();
    }
    if (temp.size < need || temp.address % 16)
      return make_error(Errc::invalid_argument,
                        "Spmv: temporary storage must be 16-byte aligned and hold " +
                            std::to_string(need) + " bytes");
    return {};
  }

  // The merge path, or the nonzero tiles (nnz_tiles): partition, tiles, the carries' segmented
  // scan, fix-up.
  Status record_tiles(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y,
                      double alpha, double beta, BufferView temp_in, const SpmvAnalysis* an,
                      bool nnz_tiles) const {
    VKPRIM_TRY(check_tile_limits(a, nnz_tiles));
    const uint64_t need = temp_bytes(a.rows, a.nnz);
    BufferView temp = temp_in;
    if (need) VKPRIM_TRY(use_temp(a, temp_in, need, temp));
    const uint64_t tile = tile_items();
    const uint64_t tiles = tile_count(a.rows, a.nnz, nnz_tiles);
    const SpmvTempLayout L(tiles, esz, scan_bytes(tiles));
    // Rows crossing tiles: an inclusive segmented sum of the carries, then the fix-up. When the
    // analysis says every row is shorter than a tile, every tile ends a row and the scan would
    // return the carries unchanged (spmv_fixup.comp): the fix-up reads them directly.
    const bool carries_direct = an && an->stats.max_row_length < tile;
    const bool carry_scanned = a.rows != 0 && alpha != 0.0 && tiles > 1 && !carries_direct;
    const BufferView tv = temp.sub(0, L.total);
    const BufferView carry = tv.sub(L.carry, tiles * esz), carry_head = tv.sub(L.carry_head, tiles * 4),
                     carry_sums = tv.sub(L.carry_scan, tiles * esz), scan_temp = tv.sub(L.scan, L.total - L.scan);
    // Complex carries are split by part (spmv_tiles.comp): one scan per part, the same heads.
    const int scans = complex ? 2 : 1;
    auto half = [&](BufferView v, int p) {
      return complex ? v.sub(uint64_t(p) * tiles * part, tiles * part) : v;
    };
    if (carry_scanned)  // checked before anything is recorded
      for (int p = 0; p < scans; ++p)
        VKPRIM_TRY(vkprim::detail::ScanInternals::check_inclusive(
            *carry_scan, half(carry, p), carry_head, half(carry_sums, p), tiles, scan_temp));
    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of temp are done
    if (a.rows == 0) return {};
    const BufferView yv = y.sub(0, a.rows * esz);
    uint32_t flags = beta == 0.0 ? kSpmvBetaZero : 0u;
    if (alpha == 0.0) return record_alpha_zero(cmd, yv, a.rows, beta);  // BLAS: no A, no x
    if (nnz_tiles) flags |= kSpmvNonzeroTiles;
    // Nonzero tiles load 4 entries at once where both arrays are aligned to 4 of them (real
    // values only).
    if (nnz_tiles && !complex && items % 4 == 0 && a.col_idx.address % 16 == 0 &&
        a.values.address % (4 * esz) == 0)
      flags |= kSpmvVectorLoads;

    const uint64_t base = temp.address;
    const int w = a.row_ptr_64 ? 1 : 0;
    const uint64_t row_ptr = a.row_ptr.address, alpha_bits = value_bits(alpha, type),
                   beta_bits = value_bits(beta, type);

    SpmvPartitionPush pp{row_ptr,          base + L.coords, a.nnz,
                         uint32_t(a.rows), uint32_t(tile),  uint32_t(tiles + 1)};
    const Pipeline& part = nnz_tiles ? nnz_partition[w] : partition[w];
    part.dispatch(cmd, &pp, grid_groups(*ctx, tiles + 1, part.tile_items()));
    compute_to_compute_barrier(*ctx, cmd);

    SpmvTilesPush tp{row_ptr,
                     a.col_idx.address,
                     a.values.address,
                     x.address,
                     y.address,
                     base + L.coords,
                     base + L.carry,
                     base + L.carry_head,
                     base + L.head,
                     base + L.fix,
                     a.nnz,
                     alpha_bits,
                     beta_bits,
                     uint32_t(a.rows),
                     uint32_t(a.cols),
                     uint32_t(tiles),
                     flags};
    const uint64_t gx = std::min<uint64_t>(tiles, ctx->caps.max_workgroup_count[0]);
    this->tiles[w].dispatch(cmd, &tp, uint32_t(gx), uint32_t((tiles + gx - 1) / gx));
    if (tiles == 1) return {};

    compute_to_compute_barrier(*ctx, cmd);
    if (carry_scanned) {
      for (int p = 0; p < scans; ++p) {
        if (p) compute_to_compute_barrier(*ctx, cmd);  // the scans share scan_temp
        VKPRIM_TRY(carry_scan->inclusive(cmd, half(carry, p), carry_head, half(carry_sums, p),
                                         tiles, scan_temp));
      }
      compute_to_compute_barrier(*ctx, cmd);
    }
    SpmvFixupPush fp{y.address,
                     base + L.coords,
                     base + (carries_direct ? L.carry : L.carry_scan),
                     base + L.head,
                     base + L.fix,
                     alpha_bits,
                     beta_bits,
                     uint32_t(tiles),
                     flags};
    fixup.dispatch(cmd, &fp, grid_groups(*ctx, tiles, fixup.tile_items()));
    return {};
  }


  // BLAS special cases shared by both kernels: alpha == 0 reads neither A nor x.
  Status record_alpha_zero(VkCommandBuffer cmd, BufferView yv, uint64_t rows, double beta) const {
    // A complex y is 2 * rows parts, each scaled by the real beta.
    const uint64_t n = complex ? 2 * rows : rows;
    if (beta == 0.0) return fill->record(cmd, yv, 0, part);
    if (type == ValueType::f32) return map->affine(cmd, yv, yv, float(beta), 0.0f, n);
    return map->affine(cmd, yv, yv, beta, 0.0, n);
  }

  // A 2-D grid of `groups` workgroups (x at most maxComputeWorkGroupCount[0]).
  Status row_grid(uint64_t rows, uint64_t groups, uint64_t& gx, uint64_t& gy) const {
    const auto& caps = ctx->caps;
    gx = std::max<uint64_t>(1, std::min<uint64_t>(groups, caps.max_workgroup_count[0]));
    gy = (groups + gx - 1) / gx;
    if (gy > caps.max_workgroup_count[1])
      return make_error(Errc::limit_exceeded, "Spmv: " + std::to_string(rows) +
                                                  " rows exceed the device's dispatch limits");
    return {};
  }

  // The row kernel's pipeline description for one of its builds.
  vkprim::detail::PipelineDesc rows_desc(vkprim::detail::Shader shader) const {
    vkprim::detail::PipelineDesc d;
    d.shader = shader;
    d.push_bytes = detail::kSpmvRowsPushBytes;
    d.workgroup_size = tuning::kSpmvRowsWorkgroup;
    d.items = 1;
    d.required_subgroup_size = rows_required_subgroup;
    return d;
  }

  // dot_addr != 0: the DOT build (alpha 1, beta 0, no window, no long rows; dot.hpp).
  Status record_rows(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y,
                     double alpha, double beta, uint32_t lanes, bool skip_empty = false,
                     uint32_t long_threshold = 0, uint64_t dot_addr = 0) const {
    // Rows per workgroup: one per lane group, or a window (spmv_rows.comp, WINDOW).
    const uint64_t per_group = skip_empty ? tuning::kSpmvRowsWindow
                                          : tuning::kSpmvRowsWorkgroup / lanes;
    uint64_t gx = 1, gy = 1;
    VKPRIM_TRY(row_grid(a.rows, (a.rows + per_group - 1) / per_group, gx, gy));
    // No barrier of its own: no temporary storage (the caller orders A, x and y, as for the
    // merge path). One dispatch in all.
    if (a.rows == 0) return {};
    const BufferView yv = y.sub(0, a.rows * esz);
    if (alpha == 0.0) return record_alpha_zero(cmd, yv, a.rows, beta);
    SpmvRowsPush rp{a.row_ptr.address,
                    a.col_idx.address,
                    a.values.address,
                    x.address,
                    y.address,
                    value_bits(alpha, type),
                    value_bits(beta, type),
                    uint32_t(a.rows),
                    uint32_t(a.cols),
                    uint32_t(std::countr_zero(lanes)),
                    beta == 0.0 ? kSpmvBetaZero : 0u,
                    long_threshold,
                    dot_addr};
    const int w = a.row_ptr_64 ? 1 : 0;
    const Pipeline& pipe = dot_addr ? rows_dot[w] : skip_empty ? rows_window[w] : rows_kernel[w];
    pipe.dispatch(cmd, &rp, uint32_t(gx), uint32_t(gy));
    return {};
  }

  // Split kernel: spmv_list.comp lists the rows longer than the long threshold (two counters
  // zeroed first); the row kernel sums the others, and spmv_long.comp the listed ones: one
  // workgroup per long row, `pieces` workgroups per huge row with the combining phase. Without
  // long rows (by the analysis) it is the row kernel alone.
  //
  // A split product's work: its thresholds, list capacities and pieces per huge row, and the
  // bytes of its lists and the huge rows' partial sums (`bytes`, a multiple of 16). The lists'
  // two u32 counts are kept apart from the lists, so that one fill zeroes the counts of every
  // split product of a multi-block call (record_blocks).
  struct SplitJob {
    uint32_t threshold = 0, huge = 0, pieces = 1;
    uint64_t cap_long = 0, cap_huge = 0, long_bytes = 0, huge_bytes = 0, bytes = 0;
    bool listed() const { return cap_long + cap_huge != 0; }
  };
  SplitJob split_job(const CsrView& a, const SpmvAnalysis* an, uint32_t lanes) const {
    SplitJob j;
    j.threshold = long_threshold(lanes);
    j.huge = huge_threshold(j.threshold);
    std::tie(j.cap_long, j.cap_huge) = split_rows(a, an, lanes);  // <= kSpmvLongMaxRows (resolve)
    const uint64_t max_len = counted(an, j.threshold) ? an->stats.max_row_length : a.nnz;
    j.pieces = j.cap_huge ? tuning::spmv_long_pieces(j.cap_huge, max_len) : 1;
    j.long_bytes = vkprim::detail::align16(j.cap_long * 4);
    j.huge_bytes = vkprim::detail::align16(j.cap_huge * 4);
    j.bytes = split_bytes(j.cap_long, j.cap_huge, j.pieces > 1 ? j.cap_huge * j.pieces : 0) -
              kSplitCountBytes;
    return j;
  }
  // The list pass (the counts at `counts` zeroed and visible, the lists at `lists`).
  void record_split_list(VkCommandBuffer cmd, const CsrView& a, const SplitJob& j, uint64_t lists,
                         uint64_t counts) const {
    const int w = a.row_ptr_64 ? 1 : 0;
    SpmvListPush sp{a.row_ptr.address, lists, lists + j.long_bytes, counts, uint32_t(a.rows),
                    j.threshold, j.huge};
    list_kernel[w].dispatch(cmd, &sp, grid_groups(*ctx, a.rows, list_kernel[w].tile_items()));
  }
  // The sums once the lists are visible: the row kernel, which skips the long rows, and the
  // long rows' pass with no barrier between them: they write different elements of y, so the
  // long rows run alongside the row kernel's last workgroups.
  Status record_split_sums(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y,
                           double alpha, double beta, uint32_t lanes, const SplitJob& j,
                           uint64_t lists, uint64_t counts) const {
    VKPRIM_TRY(record_rows(cmd, a, x, y, alpha, beta, lanes, false, j.threshold));
    const int w = a.row_ptr_64 ? 1 : 0;
    const uint64_t huge_list = lists + j.long_bytes, partial = huge_list + j.huge_bytes;
    SpmvLongPush lp{a.row_ptr.address,    a.col_idx.address,    a.values.address,
                    x.address,            y.address,            lists,
                    counts,               partial,              value_bits(alpha, type),
                    value_bits(beta, type), uint32_t(a.cols),      1u,
                    beta == 0.0 ? kSpmvBetaZero : 0u, 0u};
    // Long rows: one workgroup each, which writes y. Huge rows: `pieces` partials each (or y
    // directly when pieces == 1), then their sums.
    if (j.cap_long) long_kernel[w].dispatch(cmd, &lp, 1, uint32_t(j.cap_long));
    if (j.cap_huge) {
      lp.long_addr = huge_list;
      lp.count_addr = counts + 4;
      lp.pieces = j.pieces;
      long_kernel[w].dispatch(cmd, &lp, j.pieces, uint32_t(j.cap_huge));
      if (j.pieces > 1) {
        compute_to_compute_barrier(*ctx, cmd);
        lp.phase = 1;
        long_kernel[w].dispatch(cmd, &lp, uint32_t(j.cap_huge), 1);
      }
    }
    return {};
  }
  Status record_split(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y,
                      double alpha, double beta, uint32_t lanes, const SpmvAnalysis* an,
                      BufferView temp_in) const {
    const SplitJob j = split_job(a, an, lanes);
    if (!j.listed() || a.rows == 0 || alpha == 0.0)
      return record_rows(cmd, a, x, y, alpha, beta, lanes);
    BufferView temp;
    VKPRIM_TRY(use_temp(a, temp_in, kSplitCountBytes + j.bytes, temp));
    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of temp are done
    VKPRIM_TRY(fill->record(cmd, temp.sub(0, 8), 0, 4));
    compute_to_compute_barrier(*ctx, cmd);
    record_split_list(cmd, a, j, temp.address + kSplitCountBytes, temp.address);
    compute_to_compute_barrier(*ctx, cmd);
    return record_split_sums(cmd, a, x, y, alpha, beta, lanes, j, temp.address + kSplitCountBytes,
                             temp.address);
  }

  // Products over column blocks (Spmv::record's block form; checked by the caller), the first
  // applying beta and the others adding to y, a barrier between them. Where every block runs
  // the split kernel or a kernel without temporary storage, and the temporary storage holds
  // every split block's lists, the lists are made first, all at once: one fill of all their
  // counts and the list passes side by side, so that each block's product starts at once
  // (no list pass and barrier between two blocks' products). Otherwise block by
  // block, each as a single product. The same results either way.
  Status record_blocks(VkCommandBuffer cmd, std::span<const CsrView> blocks, BufferView x,
                       BufferView y, double alpha, double beta,
                       std::span<const SpmvAnalysis> analyses, BufferView temp_in) const {
    // alpha == 0: y = beta * y once (the blocks are not read).
    const size_t n = alpha == 0.0 ? 1 : blocks.size();
    std::vector<SplitJob> jobs(n);
    std::vector<uint32_t> lanes(n, 1);
    std::vector<uint64_t> at(n, 0);  // a listed block's lists: bytes past the counts
    uint64_t listed = 0, bytes = 0;
    bool together = n > 1;
    for (size_t i = 0; i < blocks.size(); ++i) {
      const CsrView& a = blocks[i];
      SpmvKernel k;
      uint32_t l;
      bool skip;
      VKPRIM_TRY(resolve(a, &analyses[i], k, l, skip));  // every block's analysis, even unread
      if (i >= n) continue;
      VKPRIM_TRY(check_limits(a, k, l, skip));
      lanes[i] = l;
      // Each block's temporary storage is checked before anything is recorded.
      uint64_t need = 0;
      if (k == SpmvKernel::split && a.rows != 0 && alpha != 0.0) {
        jobs[i] = split_job(a, &analyses[i], lanes[i]);
        if (jobs[i].listed()) {
          need = kSplitCountBytes + jobs[i].bytes;
          at[i] = bytes;
          bytes += jobs[i].bytes;
          ++listed;
        }
      } else if (k != SpmvKernel::rows && k != SpmvKernel::split && k != SpmvKernel::stream) {
        need = temp_bytes(a.rows, a.nnz);  // the merge path's or the nonzero tiles'
        together = false;                  // which use the storage from its start
      }
      BufferView unused;
      if (need) VKPRIM_TRY(use_temp(a, temp_in, need, unused));
    }
    const uint64_t counts_bytes = vkprim::detail::align16(8 * listed);
    const BufferView room = temp_in.address ? temp_in : owned_temp ? owned_temp->view() : BufferView{};
    together = together && listed > 1 && room.address % 16 == 0 && room.size >= counts_bytes + bytes;
    if (!together) {
      for (size_t i = 0; i < n; ++i) {
        if (i > 0) compute_to_compute_barrier(*ctx, cmd);  // y of block i - 1
        VKPRIM_TRY(record(cmd, blocks[i], x, y, alpha, i == 0 ? beta : 1.0, temp_in, &analyses[i]));
      }
      return {};
    }
    if (leading_barrier) compute_to_compute_barrier(*ctx, cmd);  // earlier users of the temporary storage are done
    VKPRIM_TRY(fill->record(cmd, room.sub(0, 8 * listed), 0, 4));
    compute_to_compute_barrier(*ctx, cmd);
    std::vector<uint64_t> counts(n, 0);
    for (size_t i = 0, c = 0; i < n; ++i) {
      if (!jobs[i].listed()) continue;
      counts[i] = room.address + 8 * c++;
      record_split_list(cmd, blocks[i], jobs[i], room.address + counts_bytes + at[i], counts[i]);
    }
    for (size_t i = 0; i < n; ++i) {
      compute_to_compute_barrier(*ctx, cmd);  // the lists (i = 0), y of block i - 1
      const double b = i == 0 ? beta : 1.0;
      if (jobs[i].listed())
        VKPRIM_TRY(record_split_sums(cmd, blocks[i], x, y, alpha, b, lanes[i], jobs[i],
                                     room.address + counts_bytes + at[i], counts[i]));
      else
        VKPRIM_TRY(record(cmd, blocks[i], x, y, alpha, b, temp_in, &analyses[i]));
    }
    return {};
  }

  // Stream kernel: one dispatch, one workgroup per block of 256 rows, no temporary storage and
  // no barrier of its own (as the row kernel).
  Status record_stream(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y,
                       double alpha, double beta) const {
    const uint64_t per_group = tuning::kSpmvStreamWorkgroup;
    uint64_t gx = 1, gy = 1;
    VKPRIM_TRY(row_grid(a.rows, (a.rows + per_group - 1) / per_group, gx, gy));
    if (a.rows == 0) return {};
    const BufferView yv = y.sub(0, a.rows * esz);
    if (alpha == 0.0) return record_alpha_zero(cmd, yv, a.rows, beta);
    SpmvStreamPush sp{a.row_ptr.address,
                      a.col_idx.address,
                      a.values.address,
                      x.address,
                      y.address,
                      value_bits(alpha, type),
                      value_bits(beta, type),
                      uint32_t(a.rows),
                      uint32_t(a.cols),
                      beta == 0.0 ? kSpmvBetaZero : 0u,
                      0u};
    stream_kernel[a.row_ptr_64 ? 1 : 0].dispatch(cmd, &sp, uint32_t(gx), uint32_t(gy));
    return {};
  }
};

}  // namespace detail

using detail::SpmvPlan;

Spmv::Spmv(std::unique_ptr<SpmvPlan> p) : plan_(std::move(p)) {}
Spmv::Spmv(Spmv&&) noexcept = default;
Spmv& Spmv::operator=(Spmv&&) noexcept = default;
Spmv::~Spmv() = default;

Result<Spmv> Spmv::create(const Context& context, ValueType type, const SpmvOptions& o) {
  namespace tuning = detail::tuning;
  const auto& ctx = context.impl();
  const auto& caps = ctx.caps;
  if (type != ValueType::f32 && type != ValueType::f64)
    return make_error(Errc::invalid_argument,
                      std::string("Spmv: values must be f32 or f64, not ") + to_string(type));
  if (type == ValueType::f64 && !caps.shader_float64)
    return make_error(Errc::unsupported,
                      "Spmv<f64>: the device has no shaderFloat64 (use f32 values)");
  auto plan = std::make_unique<SpmvPlan>();
  plan->ctx = &ctx;
  plan->type = type;
  plan->esz = uint32_t(size_of(type));
  plan->wg = o.workgroup_size ? o.workgroup_size : tuning::kSpmvWorkgroup;
  if (plan->wg < 32 || plan->wg > 1024 || !std::has_single_bit(plan->wg) ||
      plan->wg > caps.max_workgroup_invocations)
    return make_error(Errc::invalid_argument,
                      "Spmv: workgroup_size must be a power of two in [32, min(1024, "
                      "maxComputeWorkGroupInvocations)]");
  if (o.items_per_invocation > 16)
    return make_error(Errc::invalid_argument, "Spmv: items_per_invocation must be in [1, 16]");
  if (uint32_t(o.kernel) > uint32_t(SpmvKernel::nnz))
    return make_error(Errc::invalid_argument, "Spmv: unknown SpmvKernel");
  if (o.complex && (o.kernel == SpmvKernel::stream || o.kernel == SpmvKernel::split))
    return make_error(Errc::unsupported,
                      std::string("Spmv: the ") + to_string(o.kernel) +
                          " kernel takes real values only; complex values run on the row "
                          "kernel, the merge path and the nonzero tiles (rows, merge, nnz or "
                          "automatic)");
  plan->kernel = o.kernel;
  plan->complex = o.complex;
  plan->part = plan->esz;
  if (o.complex) plan->esz *= 2;
  // Complex tiles hold twice the bytes per item: without a workgroup size asked for, the
  // largest default-or-smaller tile that fits the shared memory.
  if (o.complex && !o.workgroup_size)
    while (plan->wg > 32 && tuning::spmv_shared_bytes(plan->wg, tuning::kSpmvItems, plan->esz) >
                                caps.max_shared_memory)
      plan->wg /= 2;
  // The stream kernel's chunk: items_per_invocation entries per invocation.
  plan->stream_items = o.items_per_invocation ? o.items_per_invocation : tuning::kSpmvStreamItems;
  while (plan->has_stream() &&
         tuning::spmv_stream_shared_bytes(plan->stream_items, plan->esz) > caps.max_shared_memory) {
    if (o.items_per_invocation || plan->stream_items == 1)
      return make_error(Errc::limit_exceeded,
                        "Spmv: a stream chunk of 256 x " + std::to_string(plan->stream_items) +
                            " entries does not fit the device's shared memory");
    plan->stream_items /= 2;
  }
  // The tile pass's items per invocation are fixed at build time.
  plan->items = tuning::kSpmvItems;
  if (plan->has_tiles() &&
      tuning::spmv_shared_bytes(plan->wg, plan->items, plan->esz) > caps.max_shared_memory)
    return make_error(Errc::limit_exceeded, "Spmv: a tile of " + std::to_string(plan->wg) +
                                                " x " + std::to_string(plan->items) +
                                                " items does not fit the device's shared memory");
  plan->leading_barrier = o.leading_barrier;
  // The in-tile scan's subgroup layer uses relative shuffles and ballot (UNIFORM), and 64-bit
  // subgroup types for f64 (the same conditions as SegmentedScan).
  plan->subgroup = o.use_subgroup_ops &&
                   (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                   (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_BALLOT_BIT) &&
                   (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT) &&
                   (plan->part == 4 || caps.subgroup_extended_types);
  // Row kernel: lane groups must not straddle subgroups, so L <= the subgroup size the shader
  // runs with: the device's default size, required explicitly where the size can vary.
  const uint32_t sg_size = caps.subgroup_size ? caps.subgroup_size : 1;
  const bool rows_subgroup = o.use_subgroup_ops &&
                             (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
                             (caps.usable_subgroup_ops() & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT) &&
                             tuning::kSpmvRowsWorkgroup % sg_size == 0;
  plan->max_lanes = std::min(sg_size, tuning::kSpmvRowsWorkgroup);
  if (o.row_lanes) {
    const uint32_t limit = rows_subgroup ? plan->max_lanes : tuning::kSpmvRowsWorkgroup;
    if (!std::has_single_bit(o.row_lanes) || o.row_lanes > limit)
      return make_error(Errc::invalid_argument,
                        "Spmv: row_lanes must be a power of two <= " + std::to_string(limit));
    plan->row_lanes_option = o.row_lanes;
  }
  plan->cpu = ctx.device_class.cpu();
  namespace variants = vkprim::detail::variants;
  const auto real = variants::real_axis(type);
  for (int w = 0; w < 2; ++w) {
    const auto rp = variants::row_ptr_axis(w == 1);
    for (const bool nnz_tiles : {false, true}) {
      if (!(nnz_tiles ? plan->has_nnz() : plan->has_merge())) continue;
      auto part = detail::Pipeline::create(
          ctx, nnz_tiles ? variants::spmv_partition_nnz(rp) : variants::spmv_partition(rp),
          detail::kSpmvPartitionPushBytes, tuning::kSpmvSmallWorkgroup, tuning::kSpmvSmallItems);
      if (!part) return part.error();
      (nnz_tiles ? plan->nnz_partition[w] : plan->partition[w]) = std::move(*part);
    }
    if (plan->has_tiles()) {
      const auto layer = variants::layer_axis(plan->subgroup);
      auto tiles =
          detail::Pipeline::create(ctx,
                                   plan->complex ? variants::spmv_tiles_complex(real, rp, layer)
                                                 : variants::spmv_tiles(real, rp, layer),
                                   detail::kSpmvTilesPushBytes, plan->wg, plan->items);
      if (!tiles) return tiles.error();
      plan->tiles[w] = std::move(*tiles);
    }
    if (rows_subgroup && caps.subgroup_size_control &&
        caps.min_subgroup_size != caps.max_subgroup_size)
      plan->rows_required_subgroup = sg_size;
    for (const bool window : {false, true}) {
      if (!plan->has_rows() || (window && !plan->has_rows_window())) continue;
      const auto layer = variants::layer_axis(rows_subgroup);
      vkprim::detail::Shader shader{};
      if (plan->complex)
        shader = window ? variants::spmv_rows_window_complex(real, rp, layer)
                        : variants::spmv_rows_complex(real, rp, layer);
      else
        shader = window ? variants::spmv_rows_window(real, rp, layer)
                        : variants::spmv_rows(real, rp, layer);
      auto rk = detail::Pipeline::create(ctx, plan->rows_desc(shader));
      if (!rk) return rk.error();
      (window ? plan->rows_window[w] : plan->rows_kernel[w]) = std::move(*rk);
    }
    if (plan->has_stream()) {
      auto sk = detail::Pipeline::create(ctx, variants::spmv_stream(real, rp),
                                         detail::kSpmvStreamPushBytes,
                                         tuning::kSpmvStreamWorkgroup, plan->stream_items);
      if (!sk) return sk.error();
      plan->stream_kernel[w] = std::move(*sk);
    }
    if (plan->has_split()) {
      // The lists walk the row pointer as the statistics pass does, in the same tiles.
      auto li = detail::Pipeline::create(ctx, variants::spmv_list(rp), detail::kSpmvListPushBytes,
                                         tuning::kSpmvStatsWorkgroup, tuning::kSpmvStatsItems);
      if (!li) return li.error();
      plan->list_kernel[w] = std::move(*li);
      auto lk = detail::Pipeline::create(ctx, variants::spmv_long(real, rp),
                                         detail::kSpmvLongPushBytes,
                                         tuning::kSpmvLongWorkgroup, tuning::kSpmvLongItems);
      if (!lk) return lk.error();
      plan->long_kernel[w] = std::move(*lk);
    }
    auto st = detail::Pipeline::create(ctx, variants::spmv_stats(rp), detail::kSpmvStatsPushBytes,
                                       tuning::kSpmvStatsWorkgroup, tuning::kSpmvStatsItems);
    if (!st) return st.error();
    plan->stats[w] = std::move(*st);
  }
  plan->rows_subgroup = rows_subgroup;
  if (plan->has_tiles()) {
    auto fix = detail::Pipeline::create(
        ctx, plan->complex ? variants::spmv_fixup_complex(real) : variants::spmv_fixup(real),
        detail::kSpmvFixupPushBytes, tuning::kSpmvSmallWorkgroup, tuning::kSpmvSmallItems);
    if (!fix) return fix.error();
    plan->fixup = std::move(*fix);
  }
  if (plan->has_tiles()) {
    // Reduce-then-scan: a fixed combination order, so the carries are deterministic too.
    ScanOptions so;
    so.deterministic = true;
    so.use_subgroup_ops = o.use_subgroup_ops;
    auto scan = SegmentedScan::create(context, type, so);
    if (!scan) return scan.error();
    plan->carry_scan = std::move(*scan);
  }
  auto fill = Fill::create(context);
  if (!fill) return fill.error();
  plan->fill = std::move(*fill);
  auto map = Map::create(context, type);
  if (!map) return map.error();
  plan->map = std::move(*map);
  return Spmv(std::move(plan));
}

const char* to_string(SpmvKernel k) {
  switch (k) {
    case SpmvKernel::automatic: return "auto";
    case SpmvKernel::merge: return "merge";
    case SpmvKernel::rows: return "rows";
    case SpmvKernel::stream: return "stream";
    case SpmvKernel::split: return "split";
    case SpmvKernel::nnz: return "nnz";
  }
  return "?";
}

ValueType Spmv::type() const { return plan_->type; }
SpmvKernel Spmv::kernel_option() const { return plan_->kernel; }

Status Spmv::record_row_stats(VkCommandBuffer cmd, const CsrView& a, BufferView stats) const {
  return plan_->record_stats(cmd, a, stats);
}

SpmvRowStats Spmv::row_stats_from_words(const CsrView& a, const uint32_t words[8]) {
  SpmvRowStats st;
  st.rows = a.rows;
  st.cols = a.cols;
  st.nnz = a.nnz;
  st.max_row_length = a.rows ? words[0] : 0;
  st.empty_rows = a.rows ? words[1] : 0;
  st.long_rows = a.rows ? words[2] : 0;
  st.long_threshold = a.rows ? words[3] : 0;
  st.huge_rows = a.rows ? words[4] : 0;
  st.huge_threshold = a.rows ? words[5] : 0;
  st.wide_rows = a.rows ? words[6] : 0;
  st.wide_span = a.rows ? words[7] : 0;
  return st;
}

SpmvAnalysis Spmv::analysis(const SpmvRowStats& stats) const { return plan_->analysis(stats); }

Result<SpmvAnalysis> Spmv::analyze(Runtime& rt, const CsrView& a) const {
  VKPRIM_TRY(plan_->check_matrix(a, "Spmv::analyze"));
  auto buf = rt.alloc(kRowStatsBytes);
  if (!buf) return buf.error();
  VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) { return record_row_stats(cmd, a, buf->view()); }));
  auto words = rt.download<uint32_t>(buf->view(), 8);
  if (!words) return words.error();
  return analysis(row_stats_from_words(a, words->data()));
}
uint32_t Spmv::tile_items() const { return plan_->tile_items(); }
bool Spmv::uses_subgroup_ops() const { return plan_->subgroup; }
uint64_t Spmv::temp_bytes(uint64_t rows, uint64_t nnz) const {
  return plan_->temp_bytes(rows, nnz);
}

Status Spmv::reserve(uint64_t rows, uint64_t nnz) {
  return vkprim::detail::reserve_owned(*plan_->ctx, plan_->owned_temp, temp_bytes(rows, nnz));
}

Status Spmv::record(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y, double alpha,
                    double beta, BufferView temp) const {
  return plan_->record(cmd, a, x, y, alpha, beta, temp, nullptr);
}

Status Spmv::record(VkCommandBuffer cmd, const CsrView& a, BufferView x, BufferView y, double alpha,
                    double beta, const SpmvAnalysis& analysis, BufferView temp) const {
  return plan_->record(cmd, a, x, y, alpha, beta, temp, &analysis);
}

Status Spmv::record(VkCommandBuffer cmd, std::span<const CsrView> blocks, BufferView x,
                    BufferView y, double alpha, double beta,
                    std::span<const SpmvAnalysis> analyses, BufferView temp) const {
  if (blocks.empty() || analyses.size() != blocks.size())
    return make_error(Errc::invalid_argument,
                      "Spmv: column blocks need at least one block and one analysis per block (" +
                          std::to_string(blocks.size()) + " blocks, " +
                          std::to_string(analyses.size()) + " analyses)");
  // Everything checked before anything is recorded.
  for (size_t i = 0; i < blocks.size(); ++i) {
    const CsrView& b = blocks[i];
    if (b.rows != blocks[0].rows || b.cols != blocks[0].cols)
      return make_error(Errc::invalid_argument,
                        "Spmv: column block " + std::to_string(i) + " is " +
                            std::to_string(b.rows) + " x " + std::to_string(b.cols) +
                            ", block 0 " + std::to_string(blocks[0].rows) + " x " +
                            std::to_string(blocks[0].cols));
    VKPRIM_TRY(plan_->check(b, x, y));
  }
  return plan_->record_blocks(cmd, blocks, x, y, alpha, beta, analyses, temp);
}

namespace detail {

Status SpmvDotAccess::enable(Spmv& spmv) {
  SpmvPlan& p = *spmv.plan_;
  if (p.has_rows_dot || p.complex || !p.has_rows()) return {};  // partials() says 0 for the last two
  namespace variants = vkprim::detail::variants;
  const auto real = variants::real_axis(p.type);
  const auto layer = variants::layer_axis(p.rows_subgroup);
  for (int w = 0; w < 2; ++w) {
    auto pipe = Pipeline::create(
        *p.ctx, p.rows_desc(variants::spmv_rows_dot(real, variants::row_ptr_axis(w == 1), layer)));
    if (!pipe) return pipe.error();
    p.rows_dot[w] = std::move(*pipe);
  }
  p.has_rows_dot = true;
  return {};
}

uint64_t SpmvDotAccess::partials(const Spmv& spmv, const CsrView& a, const SpmvAnalysis& an) {
  const SpmvPlan& p = *spmv.plan_;
  if (!p.has_rows_dot || a.complex || a.rows == 0 || a.rows != a.cols) return 0;
  SpmvKernel k = SpmvKernel::merge;
  uint32_t lanes = 1;
  bool skip_empty = false;
  if (!p.resolve(a, &an, k, lanes, skip_empty) || k != SpmvKernel::rows || skip_empty) return 0;
  if (!p.check_limits(a, k, lanes, false)) return 0;
  const uint64_t per_group = tuning::kSpmvRowsWorkgroup / lanes;
  return (a.rows + per_group - 1) / per_group;
}

Status SpmvDotAccess::record(const Spmv& spmv, VkCommandBuffer cmd, const CsrView& a,
                             BufferView x, BufferView y, const SpmvAnalysis& an,
                             uint64_t partials_addr) {
  const SpmvPlan& p = *spmv.plan_;
  if (partials(spmv, a, an) == 0 || partials_addr == 0)
    return make_error(Errc::invalid_argument,
                      "Spmv: this product has no row kernel with p.Ap (SpmvDotAccess::partials "
                      "is 0) or no partials' address");
  VKPRIM_TRY(p.check(a, x, y));
  SpmvKernel k = SpmvKernel::merge;
  uint32_t lanes = 1;
  bool skip_empty = false;
  VKPRIM_TRY(p.resolve(a, &an, k, lanes, skip_empty));
  return p.record_rows(cmd, a, x, y, 1.0, 0.0, lanes, false, 0, partials_addr);
}

}  // namespace detail

Status spmv(Runtime& rt, const CsrView& a, BufferView x, BufferView y, double alpha, double beta,
            const SpmvOptions& options) {
  SpmvOptions o = options;
  o.complex = a.complex;  // the plan follows the matrix
  auto plan = Spmv::create(rt.context(), a.value_type, o);
  if (!plan) return plan.error();
  VKPRIM_TRY(plan->reserve(a.rows, a.nnz));
  if (options.kernel != SpmvKernel::automatic || alpha == 0.0 || a.rows == 0)
    return rt.submit([&](VkCommandBuffer cmd) { return plan->record(cmd, a, x, y, alpha, beta); });
  auto an = plan->analyze(rt, a);
  if (!an) return an.error();
  return rt.submit(
      [&](VkCommandBuffer cmd) { return plan->record(cmd, a, x, y, alpha, beta, *an); });
}

}  // namespace vkprim::sparse
