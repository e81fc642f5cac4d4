// Complex SpMV (complex64 and complex128) against Eigen's complex SparseMatrix product:
// generated shapes (empty, 1x1, empty rows, one long row, a dense row among short ones, arrow,
// duplicates, rectangular), the row kernel forced at several lane counts in its subgroup and
// shared-memory builds, the merge path and the nonzero tiles forced with small tiles (rows
// crossing many tiles) in both builds, `automatic` with and without an analysis, alpha/beta
// conventions, run-to-run determinism, young1c.mtx, the upload/download and Eigen round trips,
// and the refusals (stream and split kernels, the GPU CSR build, a real plan for a complex
// matrix).
// Outputs are poisoned (NaN) first.
#include <catch2/catch.hpp>
#include <complex>
#include <cstring>
#include <map>
#include <tuple>
#include <vkprim/sparse/csr_build.hpp>
#include <vkprim/sparse/eigen.hpp>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/spmv.hpp>

#include "sparse_gpu_support.hpp"
#include "test_support.hpp"

using namespace vkprim;
using namespace vkprim::sparse;

namespace {

using C = std::complex<double>;

// x rounded to T. Through a volatile T: GCC 12 at -O2 and above folds the round trip
// double -> float -> double of a std::complex part away.
template <class T>
double round_to(double x) {
  volatile T t = T(x);
  return double(t);
}

// A deterministic complex value from entry k of a seed.
C cvalue(uint64_t k, uint32_t seed) {
  return {test::value_at(k, seed), test::value_at(k, seed + 101)};
}

void add(CooMatrix& m, int64_t r, int64_t c, C v) {
  m.row_indices.push_back(r);
  m.col_indices.push_back(c);
  m.complex_values.push_back(v);
}

CooMatrix cmatrix(int64_t rows, int64_t cols) {
  CooMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.field = Field::complex;
  return m;
}

struct Shape {
  std::string name;
  CooMatrix m;
};

// Awkward shapes, entries in hashed order (duplicates in one).
std::vector<Shape> complex_shapes() {
  std::vector<Shape> s;
  s.push_back({"0x0", cmatrix(0, 0)});
  s.push_back({"5x0", cmatrix(5, 0)});
  s.push_back({"all rows empty 300x7", cmatrix(300, 7)});
  {
    auto m = cmatrix(1, 1);
    add(m, 0, 0, {1.5, -0.25});
    s.push_back({"1x1", m});
  }
  {  // 97% empty rows: the automatic choice skips them (window build)
    auto m = cmatrix(6000, 300);
    for (int64_t r = 0; r < m.rows; ++r)
      if (test::hash32(uint64_t(r), 1) % 100 < 3)
        for (int k = 0; k < 3; ++k)
          add(m, r, test::hash32(uint64_t(r) * 3 + k, 2) % 300, cvalue(r * 3 + k, 3));
    s.push_back({"many empty rows", m});
  }
  {  // one long row among short ones
    auto m = cmatrix(200, 5000);
    for (int64_t c = m.cols - 1; c >= 0; --c) add(m, 77, c, cvalue(c, 4));
    for (int64_t r = 0; r < m.rows; ++r) add(m, r, (r * 7919) % m.cols, cvalue(r, 5));
    s.push_back({"one long row", m});
  }
  {  // a single row of 9000 entries
    auto m = cmatrix(1, 9000);
    for (int64_t c = 0; c < m.cols; ++c) add(m, 0, (c * 4099) % m.cols, cvalue(c, 6));
    s.push_back({"1 x 9000", m});
  }
  {  // arrow
    const int64_t n = 1500;
    auto m = cmatrix(n, n);
    for (int64_t i = 0; i < n; ++i) {
      add(m, 0, i, cvalue(i, 7));
      if (i) add(m, i, 0, cvalue(i, 8));
      if (i) add(m, i, i, {4.0, -1.0});
    }
    s.push_back({"arrow", m});
  }
  {  // rectangular, a few entries per row, duplicates (summed by the host CSR)
    auto m = cmatrix(2000, 700);
    for (int64_t k = 0; k < 9000; ++k)
      add(m, test::hash32(uint64_t(k), 9) % 2000, test::hash32(uint64_t(k), 10) % 700,
          cvalue(k, 11));
    for (int64_t k = 0; k < 500; ++k)
      add(m, m.row_indices[size_t(k)], m.col_indices[size_t(k)], cvalue(k, 12));
    s.push_back({"2000x700 with duplicates", m});
  }
  return s;
}

// Plans are built once per (part type, options): pipeline creation under the validation layer
// is the slow part on lavapipe.
Spmv& plan_for(ValueType t, const SpmvOptions& o) {
  Runtime& rt = test::gpu();
  static std::map<std::tuple<int, bool, int, uint32_t, uint32_t>, Spmv> plans;
  const auto key =
      std::make_tuple(int(t), o.use_subgroup_ops, int(o.kernel), o.row_lanes, o.workgroup_size);
  auto it = plans.find(key);
  if (it == plans.end()) {
    SpmvOptions c = o;
    c.complex = true;
    it = plans.emplace(key, Spmv::create(rt.context(), t, c).value()).first;
  }
  return it->second;
}

SpmvOptions options(SpmvKernel k, bool subgroup = true, uint32_t lanes = 0) {
  SpmvOptions o;
  o.kernel = k;
  o.use_subgroup_ops = subgroup;
  o.row_lanes = lanes;
  return o;
}

// Tiles of 32 x 8 items (merge items, or nonzeros with SpmvKernel::nnz): rows cross many tile
// boundaries on small matrices.
SpmvOptions small_tiles(SpmvKernel k, bool subgroup = true) {
  SpmvOptions o = options(k, subgroup);
  o.workgroup_size = 32;
  return o;
}

// The parts of n complex values of T (x or y).
template <class T>
std::vector<T> parts(int64_t n, uint32_t seed) {
  std::vector<T> v(2 * size_t(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = T(test::value_at(i, seed));
  return v;
}

struct Run {
  bool analyzed = true;  // record with Spmv::analyze's result (else without one)
  double alpha = 1.0, beta = 0.0;
};

// y = alpha A x + beta y on the GPU with plan options `o`; returns y's parts and checks them
// against Eigen's complex product of the values the GPU saw (parts rounded to T).
template <class T>
std::vector<T> check_complex(const CooMatrix& m, const std::string& name, const SpmvOptions& o,
                             const Run& run) {
  INFO(name << (sizeof(T) == 4 ? " complex64" : " complex128") << " kernel " << to_string(o.kernel)
            << " lanes " << o.row_lanes << (o.use_subgroup_ops ? "" : " shared memory")
            << (run.analyzed ? "" : " no analysis") << " alpha " << run.alpha << " beta "
            << run.beta);
  Runtime& rt = test::gpu();
  const auto csr = to_csr(m, true).value();
  DeviceCsrOptions dopt;
  dopt.values = value_type_of<T>();
  auto a = DeviceCsr::upload(rt, csr, dopt).value();
  REQUIRE(a.is_complex());
  const auto x = parts<T>(m.cols, 21), y0 = parts<T>(m.rows, 22);
  auto xb = rt.upload(x.empty() ? std::vector<T>(2) : x).value();
  const uint64_t ybytes = std::max<uint64_t>(y0.size() * sizeof(T), 16);
  Buffer yb = test::poisoned(rt, ybytes);
  if (run.beta != 0.0 && !y0.empty())
    REQUIRE(rt.upload(yb.view(), y0.data(), y0.size() * sizeof(T)).ok());
  Spmv& plan = plan_for(value_type_of<T>(), o);
  REQUIRE(plan.reserve(a.rows(), a.nnz()).ok());
  std::optional<SpmvAnalysis> an;
  if (run.analyzed) {
    an = plan.analyze(rt, a.view()).value();
    CHECK(an->kernel != SpmvKernel::split);
    CHECK(an->kernel != SpmvKernel::stream);
    CHECK(an->column_blocks == 1);
  }
  REQUIRE(rt.submit([&](VkCommandBuffer cmd) {
              return an ? plan.record(cmd, a.view(), xb.view(), yb.view(), run.alpha, run.beta, *an)
                        : plan.record(cmd, a.view(), xb.view(), yb.view(), run.alpha, run.beta);
            }).ok());
  std::vector<T> y(y0.size());
  if (!y.empty()) REQUIRE(rt.download(yb.view(), y.data(), y.size() * sizeof(T)).ok());

  // Reference: Eigen's complex product.
  auto round = [](C v) { return C(round_to<T>(v.real()), round_to<T>(v.imag())); };
  std::vector<Eigen::Triplet<C>> trip;
  for (int64_t k = 0; k < m.nnz(); ++k)
    trip.emplace_back(int(m.row_indices[size_t(k)]), int(m.col_indices[size_t(k)]),
                      m.complex_values[size_t(k)]);
  Eigen::SparseMatrix<C, Eigen::RowMajor> e(Eigen::Index(m.rows), Eigen::Index(m.cols));
  e.setFromTriplets(trip.begin(), trip.end());
  for (Eigen::Index k = 0; k < e.nonZeros(); ++k) e.valuePtr()[k] = round(e.valuePtr()[k]);
  Eigen::VectorX<C> xe(Eigen::Index(m.cols));
  for (Eigen::Index j = 0; j < xe.size(); ++j)
    xe[j] = C(double(x[2 * size_t(j)]), double(x[2 * size_t(j) + 1]));
  const Eigen::VectorX<C> ax = e * xe;
  const double eps = double(std::numeric_limits<T>::epsilon());
  size_t bad = 0;
  for (Eigen::Index r = 0; r < e.rows(); ++r) {
    double bound = 0;
    int64_t len = 0;
    for (typename decltype(e)::InnerIterator it(e, r); it; ++it, ++len)
      bound += std::abs(it.value()) * std::abs(xe[it.col()]);
    const C yold{double(y0[2 * size_t(r)]), double(y0[2 * size_t(r) + 1])};
    const C ref = run.alpha * ax[r] + (run.beta != 0.0 ? run.beta * yold : C(0));
    const C got{double(y[2 * size_t(r)]), double(y[2 * size_t(r) + 1])};
    const double tol = double(2 * len + 8) * eps * std::abs(run.alpha) * bound +
                       4 * eps * std::abs(run.beta * yold);
    if (!(std::abs(got - ref) <= tol)) {
      if (bad++ < 5)
        UNSCOPED_INFO("row " << r << ": got " << got << ", expected " << ref << " within " << tol);
    }
  }
  CHECK(bad == 0);
  CHECK(test::validation_messages().empty());
  return y;
}

// Each check for complex64 and, where the device has shaderFloat64, complex128.
template <class Check>
void both_types(Check check) {
  check(float{});
  if (test::gpu().caps().shader_float64) check(double{});
}

}  // namespace

TEST_CASE("complex SpMV: the row kernel matches Eigen on awkward shapes", "[spmv][complex]") {
  both_types([](auto t) {
    using T = decltype(t);
    for (const auto& s : complex_shapes()) {
      check_complex<T>(s.m, s.name, options(SpmvKernel::automatic), {});
      check_complex<T>(s.m, s.name, options(SpmvKernel::automatic), {false, 2.0, 0.0});
      check_complex<T>(s.m, s.name, options(SpmvKernel::rows), {true, -0.5, 0.75});
      check_complex<T>(s.m, s.name, options(SpmvKernel::rows, false), {false, 1.0, 1.0});
      check_complex<T>(s.m, s.name, options(SpmvKernel::rows, true, 1), {true, 1.0, 0.0});
    }
  });
}

TEST_CASE("complex SpMV: the merge path and the nonzero tiles match Eigen, rows crossing tiles",
          "[spmv][complex]") {
  both_types([](auto t) {
    using T = decltype(t);
    for (const auto& s : complex_shapes()) {
      check_complex<T>(s.m, s.name, options(SpmvKernel::merge), {false, 1.0, 0.0});
      check_complex<T>(s.m, s.name, small_tiles(SpmvKernel::merge), {true, -0.5, 0.75});
      check_complex<T>(s.m, s.name, small_tiles(SpmvKernel::merge, false), {false, 1.0, 1.0});
      if (s.m.rows > 0 &&
          s.name.find("empty") == std::string::npos) {  // nonzero tiles: no empty rows
        check_complex<T>(s.m, s.name, small_tiles(SpmvKernel::nnz), {true, 2.0, 0.0});
        check_complex<T>(s.m, s.name, small_tiles(SpmvKernel::nnz, false), {false, 1.0, -1.0});
      }
      // Small tiles under `automatic`: irregular rows go to the tiles.
      check_complex<T>(s.m, s.name, small_tiles(SpmvKernel::automatic), {true, 1.0, 0.0});
    }
    // Run to run, the same bits (the carries' scan is deterministic).
    const CooMatrix m = complex_shapes()[6].m;  // 1 x 9000: one row across many tiles
    const auto first = check_complex<T>(m, "1 x 9000", small_tiles(SpmvKernel::merge), {});
    const auto again = check_complex<T>(m, "1 x 9000 again", small_tiles(SpmvKernel::merge), {});
    CHECK(std::memcmp(first.data(), again.data(), first.size() * sizeof(T)) == 0);
  });
}

TEST_CASE("complex SpMV: every lane count, both builds, the same bits from run to run",
          "[spmv][complex]") {
  const CooMatrix m = complex_shapes()[5].m;  // one long row among short ones
  const uint32_t max_lanes = std::min<uint32_t>(test::gpu().caps().subgroup_size, 64);
  both_types([&](auto t) {
    using T = decltype(t);
    for (uint32_t lanes = 1; lanes <= max_lanes; lanes *= 2) {
      const auto sg =
          check_complex<T>(m, "one long row", options(SpmvKernel::rows, true, lanes), {});
      const auto again =
          check_complex<T>(m, "one long row again", options(SpmvKernel::rows, true, lanes), {});
      CHECK(std::memcmp(sg.data(), again.data(), sg.size() * sizeof(T)) == 0);
      // The shared-memory build sums in the same tree.
      const auto wg =
          check_complex<T>(m, "one long row", options(SpmvKernel::rows, false, lanes), {});
      CHECK(std::memcmp(sg.data(), wg.data(), sg.size() * sizeof(T)) == 0);
    }
  });
}

TEST_CASE("complex SpMV: alpha == 0 reads neither A nor x; beta == 0 does not read y",
          "[spmv][complex]") {
  both_types([](auto t) {
    using T = decltype(t);
    const CooMatrix m = complex_shapes()[8].m;
    check_complex<T>(m, "alpha 0", options(SpmvKernel::automatic), {true, 0.0, 0.5});
    check_complex<T>(m, "alpha 0, beta 0", options(SpmvKernel::rows), {false, 0.0, 0.0});
  });
}

TEST_CASE("complex SpMV: the simple form spmv()", "[spmv][complex]") {
  Runtime& rt = test::gpu();
  const CooMatrix m = complex_shapes()[7].m;  // arrow
  auto a = DeviceCsr::upload(rt, to_csr(m, true).value()).value();
  const auto x = parts<float>(m.cols, 21);
  auto xb = rt.upload(x).value();
  Buffer yb = test::poisoned(rt, 2 * uint64_t(m.rows) * 4);
  REQUIRE(spmv(rt, a.view(), xb.view(), yb.view()).ok());
  std::vector<float> y(2 * size_t(m.rows));
  REQUIRE(rt.download(yb.view(), y.data(), y.size() * 4).ok());
  // Against the checked plan path: the automatic choice with an analysis, same bits.
  const auto ref = check_complex<float>(m, "arrow", options(SpmvKernel::automatic), {});
  CHECK(std::memcmp(y.data(), ref.data(), y.size() * 4) == 0);
}

TEST_CASE("complex SpMV: young1c.mtx", "[spmv][complex][shared]") {
  VKPRIM_REQUIRE_SHARED("matrices/real/young1c.mtx");
  MatrixMarketReadOptions o;
  o.expand_symmetry = true;
  const CooMatrix m = read_matrix_file(shared_data / "matrices/real/young1c.mtx", o).value();
  REQUIRE(m.field == Field::complex);
  REQUIRE(m.nnz() == 4089);
  both_types([&](auto t) {
    using T = decltype(t);
    check_complex<T>(m, "young1c", options(SpmvKernel::automatic), {true, 1.0, 0.0});
    check_complex<T>(m, "young1c", options(SpmvKernel::rows, false, 4), {true, 2.0, -1.0});
    check_complex<T>(m, "young1c", options(SpmvKernel::merge), {true, 1.0, 0.5});
    check_complex<T>(m, "young1c", small_tiles(SpmvKernel::nnz), {true, 1.0, 0.0});
  });
}

TEST_CASE("complex device matrices: upload, download and Eigen round trips",
          "[spmv][complex][csr]") {
  Runtime& rt = test::gpu();
  const CooMatrix m = complex_shapes()[8].m;
  const auto csr = to_csr(m, true).value();
  SECTION("DeviceCsr from a host CSR and back") {
    DeviceCsrOptions o;
    o.values = test::gpu().caps().shader_float64 ? ValueType::f64 : ValueType::f32;
    o.force_row_ptr_64 = true;
    auto a = DeviceCsr::upload(rt, csr, o).value();
    CHECK(a.view().complex);
    CHECK(a.values_buffer().size() >= a.nnz() * value_bytes(o.values, true));
    const auto back = a.download(rt).value();
    CHECK(back.field == Field::complex);
    CHECK(back.row_offsets == csr.row_offsets);
    CHECK(back.col_indices == csr.col_indices);
    REQUIRE(back.complex_values.size() == csr.complex_values.size());
    for (size_t k = 0; k < csr.complex_values.size(); ++k) {
      const C want = o.values == ValueType::f64 ? csr.complex_values[k]
                                                : C(float(csr.complex_values[k].real()),
                                                    float(csr.complex_values[k].imag()));
      CHECK(back.complex_values[k] == want);
    }
  }
  SECTION("a real matrix uploaded as complex gets zero imaginary parts") {
    CsrMatrix r;
    r.rows = 1;
    r.cols = 2;
    r.row_offsets = {0, 2};
    r.col_indices = {0, 1};
    r.real_values = {3, -4};
    DeviceCsrOptions o;
    o.complex = true;
    const auto back = DeviceCsr::upload(rt, r, o).value().download(rt).value();
    CHECK(back.complex_values == std::vector<C>{{3, 0}, {-4, 0}});
  }
  SECTION("Eigen complex<float> and complex<double>") {
    Eigen::SparseMatrix<std::complex<float>> ef(3, 4);  // column-major: converted on upload
    ef.insert(0, 1) = {1, 2};
    ef.insert(2, 3) = {-3, 0.5f};
    ef.insert(2, 0) = {0, -1};
    auto a = upload(rt, ef).value();
    CHECK(a.is_complex());
    CHECK(a.value_type() == ValueType::f32);
    const auto back = to_eigen<std::complex<float>>(rt, a).value();
    CHECK(back.coeff(0, 1) == std::complex<float>(1, 2));
    CHECK(back.coeff(2, 3) == std::complex<float>(-3, 0.5f));
    CHECK(back.coeff(2, 0) == std::complex<float>(0, -1));
    CHECK(back.nonZeros() == 3);
    const auto wrong = to_eigen<double>(rt, a);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().code == Errc::invalid_argument);
    if (test::gpu().caps().shader_float64) {
      Eigen::SparseMatrix<C, Eigen::RowMajor> ed(2, 2);
      ed.insert(1, 0) = {1.0 / 3, -2.0 / 3};
      DeviceCsrOptions o;
      o.values = ValueType::f64;
      const auto d = to_eigen<C>(rt, upload(rt, ed, o).value()).value();
      CHECK(d.coeff(1, 0) == C(1.0 / 3, -2.0 / 3));
    }
    CHECK(to_eigen<std::complex<float>>(
              rt, DeviceCsr::upload(
                      rt, CsrMatrix{1, 1, Field::real, Symmetry::general, {0, 0}, {}, {}, {}, {}})
                      .value())
              .error()
              .code == Errc::invalid_argument);
  }
}

TEST_CASE("complex SpMV: refusals", "[spmv][complex][errors]") {
  Runtime& rt = test::gpu();
  for (const SpmvKernel k : {SpmvKernel::stream, SpmvKernel::split}) {
    SpmvOptions o;
    o.kernel = k;
    o.complex = true;
    const auto plan = Spmv::create(rt.context(), ValueType::f32, o);
    INFO(to_string(k));
    REQUIRE_FALSE(plan.ok());
    CHECK(plan.error().code == Errc::unsupported);
    CHECK(plan.error().message.find("takes real values only") != std::string::npos);
  }
  const CooMatrix m = complex_shapes()[3].m;  // 1x1
  auto a = DeviceCsr::upload(rt, to_csr(m, false).value()).value();
  auto xb = rt.upload(std::vector<float>{1, 1}).value();
  auto yb = rt.upload(std::vector<float>{0, 0}).value();
  // A real plan refuses a complex matrix (and the reverse).
  auto real_plan = Spmv::create(rt.context(), ValueType::f32, {}).value();
  const Status s = test::record_refused(rt, [&](VkCommandBuffer cmd) {
    return real_plan.record(cmd, a.view(), xb.view(), yb.view());
  });
  CHECK(s.error().code == Errc::invalid_argument);
  CHECK(s.error().message.find("complex") != std::string::npos);
  // x too small for cols complex values.
  auto small = rt.upload(std::vector<float>{1}).value();
  const Status t = test::record_refused(rt, [&](VkCommandBuffer cmd) {
    return plan_for(ValueType::f32, options(SpmvKernel::rows))
        .record(cmd, a.view(), small.view(), yb.view());
  });
  CHECK(t.error().code == Errc::invalid_argument);
  // The GPU CSR build, transpose and column split move real values only.
  CHECK(build_csr(rt, m).error().code == Errc::unsupported);
  CHECK(transpose(rt, a).error().code == Errc::unsupported);
  CHECK(split_columns(rt, a.view(), 1).error().code == Errc::unsupported);
  CHECK(test::validation_messages().empty());
}
