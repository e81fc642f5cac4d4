// CSR construction on the GPU from COO (any order, duplicates, explicit zeros) and the
// transpose, against Eigen's setFromTriplets in the value type itself: structure and values
// exactly (duplicates are summed serially in input order, as Eigen does), identical from run to
// run, with and without subgroup operations.
#include <algorithm>
#include <catch2/catch.hpp>
#include <array>
#include <map>
#include <tuple>
#include <vkprim/sparse/csr_build.hpp>
#include <vkprim/sparse/eigen.hpp>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/spmv.hpp>
#include <vkprim/sparse/testing.hpp>

#include "sparse_gpu_support.hpp"
#include "test_support.hpp"

using namespace vkprim;
using namespace vkprim::sparse;
using test::EigenCsr;

namespace {

template <class T>
using EigenCsrOf = Eigen::SparseMatrix<T, Eigen::RowMajor>;

// Eigen's setFromTriplets with values of type T (duplicates summed in T, in input order).
template <class T>
EigenCsrOf<T> eigen_reference_in(const CooMatrix& m) {
  std::vector<Eigen::Triplet<T>> triplets;
  triplets.reserve(size_t(m.nnz()));
  for (int64_t k = 0; k < m.nnz(); ++k)
    triplets.emplace_back(int(m.row_indices[size_t(k)]), int(m.col_indices[size_t(k)]),
                          T(m.value(k)));
  EigenCsrOf<T> a(Eigen::Index(m.rows), Eigen::Index(m.cols));
  a.setFromTriplets(triplets.begin(), triplets.end());
  a.makeCompressed();
  return a;
}

// Structure and values bit for bit (NaN-free data: == on the values).
template <class T>
void check_same(const EigenCsrOf<T>& want, const CsrMatrix& got, const std::string& what) {
  INFO(what);
  REQUIRE(got.rows == want.rows());
  REQUIRE(got.cols == want.cols());
  REQUIRE(got.nnz() == want.nonZeros());
  REQUIRE(std::equal(got.row_offsets.begin(), got.row_offsets.end(), want.outerIndexPtr()));
  REQUIRE(std::equal(got.col_indices.begin(), got.col_indices.end(), want.innerIndexPtr()));
  for (int64_t k = 0; k < got.nnz(); ++k)
    if (got.real_values[size_t(k)] != double(want.valuePtr()[k]))
      FAIL("entry " << k << ": " << got.real_values[size_t(k)] << " vs " << want.valuePtr()[k]);
}

// Reference for values of type T: Eigen on the triplets rounded to T first (what the GPU sees).
CooMatrix rounded_to(const CooMatrix& m, bool f32) {
  CooMatrix r = m;
  if (r.field != Field::real) {
    r.real_values.resize(size_t(r.nnz()));
    for (int64_t k = 0; k < r.nnz(); ++k) r.real_values[size_t(k)] = m.value(k);
    r.field = Field::real;
    r.integer_values.clear();
  }
  if (f32)
    for (auto& v : r.real_values) v = double(float(v));
  return r;
}

// Builders are created once per (runtime, value type, options, knobs) (pipeline creation is the
// slow part on lavapipe).
using Knobs = sparse::testing::CsrBuildKnobs;
using BuilderKey = std::tuple<int, bool, uint32_t, uint32_t, int>;
CsrBuilder& find_or_create(std::map<BuilderKey, CsrBuilder>& builders, Runtime& rt, ValueType t,
                           const CsrBuildOptions& b, const Knobs& k) {
  const auto key = std::make_tuple(int(t), b.use_subgroup_ops, k.stall_period, k.spin_limit,
                                   int(b.sort_algorithm));
  auto it = builders.find(key);
  if (it == builders.end())
    it = builders.emplace(key, sparse::testing::create_csr_builder(rt.context(), t, b, k).value()).first;
  return it->second;
}
// `chunked`: on test::gpu_chunked(), whose dispatches cover at most 1000 items, so that the
// build runs its passes in chunks as it does from 2^31 triplets on.
CsrBuilder& builder_for(ValueType t, const CsrBuildOptions& b = {}, bool chunked = false,
                        const Knobs& k = {}) {
  // Each map after its runtime: statics are destroyed in reverse order, and the builders need
  // their device.
  if (chunked) {
    Runtime& rt = test::gpu_chunked();
    static std::map<BuilderKey, CsrBuilder> builders;
    return find_or_create(builders, rt, t, b, k);
  }
  Runtime& rt = test::gpu();
  static std::map<BuilderKey, CsrBuilder> builders;
  return find_or_create(builders, rt, t, b, k);
}

// The same CSR, bit for bit.
void require_identical(const CsrMatrix& a, const CsrMatrix& b) {
  REQUIRE(a.row_offsets == b.row_offsets);
  REQUIRE(a.col_indices == b.col_indices);
  REQUIRE(a.real_values == b.real_values);
}

// Builds m with `b` (twice: the two results must be bit-identical), compares it and its
// transpose with Eigen, and returns the CSR for comparisons across options.
template <class T>
CsrMatrix check_build(const CooMatrix& m, const std::string& name, bool force64 = false,
                      const CsrBuildOptions& b = {}, bool chunked = false, const Knobs& k = {}) {
  Runtime& rt = chunked ? test::gpu_chunked() : test::gpu();
  DeviceCsrOptions o;
  o.values = value_type_of<T>();
  o.force_row_ptr_64 = force64;
  const CooMatrix mr = rounded_to(m, std::is_same_v<T, float>);
  const EigenCsrOf<T> want = eigen_reference_in<T>(mr);
  CsrBuilder& builder = builder_for(o.values, b, chunked, k);
  const DeviceCsr a = build_csr(rt, builder, m, o).value();
  REQUIRE(a.row_ptr_64() == force64);
  const CsrMatrix got = a.download(rt).value();
  check_same<T>(want, got, name + " CSR");
  const CsrMatrix again = build_csr(rt, builder, m, o).value().download(rt).value();
  require_identical(again, got);
  // The transpose (CSC) against Eigen's transpose (no duplicates left: values move unchanged).
  const DeviceCsr at = transpose(rt, builder, a).value();
  const EigenCsrOf<T> want_t = EigenCsrOf<T>(want.transpose());
  check_same<T>(want_t, at.download(rt).value(), name + " transpose");
  return got;
}

// Long and short runs of duplicates: row lengths on either side of 256 and 1024, empty rows
// between and after them, a 700-triplet run of one position, shuffled triplets.
CooMatrix duplicate_runs_matrix() {
  const int64_t lens[] = {0, 1, 255, 256, 257, 0, 0, 3, 1024, 1023, 1025, 2, 512, 0, 768, 256};
  const int64_t rows = 40, cols = 3000;
  std::vector<std::array<int64_t, 2>> e;
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t j = 0; j < lens[r]; ++j)
      e.push_back({r, int64_t(test::hash32(uint64_t(r * 5000 + j), 60) % (r % 3 == 0 ? 50 : cols))});
  // A 700-triplet run of one position, and rows 16..39 empty except one.
  for (int64_t j = 0; j < 700; ++j) e.push_back({5, 17});
  e.push_back({30, 2999});
  for (size_t k = e.size() - 1; k > 0; --k) std::swap(e[k], e[test::hash32(k, 61) % (k + 1)]);
  CooMatrix m = test::empty_matrix(rows, cols);
  for (size_t k = 0; k < e.size(); ++k) test::add_entry(m, e[k][0], e[k][1], test::value_at(k, 62));
  return m;
}

// 2^20 x 2^20 needs 40 key bits (u64 keys, 5 digit passes), with scattered duplicates.
CooMatrix wide_keys_matrix() {
  CooMatrix m = test::empty_matrix(int64_t(1) << 20, int64_t(1) << 20);
  for (uint64_t k = 0; k < 50000; ++k)
    test::add_entry(m, test::hash32(k % 20000, 40) % m.rows, test::hash32(k % 20000, 41) % m.cols,
                    test::value_at(k, 42));
  return m;
}

// The generated shapes, the long duplicate runs and the wide keys.
std::vector<test::Shape> build_shapes() {
  auto shapes = test::generated_shapes();
  shapes.push_back({"duplicate runs", duplicate_runs_matrix()});
  shapes.push_back({"wide keys", wide_keys_matrix()});
  return shapes;
}

}  // namespace

TEST_CASE("GPU CSR build equals Eigen's setFromTriplets on every generated shape", "[csr_build]") {
  const bool f64 = test::gpu().caps().shader_float64;
  for (const auto& s : test::generated_shapes()) {
    check_build<float>(s.m, s.name);
    if (f64) check_build<double>(s.m, s.name);
  }
}

TEST_CASE("GPU CSR build without subgroup operations, and long duplicate runs",
          "[csr_build][runs]") {
  const bool f64 = test::gpu().caps().shader_float64;
  const auto shapes = build_shapes();
  CsrBuildOptions no_subgroups;
  no_subgroups.use_subgroup_ops = false;
  for (const auto& s : shapes) {
    const CsrMatrix a = check_build<float>(s.m, s.name);
    const CsrMatrix b = check_build<float>(s.m, s.name + " no subgroups", false, no_subgroups);
    require_identical(a, b);
    if (f64) check_build<double>(s.m, s.name + " f64 no subgroups", true, no_subgroups);
  }
}

TEST_CASE("GPU CSR build: compaction tiles that never publish (the look-back's fallback)",
          "[csr_build][fallback]") {
  // Every third tile of the compaction and of the (onesweep) sort never publishes its count,
  // and its successors give up after one re-read: they must count its run ends (digits)
  // themselves.
  CsrBuildOptions onesweep;
  onesweep.sort_algorithm = SortAlgorithm::onesweep;
  Knobs stalled;
  stalled.stall_period = 3;
  stalled.spin_limit = 1;
  const auto shapes = build_shapes();
  for (const auto& s : shapes) {
    const CsrMatrix a = check_build<float>(s.m, s.name);
    const CsrMatrix b = check_build<float>(s.m, s.name + " stalled", false, onesweep, false, stalled);
    require_identical(a, b);
  }
}

TEST_CASE("GPU CSR build with either sort algorithm: the keys pass counts for both",
          "[csr_build][sort]") {
  // The keys pass does the sort's upfront count: onesweep's histogram of every digit, or
  // reduce-then-scan's varying bits alone; both sorts must give the same CSR, with u32 and with
  // u64 keys.
  const auto shapes = build_shapes();
  for (const auto& s : shapes) {
    CsrBuildOptions one, rts;
    one.sort_algorithm = SortAlgorithm::onesweep;
    rts.sort_algorithm = SortAlgorithm::reduce_then_scan;
    const CsrMatrix a = check_build<float>(s.m, s.name + " onesweep", false, one);
    const CsrMatrix b = check_build<float>(s.m, s.name + " reduce-then-scan", false, rts);
    require_identical(a, b);
  }
}

TEST_CASE("GPU CSR build with a forced 64-bit row pointer and wide (u64) keys",
          "[csr_build][rowptr64]") {
  for (const auto& s : test::generated_shapes()) check_build<float>(s.m, s.name + " r64", true);
  check_build<float>(wide_keys_matrix(), "wide keys");
}

TEST_CASE("GPU CSR build in several dispatches (how 2^31 triplets and more build)",
          "[csr_build][chunked]") {
  // On a runtime whose dispatches cover at most 1000 items: the keys pass, the compaction (each
  // chunk's outputs after the run ends of those before; runs of duplicates and of empty rows
  // across the chunks' boundaries) and the transpose's row expansion run in chunks. Same result
  // as Eigen, with 32- and 64-bit row pointers, u32 and u64 keys.
  const bool f64 = test::gpu_chunked().caps().shader_float64;
  for (const auto& s : test::generated_shapes()) {
    check_build<float>(s.m, s.name + " chunked", false, {}, true);
    check_build<float>(s.m, s.name + " chunked r64", true, {}, true);
    if (f64) check_build<double>(s.m, s.name + " chunked f64", false, {}, true);
  }
  CsrBuildOptions one;  // the keys pass's chunks add up onesweep's histogram too
  one.sort_algorithm = SortAlgorithm::onesweep;
  for (const auto& s : build_shapes()) {
    check_build<float>(s.m, s.name + " chunked", false, {}, true);
    check_build<float>(s.m, s.name + " chunked onesweep", false, one, true);
  }
  check_build<float>(wide_keys_matrix(), "wide keys chunked", false, {}, true);
  // Rows with entries (a third with a duplicate) between runs of 6 empty rows and, every tenth,
  // of 100 (past what the compaction writes itself), then 80 empty rows at the end.
  CooMatrix gaps = test::empty_matrix(3000 * 16 + 80, 5);
  int64_t r = 0;
  for (int64_t i = 0; i < 3000; ++i) {
    test::add_entry(gaps, r, i % 5, test::value_at(uint64_t(i), 72));
    if (i % 3 == 0) test::add_entry(gaps, r, i % 5, test::value_at(uint64_t(i) + 1, 72));
    r += i % 10 == 0 ? 101 : 7;
  }
  gaps.rows = r + 80;
  check_build<float>(gaps, "empty rows across chunks", false, {}, true);
  check_build<float>(gaps, "empty rows across chunks r64", true, {}, true);
}

// Past 2^31 triplets (2^31 + 1003, u32 keys, f32; about 90 GiB of GPU memory): the keys pass
// and the compaction run as two dispatches each. Triplet i < 2^31 is position p = i * 3^19 mod
// 2^31 (every position of the 2^16 x 2^15 matrix once, shuffled), the last 1003 triplets the
// positions 0..1002 again: the CSR is full, row r's pointer r * 2^15, entry k's column
// k % 2^15, its value 2 for k < 1003 and 1 after.
TEST_CASE("GPU CSR build of more than 2^31 triplets", "[csr_build][large]") {
  Runtime& rt = test::gpu();
  const uint64_t cells = uint64_t(1) << 31, n = cells + 1003;
  if (!test::can_hold(rt, n * 4 + 64, 11)) return;
  std::vector<uint32_t> ri(n), ci(n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t p = i < cells ? (i * 1162261467ull) & (cells - 1) : i - cells;
    ri[i] = uint32_t(p >> 15);
    ci[i] = uint32_t(p & 0x7FFF);
  }
  Buffer rb = rt.upload(ri).value(), cb = rt.upload(ci).value();
  ri = {};
  ci = {};
  Buffer vb = rt.upload(std::vector<float>(n, 1.0f)).value();
  CsrBuilder& builder = builder_for(ValueType::f32);
  DeviceCsr a = DeviceCsr::allocate(rt.context(), uint64_t(1) << 16, uint64_t(1) << 15, n).value();
  Buffer counts = test::poisoned(rt, 16);
  builder.reserve(n, a.rows(), a.cols()).value();
  CsrView out = a.view();
  out.col_idx = a.col_idx_buffer().view();
  out.values = a.values_buffer().view();
  rt.submit([&](VkCommandBuffer cmd) { return builder.record(cmd, rb, cb, vb, n, out, counts); }).value();
  const auto got_counts = rt.download<uint32_t>(counts.view(), 3).value();
  CHECK(got_counts[0] == uint32_t(cells));
  CHECK(got_counts[1] == 0u);
  CHECK(got_counts[2] == 0u);
  a.set_nnz(cells).value();
  const CsrMatrix got = a.download(rt).value();
  uint64_t wrong = 0;
  for (int64_t r = 0; r <= got.rows; ++r) wrong += got.row_offsets[size_t(r)] != r << 15;
  for (uint64_t k = 0; k < cells; ++k)
    wrong += got.col_indices[k] != int64_t(k & 0x7FFF) || got.real_values[k] != (k < 1003 ? 2.0 : 1.0);
  CHECK(wrong == 0);
}

TEST_CASE("GPU-built CSR feeds SpMV", "[csr_build][spmv]") {
  Runtime& rt = test::gpu();
  const auto shapes = test::generated_shapes();
  const auto& m = shapes[9].m;  // power-law rows
  const DeviceCsr a = build_csr(rt, m).value();
  const EigenCsr ref = test::eigen_reference(rounded_to(m, true));
  std::vector<float> x(size_t(m.cols)), y0(size_t(m.rows), 0.0f);
  for (size_t j = 0; j < x.size(); ++j) x[j] = float(test::value_at(j, 50));
  Buffer xb = rt.upload(x).value(), yb = rt.alloc(y0.size() * 4).value();
  spmv(rt, a.view(), xb.view(), yb.view()).value();
  test::check_y(rt.download<float>(yb.view(), y0.size()).value(),
                test::reference_spmv(ref, x, y0, 1.0, 0.0), "spmv of GPU-built CSR");
}

TEST_CASE("GPU CSR build on every shared real matrix", "[csr_build][shared]") {
  VKPRIM_REQUIRE_SHARED("matrices/real");
  for (const auto& e : test::fs::directory_iterator(shared_data / "matrices/real")) {
    if (e.path().extension() != ".mtx") continue;
    auto m = read_matrix_file(e.path());
    REQUIRE(m.ok());
    if (m->field == Field::complex) {  // the GPU build moves real values only
      CHECK(build_csr(test::gpu(), *m).error().code == Errc::unsupported);
      continue;
    }
    REQUIRE(expand_symmetry(*m).ok());
    check_build<float>(*m, e.path().filename().string());
  }
}

TEST_CASE("GPU CSR build refuses triplets outside the shape", "[csr_build][errors]") {
  CooMatrix m = test::empty_matrix(4, 4);
  test::add_entry(m, 1, 1, 1.0);
  Runtime& rt = test::gpu();
  // validate() catches it on the host first; the device-side status word is checked through
  // the recording form with a lying shape.
  m.rows = 1;
  CHECK(build_csr(rt, m).error().code == Errc::invalid_argument);
  auto builder = CsrBuilder::create(rt.context(), ValueType::f32).value();
  DeviceCsr out = DeviceCsr::allocate(rt.context(), 1, 4, 1).value();
  Buffer r = rt.upload(std::vector<uint32_t>{1}).value(),
         c = rt.upload(std::vector<uint32_t>{1}).value();
  Buffer v = rt.upload(std::vector<float>{2.0f}).value(), counts = rt.alloc(12).value();
  builder.reserve(1, 1, 4).value();
  rt.submit([&](VkCommandBuffer cmd) {
      return builder.record(cmd, r, c, v, 1, out.view(), counts);
    }).value();
  const auto got = rt.download<uint32_t>(counts.view(), 3).value();
  CHECK(got[0] == 1u);
  CHECK(got[1] == 1u);
  CHECK(got[2] == 0u);
  // counts of 2 words (the layout before entry counts could pass 2^32): refused.
  auto short_counts = rt.submit([&](VkCommandBuffer cmd) {
    return builder.record(cmd, r, c, v, 1, out.view(), counts.view().sub(0, 8));
  });
  REQUIRE(!short_counts);
  CHECK_THAT(short_counts.error().message, Catch::Contains("counts must hold 3 aligned u32"));
  // 2^32 triplets with a 32-bit row pointer: refused before anything is recorded.
  auto narrow = rt.submit([&](VkCommandBuffer cmd) {
    return builder.record(cmd, r, c, v, uint64_t(1) << 32, out.view(), counts);
  });
  REQUIRE(!narrow);
  CHECK_THAT(narrow.error().message, Catch::Contains("need a 64-bit row pointer"));
  // 2^32 - 1 rows would need 2^32 row pointers, past the passes' 32-bit indices: refused
  // before anything is recorded (the views are never read).
  CsrView huge = out.view();
  huge.rows = (uint64_t(1) << 32) - 1;
  auto refused = rt.submit([&](VkCommandBuffer cmd) {
    return builder.record(cmd, r, c, v, 1, huge, counts);
  });
  REQUIRE(!refused);
  CHECK(refused.error().code == Errc::limit_exceeded);
}

TEST_CASE("GPU CSR build: runs of empty rows on either side of what the compaction writes itself",
          "[csr_build][rowptr]") {
  // The compaction writes a run of at most 64 row pointers that start at one entry itself and
  // lists longer runs for the row-pointer pass (sparse/csr_build/csr_build.cpp, kRowGapSerial): empty
  // runs of 63, 64, 65 and 1000 rows between entries, 64 and 65 before the first entry, 65 after
  // the last, and more than 1024 long runs (the pass's workgroups take several each).
  for (int64_t lead : {63, 64, 65}) {
    CooMatrix m = test::empty_matrix(lead + 4000 + 65, 70);
    int64_t r = lead;
    uint64_t k = 0;
    for (int64_t gap : {0, 63, 64, 65, 1000, 1, 0}) {
      r += gap;
      test::add_entry(m, r, int64_t(k % 70), test::value_at(k, 70));
      test::add_entry(m, r, int64_t(k % 70), test::value_at(k + 1, 70));  // a duplicate
      k += 2;
      ++r;
    }
    test::add_entry(m, m.rows - 66, 3, 1.5);  // the last entry: 65 empty rows after it
    check_build<float>(m, "lead " + std::to_string(lead));
    check_build<float>(m, "lead " + std::to_string(lead) + " r64", true);
  }
  CooMatrix many = test::empty_matrix(2000 * 70 + 1, 5);
  for (int64_t i = 0; i < 2000; ++i)
    test::add_entry(many, i * 70, i % 5, test::value_at(uint64_t(i), 71));
  check_build<float>(many, "2000 runs of 69 empty rows");
  check_build<float>(many, "2000 runs of 69 empty rows r64", true);
}

namespace {

// Block b of `a` on the CPU: the entries whose column lies in [cols b / B, cols (b + 1) / B), in
// a's order.
CsrMatrix cpu_block(const CsrMatrix& a, uint32_t b, uint32_t blocks) {
  const int64_t lo = int64_t(uint64_t(a.cols) * b / blocks),
                hi = int64_t(uint64_t(a.cols) * (b + 1) / blocks);
  CsrMatrix out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_offsets.push_back(0);
  for (int64_t r = 0; r < a.rows; ++r) {
    for (int64_t k = a.row_offsets[size_t(r)]; k < a.row_offsets[size_t(r) + 1]; ++k)
      if (a.col_indices[size_t(k)] >= lo && a.col_indices[size_t(k)] < hi) {
        out.col_indices.push_back(a.col_indices[size_t(k)]);
        out.real_values.push_back(a.real_values[size_t(k)]);
      }
    out.row_offsets.push_back(int64_t(out.col_indices.size()));
  }
  return out;
}

// split_columns of `host` (uploaded as T values, optionally with a 64-bit row pointer) equals the
// CPU's blocks exactly: structure, order and value bits.
template <class T>
void check_split(const CsrMatrix& host, uint32_t blocks, bool r64, const std::string& what) {
  INFO(what << ", " << blocks << " blocks, " << (sizeof(T) == 8 ? "f64" : "f32")
            << (r64 ? ", 64-bit row pointer" : ""));
  Runtime& rt = test::gpu();
  DeviceCsrOptions o;
  o.values = sizeof(T) == 8 ? ValueType::f64 : ValueType::f32;
  o.force_row_ptr_64 = r64;
  const DeviceCsr a = DeviceCsr::upload(rt, host, o).value();
  const CsrMatrix uploaded = a.download(rt).value();  // values as the GPU holds them
  const auto parts = split_columns(rt, a.view(), blocks).value();
  REQUIRE(parts.size() == blocks);
  uint64_t total = 0;
  for (uint32_t b = 0; b < blocks; ++b) {
    INFO("block " << b);
    const DeviceCsr& p = parts[b];
    CHECK(p.rows() == a.rows());
    CHECK(p.cols() == a.cols());
    CHECK(p.value_type() == a.value_type());
    CHECK(p.row_ptr_64() == r64);
    const CsrMatrix got = p.download(rt).value();
    const CsrMatrix want = cpu_block(uploaded, b, blocks);
    REQUIRE(got.row_offsets == want.row_offsets);
    REQUIRE(got.col_indices == want.col_indices);
    REQUIRE(got.real_values == want.real_values);
    total += p.nnz();
  }
  CHECK(total == a.nnz());
}

}  // namespace

TEST_CASE("split_columns: each block holds A's entries of its columns, in A's order",
          "[csr_build][split_columns]") {
  // Every generated shape in 1, 2, 3 and 7 blocks (at most one per column), f32 and f64, with a
  // 64-bit row pointer too; rows whose columns are not in order stay as they were.
  const bool f64 = test::gpu().caps().shader_float64;
  for (const auto& s : test::generated_shapes()) {
    const CsrMatrix host = test::to_csr_matrix(test::eigen_reference(s.m));
    for (const uint32_t want : {1u, 2u, 3u, 7u}) {
      const uint32_t blocks = uint32_t(std::min<int64_t>(want, std::max<int64_t>(s.m.cols, 1)));
      check_split<float>(host, blocks, false, s.name);
      if (want == 3) check_split<float>(host, blocks, true, s.name);
      if (f64 && want == 2) check_split<double>(host, blocks, false, s.name);
      if (f64 && want == 7) check_split<double>(host, blocks, true, s.name);
    }
  }
  CsrMatrix reversed = test::to_csr_matrix(test::eigen_reference(test::generated_shapes()[9].m));
  for (int64_t r = 0; r < reversed.rows; ++r) {
    const auto b = size_t(reversed.row_offsets[size_t(r)]);
    const auto e = size_t(reversed.row_offsets[size_t(r) + 1]);
    std::reverse(reversed.col_indices.begin() + b, reversed.col_indices.begin() + e);
    std::reverse(reversed.real_values.begin() + b, reversed.real_values.begin() + e);
  }
  check_split<float>(reversed, 3, false, "rows in descending column order");
}

TEST_CASE("split_columns refuses bad block counts and views", "[csr_build][split_columns][errors]") {
  Runtime& rt = test::gpu();
  CooMatrix m = test::empty_matrix(3, 5);
  test::add_entry(m, 0, 4, 1.0);
  test::add_entry(m, 2, 1, 2.0);
  const DeviceCsr a = DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(m))).value();
  for (const uint32_t blocks : {0u, 6u, kMaxColumnBlocks + 1}) {
    auto r = split_columns(rt, a.view(), blocks);
    REQUIRE(!r);
    CHECK(r.error().code == Errc::invalid_argument);
    CHECK_THAT(r.error().message, Catch::Contains("blocks must lie in [1, min(cols, 64)]"));
  }
  CsrView bad = a.view();
  bad.row_ptr.size = 4;  // fewer than rows + 1 entries
  auto r = split_columns(rt, bad, 2);
  REQUIRE(!r);
  CHECK(r.error().code == Errc::invalid_argument);
  CHECK_THAT(r.error().message, Catch::Contains("row_ptr must hold rows + 1"));
  bad = a.view();
  bad.value_type = ValueType::u32;
  CHECK(split_columns(rt, bad, 2).error().code == Errc::invalid_argument);
  // 2^32 entries behind a 32-bit row pointer (a view that claims them; refused before anything
  // runs). With a 64-bit row pointer the positions are u64 (the r64 splits above).
  bad = a.view();
  bad.nnz = uint64_t(1) << 32;
  bad.col_idx.size = bad.nnz * 4;
  bad.values.size = bad.nnz * 4;
  auto big = split_columns(rt, bad, 2);
  REQUIRE(!big);
  CHECK(big.error().code == Errc::invalid_argument);
  CHECK_THAT(big.error().message, Catch::Contains("a 32-bit row pointer cannot index 4294967296 entries"));
  // A matrix without columns: one block only.
  const DeviceCsr empty = DeviceCsr::upload(rt, test::to_csr_matrix(test::eigen_reference(
                                                    test::empty_matrix(4, 0))))
                              .value();
  CHECK(split_columns(rt, empty.view(), 1).value().size() == 1);
  CHECK(!split_columns(rt, empty.view(), 2));
}

// A refused call records nothing. Each call below is alone in its command buffer, which is then
// submitted: the output arrays, counts and the temporary storage keep their poison. Refused by
// the last of the build's own checks (short temporary storage), by the checks of the sort it
// nests (the triplets' values overlapping the sorted values in the temporary storage), which
// follow the keys pass, and for the transpose by the build's checks (counts of 2 words), which
// follow the expansion of the row pointer.
TEST_CASE("GPU CSR build and transpose refused by their last or nested checks record nothing",
          "[csr_build][errors][refused]") {
  Runtime& rt = test::gpu();
  auto builder = CsrBuilder::create(rt.context(), ValueType::f32).value();
  const uint64_t rows = 100, cols = 90, n = 4000;
  std::vector<uint32_t> r(n), c(n);
  std::vector<float> v(n);
  for (uint64_t k = 0; k < n; ++k) {
    r[k] = test::hash32(k, 1) % rows;
    c[k] = test::hash32(k, 2) % cols;
    v[k] = float(test::value_at(k, 3));
  }
  Buffer br = rt.upload(r).value(), bc = rt.upload(c).value(), bv = rt.upload(v).value();
  // The output of the build, and of the transpose (cols x rows, as many entries).
  const uint64_t rp_bytes = (std::max(rows, cols) + 1) * 4;
  Buffer row_ptr = test::poisoned(rt, rp_bytes), col_idx = test::poisoned(rt, n * 4),
         values = test::poisoned(rt, n * 4), counts = test::poisoned(rt, 16);
  CsrView out;
  out.rows = rows;
  out.cols = cols;
  out.value_type = ValueType::f32;
  out.row_ptr = row_ptr;
  out.col_idx = col_idx;
  out.values = values;
  DeviceCsr a = build_csr(rt, [&] {
    CooMatrix m = test::empty_matrix(int64_t(rows), int64_t(cols));
    for (uint64_t k = 0; k < n; ++k) test::add_entry(m, r[k], c[k], v[k]);
    return m;
  }()).value();
  const uint64_t temp_bytes = std::max(builder.temp_bytes(n, rows, cols), builder.transpose_temp_bytes(a.view()));
  Buffer temp = test::poisoned(rt, temp_bytes);
  Status st;
  SECTION("build: temporary storage 16 bytes short") {
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return builder.record(cmd, br, bc, bv, n, out, counts, temp.view().sub(0, builder.temp_bytes(n, rows, cols) - 16));
    });
    CHECK_THAT(st.error().message, Catch::Contains("temporary storage"));
  }
  SECTION("build: the values overlapping the sorted values in the temporary storage") {
    // The temporary storage holds the keys made, the sorted keys (4n bytes each: 32-bit keys
    // for 7 + 7 bits) and then the sorted values: values from 6n bytes on overlap them.
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return builder.record(cmd, br, bc, temp.view().sub(6 * n, 4 * n), n, out, counts, temp);
    });
    CHECK_THAT(st.error().message, Catch::Contains("CsrBuilder: RadixSort: outputs must not overlap the inputs"));
  }
  SECTION("transpose: counts of 2 words") {
    CsrView t = out;
    t.rows = cols;
    t.cols = rows;
    st = test::record_refused(rt, [&](VkCommandBuffer cmd) {
      return builder.record_transpose(cmd, a.view(), t, counts.view().sub(0, 8), temp);
    });
    CHECK_THAT(st.error().message, Catch::Contains("counts must hold 3 aligned u32"));
  }
  CHECK(st.error().code == Errc::invalid_argument);
  CHECK(test::still_poisoned(rt, row_ptr, rp_bytes));
  CHECK(test::still_poisoned(rt, col_idx, n * 4));
  CHECK(test::still_poisoned(rt, values, n * 4));
  CHECK(test::still_poisoned(rt, counts, 16));
  CHECK(test::still_poisoned(rt, temp, temp_bytes));
}
