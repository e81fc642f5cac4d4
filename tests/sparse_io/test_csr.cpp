// COO -> CSR and duplicate summation against the Eigen reference (setFromTriplets), on
// generated matrices and on every readable real/integer matrix of the shared data.
#include "eigen_reference.hpp"
#include "test_support.hpp"

#include <vkprim/sparse/matrix_market.hpp>

#include <complex>
#include <random>

using namespace vkprim;
using namespace vkprim::sparse;
using namespace vkprim::test;

namespace {

// Complex: Eigen's complex setFromTriplets, both parts bit for bit.
void check_complex_against_eigen(const CooMatrix& m) {
  using C = std::complex<double>;
  std::vector<Eigen::Triplet<C>> t;
  for (int64_t k = 0; k < m.nnz(); ++k)
    t.emplace_back(int(m.row_indices[size_t(k)]), int(m.col_indices[size_t(k)]),
                   m.complex_values[size_t(k)]);
  Eigen::SparseMatrix<C, Eigen::RowMajor> e(Eigen::Index(m.rows), Eigen::Index(m.cols));
  e.setFromTriplets(t.begin(), t.end());
  e.makeCompressed();
  const CsrMatrix got = to_csr(m, true).value();
  REQUIRE(got.row_offsets ==
          std::vector<int64_t>(e.outerIndexPtr(), e.outerIndexPtr() + e.rows() + 1));
  REQUIRE(got.col_indices ==
          std::vector<int64_t>(e.innerIndexPtr(), e.innerIndexPtr() + e.nonZeros()));
  for (int64_t k = 0; k < got.nnz(); ++k) {
    const C a = got.complex_values[size_t(k)], b = e.valuePtr()[k];
    if (!same_bits(a.real(), b.real()) || !same_bits(a.imag(), b.imag()))
      FAIL_CHECK("value " << k << ": " << a << " vs " << b);
  }
  CooMatrix summed = m;
  REQUIRE(sum_duplicates(summed).ok());
  CHECK(identical(summed, to_coo(got).value()));
}

// CSR of m (summed) must equal Eigen's, values bit for bit.
void check_against_eigen(const CooMatrix& m) {
  if (m.field == Field::complex) return check_complex_against_eigen(m);
  const CsrMatrix expected = to_csr_matrix(eigen_reference(m));
  const CsrMatrix got = to_csr(m, true).value();
  REQUIRE(got.row_offsets == expected.row_offsets);
  REQUIRE(got.col_indices == expected.col_indices);
  for (int64_t k = 0; k < got.nnz() && m.field != Field::pattern; ++k) {  // pattern: structure only
    const double v = m.field == Field::integer ? double(got.integer_values[size_t(k)]) : got.real_values[size_t(k)];
    if (!same_bits(v, expected.real_values[size_t(k)])) FAIL_CHECK("value " << k << ": " << v << " vs " << expected.real_values[size_t(k)]);
  }
  // sum_duplicates on COO gives the same entries.
  CooMatrix summed = m;
  REQUIRE(sum_duplicates(summed).ok());
  const CooMatrix back = to_coo(got).value();
  CHECK(identical(summed, back));
}

}  // namespace

TEST_CASE("CSR of random triplets with many duplicates matches Eigen", "[csr]") {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    CooMatrix m;
    m.rows = int64_t(1 + rng() % 300);
    m.cols = int64_t(1 + rng() % 300);
    const int64_t n = int64_t(rng() % 5000);
    for (int64_t k = 0; k < n; ++k) {
      m.row_indices.push_back(int64_t(rng() % uint64_t(std::min<int64_t>(m.rows, 1 + trial * 3))));
      m.col_indices.push_back(int64_t(rng() % uint64_t(m.cols)));
      // Magnitudes far apart so the summation order shows in the result.
      m.real_values.push_back(std::ldexp(double(int64_t(rng() % 2001) - 1000), int(rng() % 120) - 60));
    }
    INFO("trial " << trial);
    check_against_eigen(m);
  }
}

TEST_CASE("CSR keeps duplicates in input order when not summing, and hypersparse shapes work", "[csr]") {
  CooMatrix m;
  m.rows = int64_t(1) << 40;
  m.cols = 5;
  m.row_indices = {9, 3, 9, 3};
  m.col_indices = {2, 4, 2, 1};
  m.real_values = {1, 2, 3, 4};
  CooMatrix s = m;
  REQUIRE(sum_duplicates(s).ok());
  CHECK(s.row_indices == std::vector<int64_t>{3, 3, 9});
  CHECK(s.col_indices == std::vector<int64_t>{1, 4, 2});
  CHECK(s.real_values == std::vector<double>{4, 2, 4});
  auto huge = to_csr(m, false);  // 2^40 + 1 row offsets cannot be allocated
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().code == Errc::out_of_host_memory);
  m.rows = 10;
  const CsrMatrix csr = to_csr(m, false).value();
  CHECK(csr.col_indices == std::vector<int64_t>{1, 4, 2, 2});
  CHECK(csr.real_values == std::vector<double>{4, 2, 1, 3});
}

TEST_CASE("CSR of every shared real and edge matrix matches Eigen", "[csr][shared]") {
  VKPRIM_REQUIRE_SHARED("matrices");
  size_t checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(shared_data / "matrices")) {
    if (!e.is_regular_file() || e.path().extension() == ".md") continue;
    MatrixMarketReadOptions o;
    o.expand_symmetry = true;
    auto m = read_matrix_market(e.path(), o);
    if (!m || m->rows > INT32_MAX || m->cols > INT32_MAX) continue;  // invalid, or beyond Eigen's int
    INFO(e.path().string());
    check_against_eigen(*m);
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("real matrices: stored counts and expansion agree with SOURCES.md", "[mm][shared]") {
  VKPRIM_REQUIRE_SHARED("matrices/real");
  struct Known {
    const char* file;
    int64_t rows, stored, expanded;
  };
  // From shared/matrices/SOURCES.md.
  const Known known[] = {{"fe_4elt2.mtx", 11143, 32818, 65636},
                         {"zenios.mtx", 2873, 15032, 27191},
                         {"luxembourg.mtx", 114599, 119666, 239332},
                         {"hangGlider_2.mtx", 1647, 7834, 14754},
                         {"cryg2500.mtx", 2500, 12349, 12349}};
  for (const Known& k : known) {
    INFO(k.file);
    MatrixMarketReadOptions o;
    auto stored = read_matrix_market(shared_data / "matrices/real" / k.file, o).value();
    o.expand_symmetry = true;
    auto expanded = read_matrix_market(shared_data / "matrices/real" / k.file, o).value();
    CHECK(stored.rows == k.rows);
    CHECK(stored.nnz() == k.stored);
    CHECK(expanded.nnz() == k.expanded);
  }
  // zenios: 14375 explicit zeros survive.
  auto z = read_matrix_market(shared_data / "matrices/real/zenios.mtx").value();
  CHECK(std::count(z.real_values.begin(), z.real_values.end(), 0.0) == 14375);
}
