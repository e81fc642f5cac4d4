// DeviceCsr and SpMV against Eigen: generated shapes (empty, 1x1, empty rows, dense
// row, arrow, rectangular, power-law, duplicates, short rows), small tiles so rows cross many
// tile boundaries, the forced 64-bit row pointer, alpha/beta conventions, run-to-run
// determinism, every shared matrix, and the errors. Outputs are poisoned (NaN) first. The
// merge path, the row kernel (forced, every lane count, subgroup and shared-memory builds), the
// stream kernel (forced, default and small chunks), the split kernel (forced, with and without
// an analysis, small thresholds, both builds; long rows split over many pieces) and the
// automatic choice from Spmv::analyze all run the same checks.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <cstring>
#include <map>
#include <tuple>
#include <vkprim/sparse/csr_build.hpp>
#include <vkprim/sparse/eigen.hpp>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/spmv.hpp>

#include "sparse_gpu_support.hpp"
#include "spmv/dot.hpp"   // sparse::detail::SpmvDotAccess: the CG solver's product with p.Ap
#include "spmv/pass.hpp"  // sparse::detail::tuning: the split kernel's huge rows
#include "test_support.hpp"

using namespace vkprim;
using namespace vkprim::sparse;
using test::EigenCsr;

namespace {

// The split kernel's huge rows: longer than this many entries (or the long threshold).
constexpr uint64_t kHugeRow = sparse::detail::tuning::kSpmvHugeRow;

// Plans are built once per (type, tile shape, subgroup layer): pipeline creation under the
// validation layer is the slow part on lavapipe.
Spmv& plan_for(ValueType t, const SpmvOptions& o) {
  // The runtime first: statics are destroyed in reverse order, and the plans need its device.
  Runtime& rt = test::gpu();
  static std::map<std::tuple<int, uint32_t, uint32_t, bool, int, uint32_t>, Spmv> plans;
  const auto key = std::make_tuple(int(t), o.workgroup_size, o.items_per_invocation,
                                   o.use_subgroup_ops, int(o.kernel), o.row_lanes);
  auto it = plans.find(key);
  if (it == plans.end())
    it = plans.emplace(key, Spmv::create(rt.context(), t, o).value()).first;
  return it->second;
}

// Tiles of 32 x 8 items (merge items, or nonzeros with SpmvKernel::nnz).
SpmvOptions small_tiles(bool subgroup, SpmvKernel k = SpmvKernel::automatic) {
  SpmvOptions o;
  o.workgroup_size = 32;
  o.use_subgroup_ops = subgroup;
  o.kernel = k;
  return o;
}

SpmvOptions row_kernel(bool subgroup, uint32_t lanes = 0) {
  SpmvOptions o;
  o.kernel = SpmvKernel::rows;
  o.use_subgroup_ops = subgroup;
  o.row_lanes = lanes;
  return o;
}

SpmvOptions automatic() { return SpmvOptions{}; }

// `base` with the kernel forced.
SpmvOptions forced(SpmvKernel k, SpmvOptions base = {}) {
  base.kernel = k;
  return base;
}

// The generated shape of that name.
CooMatrix shape_named(const std::string& name) {
  for (auto& s : test::generated_shapes())
    if (s.name == name) return s.m;
  FAIL("no generated shape named " << name);
  return {};
}

// The largest lane count the row kernel's subgroup build allows on this device.
uint32_t max_subgroup_lanes() {
  const uint32_t sg = test::gpu().caps().subgroup_size;
  return std::min<uint32_t>(sg ? sg : 1, 256);
}

template <class T>
std::vector<T> vector_values(size_t n, uint32_t seed) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = T(test::value_at(i, seed));
  return v;
}

template <class T>
Buffer upload_or_empty(Runtime& rt, const std::vector<T>& v) {
  Buffer b = rt.alloc(v.size() * sizeof(T)).value();
  rt.upload(b.view(), v.data(), v.size() * sizeof(T)).value();
  return b;
}

// Uploads x and y0 (beta == 0: y starts as NaN, which must neither be read nor survive), submits
// record(cmd, x, y) and returns y.
template <class T, class Record>
std::vector<T> run_product(const std::vector<T>& x, const std::vector<T>& y0, double beta,
                           Record record) {
  Runtime& rt = test::gpu();
  Buffer xb = upload_or_empty(rt, x);
  std::vector<T> yinit =
      beta == 0.0 ? std::vector<T>(y0.size(), std::numeric_limits<T>::quiet_NaN()) : y0;
  Buffer yb = upload_or_empty(rt, yinit);
  rt.submit([&](VkCommandBuffer cmd) { return record(cmd, xb.view(), yb.view()); }).value();
  return rt.download<T>(yb.view(), y0.size()).value();
}

// Runs y = alpha A x + beta y on the GPU and returns y. With `analyze`, the plan analyzes A
// first and records with the analysis (what the automatic choice needs); `chosen` gets it.
template <class T>
std::vector<T> gpu_spmv(const DeviceCsr& a, const std::vector<T>& x, const std::vector<T>& y0,
                        double alpha, double beta, const SpmvOptions& o, bool analyze = false,
                        SpmvAnalysis* chosen = nullptr) {
  Runtime& rt = test::gpu();
  Spmv& plan = plan_for(value_type_of<T>(), o);
  std::optional<SpmvAnalysis> an;
  if (analyze) {
    an = plan.analyze(rt, a.view()).value();
    if (chosen) *chosen = *an;
  }
  plan.reserve(a.rows(), a.nnz()).value();
  return run_product(x, y0, beta, [&](VkCommandBuffer cmd, BufferView xv, BufferView yv) {
    return an ? plan.record(cmd, a.view(), xv, yv, alpha, beta, *an)
              : plan.record(cmd, a.view(), xv, yv, alpha, beta);
  });
}

template <class T>
void check_spmv(const CooMatrix& coo, const std::string& what, const SpmvOptions& o, double alpha,
                double beta, bool force64 = false, bool via_eigen = false, bool analyze = false) {
  Runtime& rt = test::gpu();
  const EigenCsr ref = test::eigen_reference(coo);
  DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  dopt.force_row_ptr_64 = force64;
  const DeviceCsr a = via_eigen ? upload(rt, ref, dopt).value()
                                : DeviceCsr::upload(rt, test::to_csr_matrix(ref), dopt).value();
  REQUIRE(a.row_ptr_64() == force64);
  const auto x = vector_values<T>(size_t(coo.cols), 31);
  const auto y0 = vector_values<T>(size_t(coo.rows), 32);
  const auto got = gpu_spmv(a, x, y0, alpha, beta, o, analyze);
  test::check_y(got, test::reference_spmv(ref, x, y0, alpha, beta), what);
}

// One configuration of a kernel: a label, the options, alpha and beta, and how A gets to the
// GPU (check_spmv's flags).
struct Config {
  std::string label;
  SpmvOptions options;
  double alpha, beta;
  bool force64 = false, via_eigen = false, analyze = false;
};

template <class T>
void check_configs(const CooMatrix& coo, const std::string& name, const std::string& kernel,
                   const std::vector<Config>& configs) {
  INFO(name << " (" << coo.rows << " x " << coo.cols << ", " << coo.nnz() << " triplets), "
            << to_string(value_type_of<T>()) << ", " << kernel);
  for (const Config& c : configs)
    check_spmv<T>(coo, name + " " + c.label, c.options, c.alpha, c.beta, c.force64, c.via_eigen,
                  c.analyze);
}

// The merge path and the nonzero tiles: default tiles, and small tiles in both builds.
template <class T>
void check_all_configs(const CooMatrix& coo, const std::string& name) {
  check_configs<T>(coo, name, "merge path",
                   {{"default tiles", SpmvOptions{}, 1.5, 0.0},
                    {"small tiles, subgroup", small_tiles(true), -1.0, 0.5},
                    {"small tiles, shared memory", small_tiles(false), 2.0, -0.25, false, true}});
  const SpmvKernel nnz = SpmvKernel::nnz;
  check_configs<T>(coo, name, "nonzero tiles",
                   {{"nnz tiles", forced(nnz), 1.5, 0.0},
                    {"nnz small tiles, subgroup", small_tiles(true, nnz), -1.0, 0.5},
                    {"nnz small tiles, shared memory", small_tiles(false, nnz), 2.0, -0.25, false,
                     true}});
}

// The row kernel: default lanes in both builds, the smallest and the largest lane counts, and
// the automatic choice (analysis, then record with it).
template <class T>
void check_row_configs(const CooMatrix& coo, const std::string& name) {
  check_configs<T>(coo, name, "row kernel",
                   {{"rows, subgroup", row_kernel(true), 1.5, 0.0},
                    {"rows, shared memory", row_kernel(false), -1.0, 0.5, false, true},
                    {"rows L1", row_kernel(true, 1), 2.0, -0.25},
                    {"rows L=subgroup", row_kernel(true, max_subgroup_lanes()), 1.0, 1.0},
                    {"rows L32, shared memory", row_kernel(false, 32), 0.5, 2.0},
                    {"auto", automatic(), 1.25, -1.0, false, false, true}});
}

// The stream kernel with chunks of 256 x `items` entries (0: the default).
SpmvOptions stream_kernel(uint32_t items = 0) {
  SpmvOptions o = forced(SpmvKernel::stream);
  o.items_per_invocation = items;
  return o;
}

// The stream kernel: default chunks, and chunks of 256 and 768 entries so that rows and blocks
// span many chunks on small matrices.
template <class T>
void check_stream_configs(const CooMatrix& coo, const std::string& name) {
  check_configs<T>(coo, name, "stream kernel",
                   {{"stream", stream_kernel(), 1.5, 0.0},
                    {"stream, 1 item", stream_kernel(1), -1.0, 0.5, false, true},
                    {"stream, 3 items", stream_kernel(3), 2.0, -0.25},
                    {"stream with analysis", stream_kernel(), 1.0, 1.0, false, false, true}});
}

// The split kernel: forced without an analysis (room for every possible long row), with one,
// with one lane per row (long threshold 128: many long rows on small matrices), and in the
// build without subgroup operations.
SpmvOptions split_kernel(bool subgroup = true, uint32_t lanes = 0) {
  SpmvOptions o = forced(SpmvKernel::split);
  o.use_subgroup_ops = subgroup;
  o.row_lanes = lanes;
  return o;
}

template <class T>
void check_split_configs(const CooMatrix& coo, const std::string& name) {
  check_configs<T>(coo, name, "split kernel",
                   {{"split", split_kernel(), 1.5, 0.0},
                    {"split with analysis", split_kernel(), -1.0, 0.5, false, true, true},
                    {"split L1", split_kernel(true, 1), 2.0, -0.25, false, false, true},
                    {"split, shared memory", split_kernel(false), 1.0, 1.0}});
}

// Row-length statistics on the host, for comparison with analyze() (long rows: longer than
// `long_threshold`, 0: not counted).
SpmvRowStats host_stats(const EigenCsr& ref, uint64_t long_threshold = 0) {
  SpmvRowStats st;
  st.rows = uint64_t(ref.rows());
  st.nnz = uint64_t(ref.nonZeros());
  st.long_threshold = long_threshold;
  // Huge rows: longer than tuning::kSpmvHugeRow entries (or the long threshold, if larger).
  st.huge_threshold = long_threshold ? std::max<uint64_t>(long_threshold, kHugeRow) : 0;
  st.cols = uint64_t(ref.cols());
  st.wide_span = st.rows ? st.cols / 4 : 0;  // analyze(): rows wider than a quarter of the columns
  for (Eigen::Index r = 0; r < ref.rows(); ++r) {
    const uint64_t len = uint64_t(ref.outerIndexPtr()[r + 1] - ref.outerIndexPtr()[r]);
    st.max_row_length = std::max(st.max_row_length, len);
    if (len == 0) ++st.empty_rows;
    if (long_threshold && len > long_threshold) ++st.long_rows;
    if (long_threshold && len > st.huge_threshold) ++st.huge_rows;
    if (len > 1) {
      const auto first = ref.innerIndexPtr()[ref.outerIndexPtr()[r]];
      const auto last = ref.innerIndexPtr()[ref.outerIndexPtr()[r + 1] - 1];
      if (uint64_t(std::abs(int64_t(last) - int64_t(first))) > st.wide_span) ++st.wide_rows;
    }
  }
  return st;
}

// Long rows among short ones: rows of 9000 and 4500 entries (long: one workgroup each, over
// several of its chunks) and 20000 (huge: split into pieces, then combined) between 3000
// rows of 0-3 entries.
CooMatrix long_rows_matrix() {
  const int64_t n = 24000;
  CooMatrix c = test::empty_matrix(3000, n);
  for (int64_t r = 0; r < 3000; ++r)
    for (int64_t j = 0; j < r % 4; ++j) test::add_entry(c, r, (r * 7 + j * 331) % n, 0.5 + j);
  const std::pair<int64_t, int64_t> longs[] = {{17, 9000}, {1500, 20000}, {2999, 4500}};
  for (const auto& [r, len] : longs)
    for (int64_t j = 0; j < len; ++j)
      test::add_entry(c, r, (j * 13 + r) % n, 1.0 / double(1 + (j % 7)));
  return c;
}

// A 5-point stencil on an m x m grid (the regular case the row kernel is for).
CooMatrix stencil(int64_t m) {
  CooMatrix c = test::empty_matrix(m * m, m * m);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j) {
      const int64_t r = i * m + j;
      test::add_entry(c, r, r, 4.0);
      if (i > 0) test::add_entry(c, r, r - m, -1.0);
      if (i + 1 < m) test::add_entry(c, r, r + m, -1.0);
      if (j > 0) test::add_entry(c, r, r - 1, -1.0);
      if (j + 1 < m) test::add_entry(c, r, r + 1, -1.0);
    }
  return c;
}

}  // namespace

// `check(matrix, name)` for every generated shape and a 70x70 stencil, in f32 and (where the
// device has it) f64.
template <class Check>
void for_shapes_f32_f64(Check check) {
  const bool f64 = test::gpu().caps().shader_float64;
  auto shapes = test::generated_shapes();
  shapes.push_back({"stencil 70x70", stencil(70)});
  for (const auto& s : shapes) {
    check(float{}, s.m, s.name);
    if (f64) check(double{}, s.m, s.name);
  }
}

TEST_CASE("SpMV row kernel matches Eigen on every generated shape, f32 and f64",
          "[spmv][rows]") {
  for_shapes_f32_f64([](auto t, const CooMatrix& m, const std::string& name) {
    check_row_configs<decltype(t)>(m, name);
  });
}

TEST_CASE("SpMV row kernel and auto with a 64-bit row pointer forced", "[spmv][rows][rowptr64]") {
  const bool f64 = test::gpu().caps().shader_float64;
  for (const auto& s : test::generated_shapes()) {
    INFO(s.name);
    check_spmv<float>(s.m, s.name + " r64 rows", row_kernel(true), 1.0, 1.0, true);
    check_spmv<float>(s.m, s.name + " r64 rows, shared memory", row_kernel(false), 1.0, 0.0, true,
                      true);
    check_spmv<float>(s.m, s.name + " r64 auto", automatic(), -1.0, 0.0, true, false, true);
    if (f64) check_spmv<double>(s.m, s.name + " r64 rows f64", row_kernel(true), 2.0, 0.5, true);
  }
}

TEST_CASE("SpMV stream kernel matches Eigen on every generated shape, f32 and f64",
          "[spmv][stream]") {
  for_shapes_f32_f64([](auto t, const CooMatrix& m, const std::string& name) {
    check_stream_configs<decltype(t)>(m, name);
  });
}

TEST_CASE("SpMV split kernel matches Eigen on every generated shape, f32 and f64",
          "[spmv][split]") {
  for_shapes_f32_f64([](auto t, const CooMatrix& m, const std::string& name) {
    check_split_configs<decltype(t)>(m, name);
  });
  const CooMatrix m = long_rows_matrix();
  check_split_configs<float>(m, "long rows");
  if (test::gpu().caps().shader_float64) check_split_configs<double>(m, "long rows");
  check_spmv<float>(m, "long rows auto", automatic(), 1.0, 0.0, false, false, true);
}

TEST_CASE("SpMV split kernel with a 64-bit row pointer forced", "[spmv][split][rowptr64]") {
  const bool f64 = test::gpu().caps().shader_float64;
  auto shapes = test::generated_shapes();
  shapes.push_back({"long rows", long_rows_matrix()});
  for (const auto& s : shapes) {
    INFO(s.name);
    check_spmv<float>(s.m, s.name + " r64 split", split_kernel(), 1.0, 1.0, true);
    check_spmv<float>(s.m, s.name + " r64 split with analysis", split_kernel(), 1.0, 0.0, true,
                      false, true);
    if (f64)
      check_spmv<double>(s.m, s.name + " r64 split f64", split_kernel(true, 1), 2.0, 0.5, true,
                         false, true);
  }
}

TEST_CASE("SpMV split kernel: bit-identical from run to run, with or without an analysis",
          "[spmv][split][determinism]") {
  const auto shapes = test::generated_shapes();
  Runtime& rt = test::gpu();
  for (const auto& [name, m] :
       {std::pair<std::string, CooMatrix>{"long rows", long_rows_matrix()},
        std::pair<std::string, CooMatrix>{shapes[9].name, shapes[9].m},
        std::pair<std::string, CooMatrix>{shapes[6].name, shapes[6].m}}) {
    INFO(name);
    const DeviceCsr a =
        DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(m))).value();
    const auto x = vector_values<float>(size_t(m.cols), 3);
    const auto y0 = vector_values<float>(size_t(m.rows), 4);
    for (uint32_t lanes : {1u, 0u}) {
      // The long-row list is filled by atomics in any order; the sums must not depend on it.
      const auto first = gpu_spmv(a, x, y0, 1.0, 1.0, split_kernel(true, lanes), true);
      for (int run = 0; run < 3; ++run) {
        const auto again = gpu_spmv(a, x, y0, 1.0, 1.0, split_kernel(true, lanes), true);
        REQUIRE(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)) == 0);
      }
      const auto wg = gpu_spmv(a, x, y0, 1.0, 1.0, split_kernel(false, lanes), true);
      REQUIRE(std::memcmp(first.data(), wg.data(), first.size() * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("SpMV stream kernel with a 64-bit row pointer forced", "[spmv][stream][rowptr64]") {
  const bool f64 = test::gpu().caps().shader_float64;
  for (const auto& s : test::generated_shapes()) {
    INFO(s.name);
    check_spmv<float>(s.m, s.name + " r64 stream", stream_kernel(), 1.0, 1.0, true);
    check_spmv<float>(s.m, s.name + " r64 stream, 1 item", stream_kernel(1), 1.0, 0.0, true,
                      true);
    if (f64) check_spmv<double>(s.m, s.name + " r64 stream f64", stream_kernel(), 2.0, 0.5, true);
  }
}

TEST_CASE("SpMV analyze: row statistics, and the automatic choice picks the row kernel "
          "for regular rows and the split kernel for power-law and arrow (on GPUs nonzero "
          "tiles for large f32 power-law matrices)",
          "[spmv][analyze]") {
  Runtime& rt = test::gpu();
  Spmv& plan = plan_for(ValueType::f32, automatic());
  // Regular rows: the row kernel (f32 and f64, any size).
  const SpmvKernel regular_kernel = SpmvKernel::rows;
  auto shapes = test::generated_shapes();
  shapes.push_back({"stencil 70x70", stencil(70)});
  std::map<std::string, SpmvKernel> chosen;
  for (const auto& s : shapes) {
    INFO(s.name);
    const EigenCsr ref = test::eigen_reference(s.m);
    for (bool r64 : {false, true}) {
      DeviceCsrOptions o;
      o.force_row_ptr_64 = r64;
      const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref), o).value();
      const SpmvAnalysis an = plan.analyze(rt, a.view()).value();
      // The split kernel's long rows: longer than 32 row-kernel steps of 4 L entries, with the
      // split kernel's L: a subgroup per row below 2^17 rows, else the row kernel's rule (E = 4
      // below 2^20 rows, which every shape here has).
      const uint32_t split_lanes = ref.rows() < (1 << 17) ? max_subgroup_lanes() : an.row_lanes;
      const SpmvRowStats want = host_stats(ref, ref.rows() ? 128u * split_lanes : 0u);
      CHECK(an.stats.long_threshold == want.long_threshold);
      CHECK(an.stats.long_rows == want.long_rows);
      CHECK(an.stats.huge_threshold == want.huge_threshold);
      CHECK(an.stats.huge_rows == want.huge_rows);
      CHECK(an.stats.rows == want.rows);
      CHECK(an.stats.nnz == want.nnz);
      CHECK(an.stats.max_row_length == want.max_row_length);
      CHECK(an.stats.empty_rows == want.empty_rows);
      CHECK(an.stats.cols == want.cols);
      CHECK(an.stats.wide_rows == want.wide_rows);
      CHECK(an.stats.wide_span == want.wide_span);
      CHECK(an.kernel != SpmvKernel::automatic);
      // The documented rule, and analysis() of the host statistics agrees with analyze().
      const bool regular =
          double(want.max_row_length) <= 8.0 * want.mean_row_length() + 32.0 &&
          want.max_row_length <= 1024u * 4u * an.row_lanes;
      CHECK(an.kernel == (regular ? regular_kernel : SpmvKernel::split));
      const SpmvAnalysis from_host = plan.analysis(want);
      CHECK(from_host.kernel == an.kernel);
      CHECK(from_host.row_lanes == an.row_lanes);
      // Many empty rows (at least 90 %, not all) among regular ones: the row kernel skips them.
      CHECK(an.skip_empty_rows == (an.kernel == SpmvKernel::rows &&
                                   want.empty_rows * 10 >= want.rows * 9 &&
                                   want.empty_rows < want.rows));
      CHECK(from_host.skip_empty_rows == an.skip_empty_rows);
      CHECK(std::has_single_bit(an.row_lanes));
      CHECK(an.row_lanes <= max_subgroup_lanes());
      chosen[s.name] = an.kernel;

      // The recording form gives the same statistics.
      Buffer sb = rt.alloc(Spmv::kRowStatsBytes).value();
      rt.submit([&](VkCommandBuffer cmd) { return plan.record_row_stats(cmd, a.view(), sb.view()); })
          .value();
      const auto words = rt.download<uint32_t>(sb.view(), 8).value();
      const SpmvRowStats rec = Spmv::row_stats_from_words(a.view(), words.data());
      CHECK(rec.max_row_length == want.max_row_length);
      CHECK(rec.empty_rows == want.empty_rows);
      CHECK(rec.long_rows == want.long_rows);
      CHECK(rec.long_threshold == want.long_threshold);
      CHECK(rec.huge_rows == want.huge_rows);
      CHECK(rec.huge_threshold == want.huge_threshold);
    }
  }
  CHECK(chosen.at("stencil 70x70") == regular_kernel);
  CHECK(chosen.at("short rows k=2 with explicit zeros") == regular_kernel);
  CHECK(chosen.at("power-law rows") == SpmvKernel::split);
  CHECK(chosen.at("arrow") == SpmvKernel::split);
  CHECK(chosen.at("one dense row") == SpmvKernel::split);
  CHECK(chosen.at("all rows empty 3000x40") == regular_kernel);
  CHECK(chosen.at("many empty rows") == regular_kernel);

  // Lane counts from the mean: a power of two <= ceil(mean / 4) under 2^20 rows (a stencil,
  // mean ~4.9, gets 2 lanes where the subgroup allows, 27 per row 4, 64 per row 16), and
  // <= ceil(mean / 8) from 2^20 rows on (the stencil 1 lane, 16 per row 2, 27 per row 4).
  SpmvRowStats st;
  st.rows = 1u << 20;
  st.nnz = uint64_t(st.rows) * 49 / 10;
  st.max_row_length = 5;
  CHECK(plan.analysis(st).row_lanes == 1u);
  st.nnz = uint64_t(st.rows) * 16;
  st.max_row_length = 16;
  CHECK(plan.analysis(st).row_lanes == std::min<uint32_t>(2, max_subgroup_lanes()));
  st.nnz = uint64_t(st.rows) * 27;
  st.max_row_length = 27;
  CHECK(plan.analysis(st).row_lanes == std::min<uint32_t>(4, max_subgroup_lanes()));
  st.rows = (1u << 20) - 1;
  st.nnz = uint64_t(st.rows) * 16;
  st.max_row_length = 16;
  CHECK(plan.analysis(st).row_lanes == std::min<uint32_t>(4, max_subgroup_lanes()));
  st.rows = 1000;
  st.nnz = 4900;
  st.max_row_length = 5;
  CHECK(plan.analysis(st).row_lanes == std::min<uint32_t>(2, max_subgroup_lanes()));
  st.nnz = 1000 * 27;
  st.max_row_length = 27;
  CHECK(plan.analysis(st).row_lanes == std::min<uint32_t>(4, max_subgroup_lanes()));
  st.nnz = 1000 * 64;
  CHECK(plan.analysis(st).row_lanes == std::min<uint32_t>(16, max_subgroup_lanes()));
  st.nnz = 2000;
  CHECK(plan.analysis(st).row_lanes == 1u);
  // Wide rows (random columns all over x) from 2^20 rows on, on GPUs (where the statistics
  // count them): <= ceil(mean / 4) lanes for 4-byte values, ceil(mean / 2) for 8-byte ones.
  {
    const bool cpu = test::gpu().caps().device_type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    SpmvRowStats w;
    w.rows = w.cols = 1u << 20;
    w.nnz = uint64_t(w.rows) * 16;
    w.max_row_length = 16;
    w.wide_rows = w.rows;
    w.wide_span = w.cols / 4;
    CHECK(plan.analysis(w).row_lanes == std::min<uint32_t>(cpu ? 2 : 4, max_subgroup_lanes()));
    if (test::gpu().caps().shader_float64)
      CHECK(plan_for(ValueType::f64, automatic()).analysis(w).row_lanes ==
            std::min<uint32_t>(cpu ? 2 : 8, max_subgroup_lanes()));
    w.wide_rows = w.rows / 2 - 1;  // fewer than half wide: the rule above
    CHECK(plan.analysis(w).row_lanes == std::min<uint32_t>(2, max_subgroup_lanes()));
    w.rows = w.cols = (1u << 20) - 1;  // small matrices: the rule above
    w.nnz = uint64_t(w.rows) * 16;
    w.wide_rows = w.rows;
    w.wide_span = w.cols / 4;
    CHECK(plan.analysis(w).row_lanes == std::min<uint32_t>(4, max_subgroup_lanes()));
  }
  // Regular but few, very long rows (a lane group would walk > 1024 steps): the split kernel
  // when the statistics counted its long rows; when they did not, or when there are more long
  // rows than the split kernel takes, nonzero tiles without empty rows, the merge path with.
  st.rows = 4;
  st.nnz = 4 * 1000000;
  st.max_row_length = 1000000;
  CHECK(plan.analysis(st).kernel == SpmvKernel::nnz);
  st.empty_rows = 1;
  CHECK(plan.analysis(st).kernel == SpmvKernel::merge);
  st.empty_rows = 0;
  st.long_threshold = 128u * plan.analysis(st).row_lanes;
  st.huge_threshold = std::max<uint64_t>(st.long_threshold, kHugeRow);
  st.long_rows = st.huge_rows = 4;
  CHECK(plan.analysis(st).kernel == SpmvKernel::split);
  st.long_rows = 65536;
  CHECK(plan.analysis(st).kernel == SpmvKernel::nnz);
  st.empty_rows = 1;
  CHECK(plan.analysis(st).kernel == SpmvKernel::merge);
  st.empty_rows = 0;
  st.long_threshold = st.long_rows = st.huge_threshold = st.huge_rows = 0;
  // Power-law rows on a large matrix (mean 15.4: 4 split-kernel lanes per row): on GPUs, 4-byte
  // values in nonzero tiles, 8-byte values and matrices with an empty row in the split kernel;
  // arrow-like rows (mean 3: one lane) in the split kernel.
  {
    const bool cpu = test::gpu().caps().device_type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    SpmvOptions split_only;
    split_only.kernel = SpmvKernel::split;
    SpmvRowStats p;
    p.rows = p.cols = 1u << 22;
    p.nnz = uint64_t(p.rows) * 1538 / 100;
    p.max_row_length = 132830;
    const auto count_long = [&](ValueType t, SpmvRowStats s) {
      const uint32_t lanes = plan_for(t, split_only).analysis(s).row_lanes;
      s.long_threshold = 128u * lanes;
      s.huge_threshold = std::max<uint64_t>(s.long_threshold, kHugeRow);
      s.long_rows = 4000;
      s.huge_rows = 40;
      return std::pair{s, lanes};
    };
    const auto [p32, lanes32] = count_long(ValueType::f32, p);
    CHECK(lanes32 == std::min<uint32_t>(4, max_subgroup_lanes()));
    const bool tiles = !cpu && lanes32 >= 4;
    CHECK(plan.analysis(p32).kernel == (tiles ? SpmvKernel::nnz : SpmvKernel::split));
    SpmvRowStats e = p32;
    e.empty_rows = 1;
    CHECK(plan.analysis(e).kernel == SpmvKernel::split);
    if (test::gpu().caps().shader_float64) {
      const SpmvRowStats p64 = count_long(ValueType::f64, p).first;
      CHECK(plan_for(ValueType::f64, automatic()).analysis(p64).kernel == SpmvKernel::split);
    }
    SpmvRowStats arrow = p;
    arrow.nnz = uint64_t(arrow.rows) * 3;
    arrow.max_row_length = arrow.rows;
    const auto [a32, lanes_a] = count_long(ValueType::f32, arrow);
    CHECK(lanes_a == 1u);
    CHECK(plan.analysis(a32).kernel == SpmvKernel::split);
  }
  st.nnz = 4 * 2000;
  st.max_row_length = 2000;
  CHECK(plan.analysis(st).kernel == regular_kernel);
  // Many regular rows: the row kernel too, with f32 and f64 values (the stream kernel only
  // when forced).
  SpmvRowStats big;
  big.rows = 65536;
  big.nnz = 5 * big.rows;
  big.max_row_length = 5;
  CHECK(plan.analysis(big).kernel == SpmvKernel::rows);
  big.rows = uint64_t(1) << 24;
  big.nnz = 5 * big.rows;
  CHECK(plan.analysis(big).kernel == SpmvKernel::rows);
  big.nnz = 5 * big.rows;
  if (rt.caps().shader_float64) CHECK(plan_for(ValueType::f64, automatic()).analysis(big).kernel == SpmvKernel::rows);
  // f64 values: the row kernel on the same statistics.
  if (rt.caps().shader_float64) CHECK(plan_for(ValueType::f64, automatic()).analysis(st).kernel == SpmvKernel::rows);
  // Forced kernels win over the statistics.
  CHECK(plan_for(ValueType::f32, row_kernel(true)).analysis(host_stats(test::eigen_reference(
                                                                shapes[7].m)))
            .kernel == SpmvKernel::rows);
  SpmvOptions merge_only;
  merge_only.kernel = SpmvKernel::merge;
  CHECK(plan_for(ValueType::f32, merge_only).analysis(st).kernel == SpmvKernel::merge);
}

TEST_CASE("SpMV simple form uses the automatic choice", "[spmv][analyze]") {
  Runtime& rt = test::gpu();
  for (const auto& [name, m] :
       {std::pair<std::string, CooMatrix>{"stencil 40x40", stencil(40)},
        std::pair<std::string, CooMatrix>{"power-law rows", shape_named("power-law rows")}}) {
    INFO(name);
    const EigenCsr ref = test::eigen_reference(m);
    const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref)).value();
    const auto x = vector_values<float>(size_t(m.cols), 5);
    const auto y0 = vector_values<float>(size_t(m.rows), 6);
    Buffer xb = upload_or_empty(rt, x), yb = upload_or_empty(rt, y0);
    spmv(rt, a.view(), xb.view(), yb.view(), 0.75, -0.5).value();
    test::check_y(rt.download<float>(yb.view(), y0.size()).value(),
                  test::reference_spmv(ref, x, y0, 0.75, -0.5), name + " simple form");
  }
}

TEST_CASE("SpMV matches Eigen on every generated shape, f32 and f64", "[spmv]") {
  const bool f64 = test::gpu().caps().shader_float64;
  for (const auto& s : test::generated_shapes()) {
    check_all_configs<float>(s.m, s.name);
    if (f64) check_all_configs<double>(s.m, s.name);
  }
}

TEST_CASE("SpMV with a 64-bit row pointer forced on small data", "[spmv][rowptr64]") {
  for (const auto& s : test::generated_shapes()) {
    INFO(s.name);
    check_spmv<float>(s.m, s.name + " r64 default", SpmvOptions{}, 1.0, 1.0, true);
    check_spmv<float>(s.m, s.name + " r64 small tiles", small_tiles(true), 1.0, 0.0, true, true);
  }
}

// With an analysis whose longest row is shorter than a tile, the merge path skips the carry
// scan (every tile ends a row): the results match Eigen and, bit for bit, the path with the scan.
TEST_CASE("SpMV merge path with an analysis: carries without the scan, same bits",
          "[spmv][carries]") {
  const bool f64 = test::gpu().caps().shader_float64;
  Runtime& rt = test::gpu();
  for (const auto& s : test::generated_shapes()) {
    INFO(s.name);
    for (bool sg : {true, false}) {
      const SpmvOptions o = forced(SpmvKernel::merge, small_tiles(sg));
      check_spmv<float>(s.m, s.name + " merge+analysis small tiles", o, -1.0, 0.5, false, false,
                        true);
      check_spmv<float>(s.m, s.name + " merge+analysis small tiles r64", o, 1.0, 0.0, true, false,
                        true);
      if (f64)
        check_spmv<double>(s.m, s.name + " merge+analysis small tiles f64", o, 2.0, -0.25, false,
                           true, true);
    }
    check_spmv<float>(s.m, s.name + " merge+analysis", forced(SpmvKernel::merge), 1.5, 0.0, false,
                      false, true);
    const DeviceCsr a =
        DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(s.m))).value();
    const auto x = vector_values<float>(size_t(s.m.cols), 3);
    const auto y0 = vector_values<float>(size_t(s.m.rows), 4);
    const SpmvOptions o = forced(SpmvKernel::merge, small_tiles(true));
    const auto scanned = gpu_spmv(a, x, y0, 1.0, 1.0, o);
    const auto direct = gpu_spmv(a, x, y0, 1.0, 1.0, o, true);
    REQUIRE(std::memcmp(scanned.data(), direct.data(), scanned.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("SpMV alpha == 0 reads neither A nor x, beta == 0 never reads y", "[spmv]") {
  const auto shapes = test::generated_shapes();
  const auto& m = shapes[7].m;  // arrow
  Runtime& rt = test::gpu();
  const EigenCsr ref = test::eigen_reference(m);
  const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref)).value();
  auto x = vector_values<float>(size_t(m.cols), 1);
  x[3] = std::numeric_limits<float>::infinity();  // 0 * inf would be NaN if A x were formed
  const auto y0 = vector_values<float>(size_t(m.rows), 2);
  auto y = gpu_spmv(a, x, y0, 0.0, -2.0, SpmvOptions{});
  for (size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == -2.0f * y0[i]);
  y = gpu_spmv(a, x, y0, 0.0, 0.0, SpmvOptions{});
  for (size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == 0.0f);
  // The same conventions with the row and stream kernels and under the automatic choice.
  for (const auto& o : {row_kernel(true), row_kernel(false), stream_kernel(), split_kernel(), automatic()}) {
    y = gpu_spmv(a, x, y0, 0.0, -2.0, o, true);
    for (size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == -2.0f * y0[i]);
    y = gpu_spmv(a, x, y0, 0.0, 0.0, o, true);
    for (size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == 0.0f);
  }
  // beta == 0 with the row and stream kernels: y starts as NaN (gpu_spmv poisons it) and must
  // not leak.
  const auto st = stencil(30);
  const EigenCsr sref = test::eigen_reference(st);
  const DeviceCsr s = DeviceCsr::upload(rt, test::to_csr_matrix(sref)).value();
  const auto sx = vector_values<float>(size_t(st.cols), 7);
  const auto sy0 = vector_values<float>(size_t(st.rows), 8);
  for (const auto& o : {row_kernel(true), row_kernel(false), stream_kernel(), stream_kernel(1)}) {
    const auto got = gpu_spmv(s, sx, sy0, 1.0, 0.0, o);
    for (float v : got) REQUIRE(!std::isnan(v));
    test::check_y(got, test::reference_spmv(sref, sx, sy0, 1.0, 0.0), "stencil beta 0");
  }
}

TEST_CASE("SpMV results are bit-identical from run to run", "[spmv][determinism]") {
  const auto shapes = test::generated_shapes();
  for (size_t which : {size_t(6), size_t(9)}) {  // 1 x 70000 dense, power-law rows
    const auto& m = shapes[which].m;
    INFO(shapes[which].name);
    Runtime& rt = test::gpu();
    const DeviceCsr a =
        DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(m))).value();
    const auto x = vector_values<float>(size_t(m.cols), 3);
    const auto y0 = vector_values<float>(size_t(m.rows), 4);
    for (const auto& o : {SpmvOptions{}, small_tiles(true)}) {
      const auto first = gpu_spmv(a, x, y0, 1.0, 1.0, o);
      for (int run = 0; run < 3; ++run) {
        const auto again = gpu_spmv(a, x, y0, 1.0, 1.0, o);
        REQUIRE(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("SpMV row kernel: bit-identical from run to run and between its two builds",
          "[spmv][rows][determinism]") {
  const auto shapes = test::generated_shapes();
  Runtime& rt = test::gpu();
  for (const auto& [name, m] : {std::pair<std::string, CooMatrix>{"stencil 50x50", stencil(50)},
                                std::pair<std::string, CooMatrix>{shapes[9].name, shapes[9].m},
                                std::pair<std::string, CooMatrix>{shapes[6].name, shapes[6].m}}) {
    INFO(name);
    const DeviceCsr a =
        DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(m))).value();
    const auto x = vector_values<float>(size_t(m.cols), 3);
    const auto y0 = vector_values<float>(size_t(m.rows), 4);
    for (uint32_t lanes : {1u, 2u, max_subgroup_lanes()}) {
      const auto first = gpu_spmv(a, x, y0, 1.0, 1.0, row_kernel(true, lanes));
      for (int run = 0; run < 3; ++run) {
        const auto again = gpu_spmv(a, x, y0, 1.0, 1.0, row_kernel(true, lanes));
        REQUIRE(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)) == 0);
      }
      // The shared-memory build sums in the same tree.
      const auto wg = gpu_spmv(a, x, y0, 1.0, 1.0, row_kernel(false, lanes));
      REQUIRE(std::memcmp(first.data(), wg.data(), first.size() * sizeof(float)) == 0);
    }
  }
}

namespace {
// The row kernel's DOT build on square A: y as the row kernel writes it, bit for bit, and the
// partials (one per workgroup: ceil(rows / (256 / L))) adding up to y.x, bit-identical run to run.
template <class T>
void check_dot(const CooMatrix& m, const std::string& name, bool subgroup, uint32_t lanes) {
  INFO(name << " (" << m.rows << " rows), " << to_string(value_type_of<T>()) << ", "
            << (subgroup ? "subgroup" : "shared memory") << ", L" << lanes);
  Runtime& rt = test::gpu();
  DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(m)), dopt).value();
  Spmv& plan = plan_for(value_type_of<T>(), row_kernel(subgroup, lanes));
  sparse::detail::SpmvDotAccess::enable(plan).value();
  const SpmvAnalysis an = plan.analyze(rt, a.view()).value();
  const uint64_t parts = sparse::detail::SpmvDotAccess::partials(plan, a.view(), an);
  const uint64_t per_group = sparse::detail::tuning::kSpmvRowsWorkgroup / lanes;
  REQUIRE(parts == (uint64_t(m.rows) + per_group - 1) / per_group);
  const auto x = vector_values<T>(size_t(m.cols), 41);
  const auto plain = gpu_spmv(a, x, x, 1.0, 0.0, row_kernel(subgroup, lanes));
  Buffer pb = test::poisoned(rt, parts * sizeof(T));
  std::vector<T> first;
  for (int run = 0; run < 2; ++run) {
    const auto y = run_product(x, x, 0.0, [&](VkCommandBuffer cmd, BufferView xv, BufferView yv) {
      return sparse::detail::SpmvDotAccess::record(plan, cmd, a.view(), xv, yv, an, pb.address());
    });
    REQUIRE(std::memcmp(y.data(), plain.data(), y.size() * sizeof(T)) == 0);
    const auto partials = rt.download<T>(pb.view(), parts).value();
    if (run == 0) {
      double sum = 0, mag = 0, ref = 0;
      for (T v : partials) sum += double(v);
      for (size_t i = 0; i < y.size(); ++i) {
        ref += double(y[i]) * double(x[i]);
        mag += std::abs(double(y[i]) * double(x[i]));
      }
      const double eps = sizeof(T) == 4 ? 1e-5 : 1e-13;
      CHECK(std::abs(sum - ref) <= eps * (mag + 1.0));
      first = partials;
    } else {
      REQUIRE(std::memcmp(first.data(), partials.data(), parts * sizeof(T)) == 0);
    }
  }
}
}  // namespace

TEST_CASE("SpMV row kernel with p.Ap (the CG solver's product): y and the partials' sum",
          "[spmv][rows][dot]") {
  std::vector<std::pair<std::string, CooMatrix>> ms = {{"stencil 50x50", stencil(50)},
                                                       {"stencil 130x130", stencil(130)}};
  for (auto& sh : test::generated_shapes())
    if (sh.m.rows == sh.m.cols && sh.m.rows > 0) ms.emplace_back(sh.name, sh.m);
  for (const auto& [name, m] : ms)
    for (const bool subgroup : {true, false})
      for (const uint32_t lanes : {1u, 2u, subgroup ? max_subgroup_lanes() : 32u}) {
        check_dot<float>(m, name, subgroup, lanes);
        if (test::gpu().caps().shader_float64) check_dot<double>(m, name, subgroup, lanes);
      }
  // No DOT product where the row kernel does not run or A is not square.
  Runtime& rt = test::gpu();
  const CooMatrix rect = stencil(20);
  CooMatrix wide = test::empty_matrix(30, 40);
  test::add_entry(wide, 3, 39, 1.0);
  const DeviceCsr w = DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(wide))).value();
  Spmv& rows = plan_for(ValueType::f32, row_kernel(true, 1));
  sparse::detail::SpmvDotAccess::enable(rows).value();
  CHECK(sparse::detail::SpmvDotAccess::partials(rows, w.view(), rows.analyze(rt, w.view()).value()) == 0);
  Spmv& merge = plan_for(ValueType::f32, forced(SpmvKernel::merge));
  sparse::detail::SpmvDotAccess::enable(merge).value();
  const DeviceCsr sq = DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(rect))).value();
  CHECK(sparse::detail::SpmvDotAccess::partials(merge, sq.view(), merge.analyze(rt, sq.view()).value()) == 0);
}

namespace {
// Rows of 16 entries in one row of five (the others empty), over several windows of the row
// kernel's empty-row skipping, and a last window cut short.
CooMatrix sparse_rows_matrix(int64_t rows) {
  CooMatrix c = test::empty_matrix(rows, 3000);
  for (int64_t r = 0; r < rows; ++r)
    if (test::hash32(uint64_t(r), 70) % 16 == 0)  // about 94 % of the rows empty
      for (int64_t j = 0; j < 16; ++j)
        test::add_entry(c, r, test::hash32(uint64_t(r * 16 + j), 71) % c.cols,
                        test::value_at(uint64_t(r * 16 + j), 72));
  return c;
}
}  // namespace

TEST_CASE("SpMV row kernel skipping empty rows: Eigen's result, the row kernel's bits",
          "[spmv][rows][skip_empty]") {
  // Where at least 90 % of the rows are empty, the automatic choice runs the row kernel over
  // windows that list their non-empty rows first: each row's sum is the row kernel's (same
  // lanes, same tree), so the results must equal the forced row kernel's bit for bit, in both
  // builds, and Eigen's within rounding; empty rows get beta * y.
  Runtime& rt = test::gpu();
  const bool f64 = test::gpu().caps().shader_float64;
  const auto shapes = test::generated_shapes();
  const std::pair<std::string, CooMatrix> cases[] = {
      {"sparse rows 5000", sparse_rows_matrix(5000)},
      {"sparse rows 1023", sparse_rows_matrix(1023)},
      {shapes[5].name, shapes[5].m}};
  REQUIRE(shapes[5].name == "many empty rows");
  for (const auto& [name, m] : cases) {
    INFO(name);
    const EigenCsr ref = test::eigen_reference(m);
    const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref)).value();
    const auto x = vector_values<float>(size_t(m.cols), 33);
    const auto y0 = vector_values<float>(size_t(m.rows), 34);
    for (bool subgroup : {true, false}) {
      SpmvOptions o = automatic();
      o.use_subgroup_ops = subgroup;
      SpmvAnalysis an;
      for (const double beta : {0.0, 0.5}) {
        const auto got = gpu_spmv(a, x, y0, 1.5, beta, o, true, &an);
        REQUIRE(an.kernel == SpmvKernel::rows);
        REQUIRE(an.skip_empty_rows);
        test::check_y(got, test::reference_spmv(ref, x, y0, 1.5, beta), name + " skip empty");
        const auto rows = gpu_spmv(a, x, y0, 1.5, beta, row_kernel(subgroup, an.row_lanes));
        REQUIRE(std::memcmp(got.data(), rows.data(), got.size() * sizeof(float)) == 0);
      }
    }
    if (f64) check_spmv<double>(m, name + " skip empty f64", automatic(), 2.0, 0.5, true, false,
                                true);
  }
}

namespace {
// y = alpha * A * x + beta * y0 over A's column blocks (split_columns; each block analyzed, one
// record() over all of them), on the GPU.
template <class T>
std::vector<T> gpu_spmv_blocks(const DeviceCsr& a, uint32_t blocks, const std::vector<T>& x,
                               const std::vector<T>& y0, double alpha, double beta,
                               const SpmvOptions& o) {
  Runtime& rt = test::gpu();
  Spmv& plan = plan_for(value_type_of<T>(), o);
  const auto parts = split_columns(rt, a.view(), blocks).value();
  std::vector<CsrView> views;
  std::vector<SpmvAnalysis> analyses;
  uint64_t most = 0;
  for (const auto& p : parts) {
    views.push_back(p.view());
    analyses.push_back(plan.analyze(rt, p.view()).value());
    most = std::max(most, p.nnz());
  }
  plan.reserve(a.rows(), most).value();
  return run_product(x, y0, beta, [&](VkCommandBuffer cmd, BufferView xv, BufferView yv) {
    return plan.record(cmd, views, xv, yv, alpha, beta, analyses);
  });
}
}  // namespace

TEST_CASE("SpMV over column blocks matches Eigen on every generated shape",
          "[spmv][column_blocks]") {
  // A = the sum of its column blocks: the first block's product applies beta (beta == 0: y is
  // never read, NaN poison must go), the others add to y. Each block runs the kernel its own
  // analysis picks, or a forced one; f32 and f64.
  const bool f64 = test::gpu().caps().shader_float64;
  Runtime& rt = test::gpu();
  std::vector<std::pair<std::string, CooMatrix>> cases;
  for (const auto& s : test::generated_shapes()) cases.push_back({s.name, s.m});
  cases.push_back({"sparse rows 5000", sparse_rows_matrix(5000)});
  for (const auto& [name, m] : cases) {
    INFO(name);
    const EigenCsr ref = test::eigen_reference(m);
    const uint32_t most = uint32_t(std::max<int64_t>(1, std::min<int64_t>(m.cols, 3)));
    {
      const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref)).value();
      const auto x = vector_values<float>(size_t(m.cols), 41);
      const auto y0 = vector_values<float>(size_t(m.rows), 42);
      for (const auto& [blocks, o, alpha, beta] :
           {std::tuple{most, automatic(), 1.5, 0.0}, std::tuple{std::min(most, 2u), automatic(), -1.0, 0.5},
            std::tuple{most, row_kernel(false), 2.0, -0.25}, std::tuple{most, forced(SpmvKernel::merge), 1.0, 1.0},
            std::tuple{most, automatic(), 0.0, 0.5}}) {
        INFO(blocks << " blocks, kernel " << to_string(o.kernel) << ", alpha " << alpha
                    << ", beta " << beta);
        test::check_y(gpu_spmv_blocks(a, blocks, x, y0, alpha, beta, o),
                      test::reference_spmv(ref, x, y0, alpha, beta), name + " column blocks");
      }
    }
    if (f64) {
      DeviceCsrOptions dopt;
      dopt.values = ValueType::f64;
      dopt.force_row_ptr_64 = true;
      const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref), dopt).value();
      const auto x = vector_values<double>(size_t(m.cols), 43);
      const auto y0 = vector_values<double>(size_t(m.rows), 44);
      test::check_y(gpu_spmv_blocks(a, most, x, y0, 2.0, 0.5, automatic()),
                    test::reference_spmv(ref, x, y0, 2.0, 0.5), name + " column blocks f64 r64");
    }
  }
}

namespace {
// Short rows (3 entries), a long row every 50 (6000 entries over all columns: about 2000 per
// block of 3, past the split kernel's long threshold at up to 8 lanes) and two huge rows (60000
// entries evenly over all columns: 20000 per block of 3, several pieces each, so the combining
// phase runs too).
CooMatrix split_blocks_matrix() {
  CooMatrix c = test::empty_matrix(3000, 65536);
  for (int64_t r = 0; r < c.rows; ++r) {
    const int64_t len = r == 7 || r == 2990 ? 60000 : r % 50 == 3 ? 6000 : 3;
    for (int64_t j = 0; j < len; ++j)
      test::add_entry(c, r, len == 60000 ? j * (c.cols - 1) / (len - 1) : test::hash32(uint64_t(r * 60000 + j), 73) % c.cols,
                      test::value_at(uint64_t(r * 60000 + j), 74));
  }
  return c;
}

// The column blocks' products one submission each (block 0 applying beta, the others adding):
// what a multi-block record() must equal bit for bit.
template <class T>
std::vector<T> gpu_spmv_blocks_one_by_one(const DeviceCsr& a, uint32_t blocks,
                                          const std::vector<T>& x, const std::vector<T>& y0,
                                          double alpha, double beta, const SpmvOptions& o) {
  Runtime& rt = test::gpu();
  Spmv& plan = plan_for(value_type_of<T>(), o);
  const auto parts = split_columns(rt, a.view(), blocks).value();
  std::vector<T> y = y0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const SpmvAnalysis an = plan.analyze(rt, parts[i].view()).value();
    plan.reserve(a.rows(), parts[i].nnz()).value();
    y = run_product(x, y, i == 0 ? beta : 1.0, [&](VkCommandBuffer cmd, BufferView xv, BufferView yv) {
      return plan.record(cmd, parts[i].view(), xv, yv, alpha, i == 0 ? beta : 1.0, an);
    });
  }
  return y;
}

template <class T>
void check_split_blocks(const EigenCsr& ref, const std::string& what,
                        const SpmvOptions& split = forced(SpmvKernel::split)) {
  Runtime& rt = test::gpu();
  DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref), dopt).value();
  const auto x = vector_values<T>(size_t(ref.cols()), 45);
  const auto y0 = vector_values<T>(size_t(ref.rows()), 46);
  for (const uint32_t blocks : {2u, 3u}) {
    for (const double beta : {0.0, 0.5}) {
      INFO(what << ", " << blocks << " blocks, beta " << beta);
      const auto got = gpu_spmv_blocks(a, blocks, x, y0, 1.5, beta, split);
      test::check_y(got, test::reference_spmv(ref, x, y0, 1.5, beta), what);
      const auto one = gpu_spmv_blocks_one_by_one(a, blocks, x, y0, 1.5, beta, split);
      REQUIRE(std::memcmp(got.data(), one.data(), got.size() * sizeof(T)) == 0);
    }
  }
}
}  // namespace

TEST_CASE("SpMV over column blocks of long and huge rows: the split blocks' lists made together",
          "[spmv][column_blocks][split]") {
  // Every block runs the split kernel with long rows (a workgroup each) and huge rows (several
  // pieces, then the combining phase), so a multi-block record() makes every block's lists
  // first, all at once, then the products. Eigen's result within rounding, and the blocks run
  // one submission at a time bit for bit (the lists' order never reaches y).
  // 4 lanes per row at most: small matrices otherwise take a subgroup per row, whose long-row
  // threshold passes these long rows at 16 lanes and more.
  const EigenCsr ref = test::eigen_reference(split_blocks_matrix());
  SpmvOptions split = forced(SpmvKernel::split);
  split.row_lanes = std::min<uint32_t>(4, max_subgroup_lanes());
  Spmv& plan = plan_for(ValueType::f32, split);
  const auto parts = split_columns(test::gpu(), DeviceCsr::upload(test::gpu(), test::to_csr_matrix(ref)).value().view(), 3).value();
  for (const auto& p : parts) {
    const SpmvAnalysis an = plan.analyze(test::gpu(), p.view()).value();
    INFO("a block of " << p.nnz() << " entries, " << an.row_lanes << " lanes, long threshold " << an.stats.long_threshold);
    REQUIRE(an.stats.long_rows > an.stats.huge_rows);  // long rows listed
    REQUIRE(an.stats.huge_rows == 2);
  }
  check_split_blocks<float>(ref, "long rows f32", split);
  if (test::gpu().caps().shader_float64) check_split_blocks<double>(ref, "long rows f64", split);
}

TEST_CASE("SpMV over column blocks refuses mismatched blocks before recording",
          "[spmv][column_blocks][errors]") {
  Runtime& rt = test::gpu();
  const EigenCsr ref = test::eigen_reference(stencil(10));
  const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(ref)).value();
  const DeviceCsr other =
      DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(stencil(9)))).value();
  Spmv& plan = plan_for(ValueType::f32, automatic());
  const SpmvAnalysis an = plan.analyze(rt, a.view()).value();
  Buffer xb = rt.alloc(100 * 4).value(), yb = rt.alloc(100 * 4).value();
  const auto try_record = [&](std::vector<CsrView> views, std::vector<SpmvAnalysis> analyses) {
    Status st;
    rt.submit([&](VkCommandBuffer cmd) {
        st = plan.record(cmd, views, xb.view(), yb.view(), 1.0, 0.0, analyses);
        return Status{};
      }).value();
    return st;
  };
  const Status none = try_record({}, {});
  REQUIRE(!none);
  CHECK(none.error().code == Errc::invalid_argument);
  const Status count = try_record({a.view(), a.view()}, {an});
  REQUIRE(!count);
  CHECK_THAT(count.error().message, Catch::Contains("one analysis per block"));
  const Status shape = try_record({a.view(), other.view()}, {an, an});
  REQUIRE(!shape);
  CHECK_THAT(shape.error().message, Catch::Contains("column block 1 is 81 x 81"));
  CHECK(try_record({a.view(), a.view()}, {an, an}));
}

TEST_CASE("SpMV analysis: a large matrix of random columns takes the row kernel, wide lanes",
          "[spmv][analyze]") {
  // A 4 M x 4 M matrix with 16 random columns per row (32 MiB of f64 x, gathered all over):
  // the row kernel with mean / 4 lanes in f32 and mean / 2 in f64 on GPUs (mean / 8 on CPU
  // devices, which do not count wide rows). On GPUs, f64's 32 MiB of x are recommended two
  // column blocks (sparse/spmv/pass.hpp), f32's 16 MiB none; and none for banded rows, for
  // fewer than 3 gathers per x element, or on CPU devices.
  const bool cpu = test::gpu().caps().device_type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  SpmvRowStats st;
  st.rows = st.cols = uint64_t(1) << 22;
  st.nnz = st.rows * 16;
  st.max_row_length = 16;
  st.wide_rows = st.rows;
  st.wide_span = st.cols / 4;
  const SpmvAnalysis a32 = plan_for(ValueType::f32, automatic()).analysis(st);
  CHECK(a32.kernel == SpmvKernel::rows);
  CHECK(!a32.skip_empty_rows);
  CHECK(a32.row_lanes == std::min<uint32_t>(cpu ? 2 : 4, max_subgroup_lanes()));
  CHECK(a32.column_blocks == 1);
  if (test::gpu().caps().shader_float64) {
    Spmv& plan = plan_for(ValueType::f64, automatic());
    const SpmvAnalysis a64 = plan.analysis(st);
    CHECK(a64.kernel == SpmvKernel::rows);
    CHECK(a64.row_lanes == std::min<uint32_t>(cpu ? 2 : 8, max_subgroup_lanes()));
    CHECK(a64.column_blocks == (cpu ? 1u : 2u));
    SpmvRowStats band = st;  // not wide
    band.wide_rows = 0;
    CHECK(plan.analysis(band).column_blocks == 1);
    SpmvRowStats few = st;  // 2 gathers per x element
    few.nnz = few.cols * 2;
    few.max_row_length = 2;
    CHECK(plan.analysis(few).column_blocks == 1);
    // Power-law rows (the split kernel) gathering all over x: two blocks as well.
    SpmvRowStats hubs = st;
    hubs.max_row_length = 100000;
    // The split kernel's threshold: 128 entries per lane, mean 16 / 4 lanes.
    hubs.long_threshold = 128u * std::min<uint32_t>(4, max_subgroup_lanes());
    hubs.huge_threshold = kHugeRow;
    hubs.long_rows = 4400;
    hubs.huge_rows = 40;
    const SpmvAnalysis split = plan.analysis(hubs);
    REQUIRE(split.kernel == SpmvKernel::split);
    CHECK(split.column_blocks == (cpu ? 1u : 2u));
  }
}

TEST_CASE("SpMV stream kernel: bit-identical from run to run", "[spmv][stream][determinism]") {
  const auto shapes = test::generated_shapes();
  Runtime& rt = test::gpu();
  for (const auto& [name, m] : {std::pair<std::string, CooMatrix>{"stencil 50x50", stencil(50)},
                                std::pair<std::string, CooMatrix>{shapes[9].name, shapes[9].m},
                                std::pair<std::string, CooMatrix>{shapes[6].name, shapes[6].m}}) {
    INFO(name);
    const DeviceCsr a =
        DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(m))).value();
    const auto x = vector_values<float>(size_t(m.cols), 3);
    const auto y0 = vector_values<float>(size_t(m.rows), 4);
    for (uint32_t items : {0u, 1u}) {
      const auto first = gpu_spmv(a, x, y0, 1.0, 1.0, stream_kernel(items));
      for (int run = 0; run < 3; ++run) {
        const auto again = gpu_spmv(a, x, y0, 1.0, 1.0, stream_kernel(items));
        REQUIRE(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)) == 0);
      }
      // Each row is summed serially in entry order, whatever the chunk size.
      if (items) {
        const auto other = gpu_spmv(a, x, y0, 1.0, 1.0, stream_kernel(0));
        REQUIRE(std::memcmp(first.data(), other.data(), first.size() * sizeof(float)) == 0);
      }
    }
  }
}

TEST_CASE("DeviceCsr round trips through upload, download and Eigen", "[device_csr]") {
  Runtime& rt = test::gpu();
  for (const auto& s : test::generated_shapes()) {
    INFO(s.name);
    const EigenCsr ref = test::eigen_reference(s.m);
    for (bool r64 : {false, true}) {
      DeviceCsrOptions o;
      o.values = ValueType::f64;
      o.force_row_ptr_64 = r64;
      if (!rt.caps().shader_float64) o.values = ValueType::f32;
      const DeviceCsr a = upload(rt, ref, o).value();
      REQUIRE(a.nnz() == uint64_t(ref.nonZeros()));
      const EigenCsr back = to_eigen<double>(rt, a).value();
      REQUIRE(back.rows() == ref.rows());
      REQUIRE(back.cols() == ref.cols());
      REQUIRE(back.nonZeros() == ref.nonZeros());
      REQUIRE(std::equal(ref.outerIndexPtr(), ref.outerIndexPtr() + ref.rows() + 1,
                         back.outerIndexPtr()));
      REQUIRE(std::equal(ref.innerIndexPtr(), ref.innerIndexPtr() + ref.nonZeros(),
                         back.innerIndexPtr()));
      for (Eigen::Index k = 0; k < ref.nonZeros(); ++k)
        REQUIRE(
            back.valuePtr()[k] ==
            (o.values == ValueType::f64 ? ref.valuePtr()[k] : double(float(ref.valuePtr()[k]))));
    }
  }
}

TEST_CASE("SpMV and DeviceCsr refuse broken contracts clearly", "[spmv][errors]") {
  Runtime& rt = test::gpu();
  CsrMatrix bad;
  bad.rows = 2;
  bad.cols = 3;
  bad.row_offsets = {0, 1, 2};
  bad.col_indices = {0, 3};
  bad.real_values = {1, 2};
  auto r = DeviceCsr::upload(rt, bad);
  REQUIRE(!r);
  CHECK(r.error().code == Errc::invalid_argument);
  CHECK(r.error().message.find("column index 3") != std::string::npos);
  bad.col_indices = {0, 1};
  bad.row_offsets = {0, 2, 1};
  REQUIRE(DeviceCsr::upload(rt, bad).error().code == Errc::invalid_argument);
  bad.row_offsets = {0, 1, 2};
  const DeviceCsr a = DeviceCsr::upload(rt, bad).value();

  Spmv& plan = plan_for(ValueType::f32, SpmvOptions{});
  plan.reserve(16, 16).value();
  Buffer x = rt.alloc(12).value(), y = rt.alloc(8).value();
  auto record = [&](const CsrView& m, BufferView xv, BufferView yv) {
    return rt.submit([&](VkCommandBuffer cmd) { return plan.record(cmd, m, xv, yv); });
  };
  REQUIRE(record(a.view(), x.view(), y.view()));
  auto e = record(a.view(), x.view().sub(0, 8), y.view());
  REQUIRE(!e);
  CHECK(e.error().code == Errc::invalid_argument);
  CHECK(e.error().message.find("x holds 8 bytes") != std::string::npos);
  CHECK(record(a.view(), x.view(), x.view()).error().code ==
        Errc::invalid_argument);  // y overlaps x
  CsrView wrong = a.view();
  wrong.value_type = ValueType::f64;
  CHECK(record(wrong, x.view(), y.view()).error().code == Errc::invalid_argument);
  CHECK(Spmv::create(rt.context(), ValueType::u32).error().code == Errc::invalid_argument);
  SpmvOptions huge;
  huge.workgroup_size = 1024;
  CHECK(Spmv::create(rt.context(), ValueType::f64, huge).error().code ==
        (rt.caps().shader_float64 ? Errc::limit_exceeded : Errc::unsupported));
  CHECK(Spmv::create(rt.context(), ValueType::f32, SpmvOptions{true, 48, 0}).error().code ==
        Errc::invalid_argument);

  // Row kernel: lane counts, and an analysis of another matrix.
  for (uint32_t lanes : {3u, 512u})
    CHECK(Spmv::create(rt.context(), ValueType::f32, row_kernel(true, lanes)).error().code ==
          Errc::invalid_argument);
  CHECK(Spmv::create(rt.context(), ValueType::f32, row_kernel(false, 512)).error().code ==
        Errc::invalid_argument);
  Spmv& autoplan = plan_for(ValueType::f32, automatic());
  SpmvAnalysis an = autoplan.analyze(rt, a.view()).value();
  CHECK(an.stats.max_row_length == 1);
  CHECK(an.kernel == SpmvKernel::rows);
  REQUIRE(rt.submit([&](VkCommandBuffer cmd) {
    return autoplan.record(cmd, a.view(), x.view(), y.view(), 1.0, 0.0, an);
  }));
  an.stats.nnz = 3;
  auto mismatch = rt.submit([&](VkCommandBuffer cmd) {
    return autoplan.record(cmd, a.view(), x.view(), y.view(), 1.0, 0.0, an);
  });
  REQUIRE(!mismatch);
  CHECK(mismatch.error().code == Errc::invalid_argument);
  CHECK(mismatch.error().message.find("analysis") != std::string::npos);
  an.stats.nnz = 2;
  an.kernel = SpmvKernel::rows;
  an.row_lanes = 3;
  CHECK(rt.submit([&](VkCommandBuffer cmd) {
            return autoplan.record(cmd, a.view(), x.view(), y.view(), 1.0, 0.0, an);
          }).error().code == Errc::invalid_argument);
  CHECK(Spmv::create(rt.context(), ValueType::f32, forced(SpmvKernel(6))).error().code ==
        Errc::invalid_argument);
  // The row and stream kernels need no temporary storage.
  CHECK(plan_for(ValueType::f32, row_kernel(true)).temp_bytes(1000, 100000) == 0);
  CHECK(plan_for(ValueType::f32, stream_kernel()).temp_bytes(1000, 100000) == 0);
  Buffer small = rt.alloc(8).value();
  CHECK(autoplan.record_row_stats(VK_NULL_HANDLE, a.view(), small.view()).error().code ==
        Errc::invalid_argument);
}

namespace {
// Every matrix file under `dir` (recursively) with one of the given endings.
std::vector<test::fs::path> matrix_files(const test::fs::path& dir) {
  std::vector<test::fs::path> out;
  for (const auto& e : test::fs::recursive_directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (e.is_regular_file() && (n.ends_with(".mtx") || n.ends_with(".bsp.h5")))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Shared matrices larger than this are skipped (none is today: the largest has ~240k entries).
constexpr int64_t kMaxSharedNnz = 4'000'000;

void check_shared(const test::fs::path& dir) {
  for (const auto& path : matrix_files(dir)) {
    auto m = read_matrix_file(path);
    if (!m) {  // vectors and formats the reader refuses are not matrices for SpMV
      WARN(path.filename().string() << ": skipped: " << m.error().message);
      continue;
    }
    if (m->field == Field::complex) continue;  // complex SpMV: test_spmv_complex.cpp
    REQUIRE(expand_symmetry(*m).ok());
    if (m->nnz() > kMaxSharedNnz) {
      WARN(path.filename().string()
           << ": skipped (" << m->nnz() << " entries > " << kMaxSharedNnz << ")");
      continue;
    }
    check_spmv<float>(*m, path.filename().string() + " f32", SpmvOptions{}, 1.0, 0.0);
    if (test::gpu().caps().shader_float64)
      check_spmv<double>(*m, path.filename().string() + " f64", SpmvOptions{}, 1.0, 0.5, false,
                         true);
    // The row and stream kernels (forced) and the automatic choice on the same matrix.
    check_spmv<float>(*m, path.filename().string() + " f32 rows", row_kernel(true), 1.0, 0.0);
    check_spmv<float>(*m, path.filename().string() + " f32 auto", automatic(), -1.0, 0.5, false,
                      false, true);
    if (test::gpu().caps().shader_float64)
      check_spmv<double>(*m, path.filename().string() + " f64 rows", row_kernel(true), 1.0, 0.5,
                         false, true);
    check_spmv<float>(*m, path.filename().string() + " f32 stream", stream_kernel(), 1.0, 0.5);
  }
}
}  // namespace

TEST_CASE("SpMV matches Eigen on every shared real matrix", "[spmv][shared]") {
  VKPRIM_REQUIRE_SHARED("matrices/real");
  check_shared(shared_data / "matrices/real");
}

TEST_CASE("SpMV matches Eigen on every Binsparse reference matrix", "[spmv][shared]") {
  VKPRIM_REQUIRE_SHARED("binsparse-reference");
  check_shared(shared_data / "binsparse-reference");
}

// A refused call records nothing. Each call below is alone in its command buffer, which is then
// submitted: y and the temporary storage keep their poison. Refused by the merge path's last
// check (short temporary storage), and over column blocks by the dispatch limits of the second
// block (more nonzeros than the merge path's tiles cover, in views of memory that does not
// exist, which nothing may touch), checked before the first block's product is recorded.
TEST_CASE("SpMV refused by its last check, or a later block's, records nothing", "[spmv][errors][refused]") {
  Runtime& rt = test::gpu();
  const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(stencil(40)))).value();
  Spmv& plan = plan_for(ValueType::f32, automatic());
  const uint64_t rows = a.rows(), cols = a.cols();
  auto x = rt.upload(std::vector<float>(cols, 1.0f)).value();
  Buffer y = test::poisoned(rt, rows * 4);
  const uint64_t temp_bytes = plan.temp_bytes(rows, a.nnz());
  REQUIRE(temp_bytes > 16);
  Buffer temp = test::poisoned(rt, temp_bytes);
  Status st;
  SECTION("merge path: temporary storage 16 bytes short") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return plan.record(cmd, a.view(), x, y, 1.0, 0.0, temp.view().sub(0, temp_bytes - 16));
    });
    CHECK(st.error().code == Errc::invalid_argument);
    CHECK_THAT(st.error().message, Catch::Contains("temporary storage"));
  }
  SECTION("column blocks: the second block past the merge path's dispatch limits") {
    const SpmvAnalysis first = plan.analyze(rt, a.view()).value();
    CsrView huge;
    huge.rows = rows;
    huge.cols = cols;
    huge.nnz = (uint64_t(1) << 32) * plan.tile_items();  // 2^32 tiles and more
    huge.value_type = ValueType::f32;
    huge.row_ptr_64 = true;
    huge.row_ptr = test::unbacked((rows + 1) * 8, 0);
    huge.col_idx = test::unbacked(huge.nnz * 4, 1);
    huge.values = test::unbacked(huge.nnz * 4, 2);
    SpmvAnalysis second;
    second.stats.rows = rows;
    second.stats.cols = cols;
    second.stats.nnz = huge.nnz;
    second.kernel = SpmvKernel::merge;
    const std::vector<CsrView> blocks = {a.view(), huge};
    const std::vector<SpmvAnalysis> analyses = {first, second};
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return plan.record(cmd, blocks, x, y, 1.0, 0.0, analyses, test::unbacked(plan.temp_bytes(rows, huge.nnz), 3));
    });
    CHECK(st.error().code == Errc::limit_exceeded);
    CHECK_THAT(st.error().message, Catch::Contains("dispatch limits"));
  }
  CHECK(test::still_poisoned(rt, y, rows * 4));
  CHECK(test::still_poisoned(rt, temp, temp_bytes));
}
