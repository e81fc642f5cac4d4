// DeviceCsr and SpMV against Eigen: generated shapes of NOTES §6 (empty, 1x1, empty rows, dense
// row, arrow, rectangular, power-law, duplicates, short rows), small tiles so rows cross many
// tile boundaries, the forced 64-bit row pointer, alpha/beta conventions, run-to-run
// determinism, every shared matrix, and the errors. Outputs are poisoned (NaN) first.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <tuple>
#include <vkprim/sparse/eigen.hpp>
#include <vkprim/sparse/matrix_file.hpp>
#include <vkprim/sparse/spmv.hpp>

#include "sparse_gpu_support.hpp"
#include "test_support.hpp"

using namespace vkprim;
using namespace vkprim::sparse;
using test::EigenCsr;

namespace {

// Plans are built once per (type, tile shape, subgroup layer): pipeline creation under the
// validation layer is the slow part on lavapipe.
Spmv& plan_for(ValueType t, const SpmvOptions& o) {
  static std::map<std::tuple<int, uint32_t, uint32_t, bool>, Spmv> plans;
  const auto key =
      std::make_tuple(int(t), o.workgroup_size, o.items_per_invocation, o.use_subgroup_ops);
  auto it = plans.find(key);
  if (it == plans.end())
    it = plans.emplace(key, Spmv::create(test::gpu().context(), t, o).value()).first;
  return it->second;
}

SpmvOptions small_tiles(bool subgroup) {
  SpmvOptions o;
  o.workgroup_size = 32;
  o.items_per_invocation = 2;  // 64 merge items per tile
  o.use_subgroup_ops = subgroup;
  return o;
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

// Runs y = alpha A x + beta y on the GPU and returns y.
template <class T>
std::vector<T> gpu_spmv(const DeviceCsr& a, const std::vector<T>& x, const std::vector<T>& y0,
                        double alpha, double beta, const SpmvOptions& o) {
  Runtime& rt = test::gpu();
  Spmv& plan = plan_for(value_type_of<T>(), o);
  plan.reserve(a.rows(), a.nnz()).value();
  Buffer xb = upload_or_empty(rt, x);
  // beta == 0: y starts as NaN, which must neither be read nor survive.
  std::vector<T> yinit =
      beta == 0.0 ? std::vector<T>(y0.size(), std::numeric_limits<T>::quiet_NaN()) : y0;
  Buffer yb = upload_or_empty(rt, yinit);
  rt.submit([&](VkCommandBuffer cmd) {
      return plan.record(cmd, a.view(), xb.view(), yb.view(), alpha, beta);
    }).value();
  return rt.download<T>(yb.view(), y0.size()).value();
}

template <class T>
void check_spmv(const CooMatrix& coo, const std::string& what, const SpmvOptions& o, double alpha,
                double beta, bool force64 = false, bool via_eigen = false) {
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
  const auto got = gpu_spmv(a, x, y0, alpha, beta, o);
  test::check_y(got, test::reference_spmv(ref, x, y0, alpha, beta), what);
}

template <class T>
void check_all_configs(const CooMatrix& coo, const std::string& name) {
  INFO(name << " (" << coo.rows << " x " << coo.cols << ", " << coo.nnz() << " triplets), "
            << to_string(value_type_of<T>()));
  check_spmv<T>(coo, name + " default tiles", SpmvOptions{}, 1.5, 0.0);
  check_spmv<T>(coo, name + " small tiles, subgroup", small_tiles(true), -1.0, 0.5);
  check_spmv<T>(coo, name + " small tiles, shared memory", small_tiles(false), 2.0, -0.25, false,
                true);
}

}  // namespace

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

TEST_CASE("SpMV alpha == 0 reads neither A nor x; beta == 0 never reads y", "[spmv]") {
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
  huge.items_per_invocation = 16;
  CHECK(Spmv::create(rt.context(), ValueType::f64, huge).error().code ==
        (rt.caps().shader_float64 ? Errc::limit_exceeded : Errc::unsupported));
  CHECK(Spmv::create(rt.context(), ValueType::f32, SpmvOptions{true, 48, 0}).error().code ==
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
    expand_symmetry(*m);
    if (m->nnz() > kMaxSharedNnz) {
      WARN(path.filename().string()
           << ": skipped (" << m->nnz() << " entries > " << kMaxSharedNnz << ")");
      continue;
    }
    check_spmv<float>(*m, path.filename().string() + " f32", SpmvOptions{}, 1.0, 0.0);
    if (test::gpu().caps().shader_float64)
      check_spmv<double>(*m, path.filename().string() + " f64", SpmvOptions{}, 1.0, 0.5, false,
                         true);
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
