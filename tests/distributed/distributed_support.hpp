// What the distributed tests share: the rank's Runtime, whole test matrices and vectors that
// every rank builds alike, the single-device reference and the comparison of a rank's slice.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>
#include <vkprim/sparse/coo.hpp>
#include <vkprim/sparse/distributed.hpp>
#include <vkprim/vkprim.hpp>

namespace vkprim::test {

// This rank's Runtime (create_rank_runtime, validation on), made before any test case runs.
Runtime& rank_gpu();
// Validation messages since the current test case started (test_main.cpp).
std::vector<std::string>& validation_messages();

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// Rows [p[rank], p[rank + 1]) of the whole real matrix `full`, global columns: a rank's own
// rows for DistributedCsr::from_rows.
inline sparse::CsrMatrix rows_of(const sparse::CsrMatrix& full, const sparse::Partition& p, int rank) {
  sparse::CsrMatrix mine;
  mine.rows = p[size_t(rank) + 1] - p[size_t(rank)];
  mine.cols = full.cols;
  const int64_t k0 = full.row_offsets[size_t(p[size_t(rank)])];
  for (int64_t i = p[size_t(rank)]; i <= p[size_t(rank) + 1]; ++i)
    mine.row_offsets.push_back(full.row_offsets[size_t(i)] - k0);
  mine.col_indices.assign(full.col_indices.begin() + k0,
                          full.col_indices.begin() + k0 + mine.row_offsets.back());
  mine.real_values.assign(full.real_values.begin() + k0,
                          full.real_values.begin() + k0 + mine.row_offsets.back());
  return mine;
}

// Rank 0's Error message, broadcast: every rank checks that it returned the same one.
inline std::string rank0_message(const std::string& mine) {
  std::string m = mine;
  int n = int(m.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  m.resize(size_t(n));
  MPI_Bcast(m.data(), n, MPI_CHAR, 0, MPI_COMM_WORLD);
  return m;
}

// The same error on every rank: code `code`, rank 0's message, which contains `needle`.
template <class R>
void check_same_error(const R& s, Errc code, const std::string& needle) {
  const std::string first = rank0_message(s ? std::string() : s.error().message);
  INFO("rank " << world_rank() << ": " << (s ? "ok" : s.error().describe()));
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().code == code);
  CHECK(s.error().message == first);
  CHECK(s.error().message.find(needle) != std::string::npos);
}

// ../shared next to the source tree (VKPRIM_SHARED_DIR); empty when absent.
inline std::filesystem::path shared_dir() {
  const std::filesystem::path p = VKPRIM_SHARED_DIR;
  return std::filesystem::is_directory(p) ? p : std::filesystem::path();
}

inline uint32_t hash32(uint64_t i, uint32_t seed) {
  uint64_t z = i * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return uint32_t((z ^ (z >> 31)) >> 16);
}
// A value in [-2, 2) with a few fractional bits: the same on every rank.
inline double value_at(uint64_t k, uint32_t seed) {
  return double(int32_t(hash32(k, seed) % 4096) - 2048) / 1024.0;
}
inline std::vector<double> vector_of(int64_t n, uint32_t seed) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = value_at(uint64_t(i), seed);
  return v;
}

inline double entry(const sparse::CsrMatrix& m, int64_t k) {
  if (m.field == sparse::Field::real) return m.real_values[size_t(k)];
  if (m.field == sparse::Field::integer) return double(m.integer_values[size_t(k)]);
  return 1.0;
}

template <class T>
std::vector<T> cast(const std::vector<double>& v, size_t begin, size_t end) {
  return std::vector<T>(v.begin() + std::ptrdiff_t(begin), v.begin() + std::ptrdiff_t(end));
}

// One automatic Spmv plan per value type on the rank's device, shared by the references and
// most distributed products (its pipelines are made once per test process).
// (test_main.cpp destroys them before the Runtime.)
const sparse::Spmv& plan_for(ValueType type);
// Destroys the single-device solvers test_distributed_solvers.cpp keeps (before the Runtime).
void release_solvers();

// y = alpha A x + beta y by vkprim's single-device SpMV (automatic kernel, with the matrix's
// analysis) on the rank's own device, the whole matrix: the reference every rank compares its
// slice with.
template <class T>
std::vector<double> single_device(const sparse::CsrMatrix& m, const std::vector<double>& x,
                                  const std::vector<double>& y0, double alpha, double beta) {
  Runtime& rt = rank_gpu();
  sparse::DeviceCsrOptions o;
  o.values = value_type_of<T>();
  const auto a = sparse::DeviceCsr::upload(rt, m, o).value();
  const auto xs = cast<T>(x, 0, x.size()), ys = cast<T>(y0, 0, y0.size());
  std::vector<T> pad{T(0)};
  const Buffer xb = rt.upload(xs.empty() ? pad : xs).value();
  const Buffer yb = rt.upload(ys.empty() ? pad : ys).value();
  const sparse::Spmv& plan = plan_for(value_type_of<T>());
  const auto an = plan.analyze(rt, a.view()).value();
  const uint64_t temp_bytes = plan.temp_bytes(a.view());
  const Buffer temp = rt.alloc(std::max<uint64_t>(temp_bytes, 16)).value();
  rt.submit([&](VkCommandBuffer cmd) -> Status {
      full_barrier(rt.context(), cmd);
      VKPRIM_TRY(plan.record(cmd, a.view(), xb.view(), yb.view(), alpha, beta, an, temp.view()));
      full_barrier(rt.context(), cmd);
      return Status{};
    }).value();
  const auto out = rt.download<T>(yb.view(), ys.size()).value();
  return std::vector<double>(out.begin(), out.end());
}

// Rows [begin, end) of `got` against `want` (the whole product): within
// 4 (row length + 2) eps (|alpha| sum_j |a_ij x_j| + |beta y_i|), the bound of two sums of the
// same terms in different orders. Returns the number of rows outside it (the first is INFO'd).
template <class T>
int64_t mismatches(const sparse::CsrMatrix& m, const std::vector<double>& x,
                   const std::vector<double>& y0, double alpha, double beta, int64_t begin,
                   int64_t end, const std::vector<double>& got, const std::vector<double>& want) {
  const double eps = std::numeric_limits<T>::epsilon();
  int64_t bad = 0;
  for (int64_t r = begin; r < end; ++r) {
    double mag = beta != 0.0 ? std::abs(beta * y0[size_t(r)]) : 0.0;
    for (int64_t k = m.row_offsets[size_t(r)]; k < m.row_offsets[size_t(r) + 1]; ++k)
      mag += std::abs(alpha * entry(m, k) * x[size_t(m.col_indices[size_t(k)])]);
    const double len = double(m.row_offsets[size_t(r) + 1] - m.row_offsets[size_t(r)]);
    const double tol = 4.0 * (len + 2.0) * eps * mag + 1e-300;
    const double g = got[size_t(r - begin)], w = want[size_t(r)];
    if (!(std::abs(g - w) <= tol)) {
      if (bad == 0)
        UNSCOPED_INFO("rank " << world_rank() << ": row " << r << ": distributed " << g
                              << ", single device " << w << ", tolerance " << tol);
      ++bad;
    }
  }
  return bad;
}

}  // namespace vkprim::test
