// Shared by the GPU sparse tests: generated matrix shapes (generated_shapes()), the Eigen
// reference for y = alpha * A * x + beta * y, and a comparison with a per-row tolerance.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>
#include <vkprim/sparse/coo.hpp>

#include "eigen_reference.hpp"
#include "gpu.hpp"

namespace vkprim::test {

// A deterministic value in [-2, 2) with a few fractional bits, from entry k of a seed.
inline double value_at(uint64_t k, uint32_t seed) {
  return double(int32_t(hash32(k, seed) % 4096) - 2048) / 1024.0;
}

struct Shape {
  std::string name;
  sparse::CooMatrix m;
};

inline void add_entry(sparse::CooMatrix& m, int64_t r, int64_t c, double v) {
  m.row_indices.push_back(r);
  m.col_indices.push_back(c);
  m.real_values.push_back(v);
}

inline sparse::CooMatrix empty_matrix(int64_t rows, int64_t cols) {
  sparse::CooMatrix m;
  m.rows = rows;
  m.cols = cols;
  return m;
}

// Entries in hashed (not sorted) order so the CSR path sorts them; duplicates where asked.
inline std::vector<Shape> generated_shapes() {
  std::vector<Shape> s;
  s.push_back({"0x0", empty_matrix(0, 0)});
  s.push_back({"0x7", empty_matrix(0, 7)});
  s.push_back({"5x0", empty_matrix(5, 0)});
  s.push_back({"all rows empty 3000x40", empty_matrix(3000, 40)});
  {
    auto m = empty_matrix(1, 1);
    add_entry(m, 0, 0, 1.5);
    s.push_back({"1x1", m});
  }
  {  // 97% empty rows, the others short: tiles must not stall on empty rows
    auto m = empty_matrix(20000, 500);
    for (int64_t r = 0; r < m.rows; ++r)
      if (hash32(uint64_t(r), 1) % 100 < 3)
        for (int k = 0; k < 3; ++k)
          add_entry(m, r, hash32(uint64_t(r) * 3 + k, 2) % 500, value_at(r * 3 + k, 3));
    s.push_back({"many empty rows", m});
  }
  {  // one dense row among short ones
    auto m = empty_matrix(300, 20000);
    for (int64_t c = 0; c < m.cols; ++c) add_entry(m, 137, c, value_at(c, 4));
    for (int64_t r = 0; r < m.rows; ++r) add_entry(m, r, (r * 7919) % m.cols, value_at(r, 5));
    s.push_back({"one dense row", m});
  }
  {  // a single row of 70000 entries: crosses dozens of tiles
    auto m = empty_matrix(1, 70000);
    for (int64_t c = m.cols - 1; c >= 0; --c) add_entry(m, 0, c, value_at(c, 6));
    s.push_back({"1 x 70000 dense", m});
  }
  {  // arrow: dense first row and column plus the diagonal
    const int64_t n = 5000;
    auto m = empty_matrix(n, n);
    for (int64_t i = 0; i < n; ++i) {
      add_entry(m, 0, i, value_at(i, 7));
      if (i) add_entry(m, i, 0, value_at(i, 8));
      if (i) add_entry(m, i, i, 4.0);
    }
    s.push_back({"arrow", m});
  }
  {  // rectangular both ways
    auto wide = empty_matrix(200, 9000), tall = empty_matrix(9000, 200);
    for (uint64_t k = 0; k < 30000; ++k) {
      add_entry(wide, hash32(k, 9) % 200, hash32(k, 10) % 9000, value_at(k, 11));
      add_entry(tall, hash32(k, 12) % 9000, hash32(k, 13) % 200, value_at(k, 14));
    }
    s.push_back({"wide 200x9000", wide});
    s.push_back({"tall 9000x200", tall});
  }
  {  // power-law row lengths (Zipf-like: row r has ~ 4000 / (r + 1) entries)
    const int64_t n = 8000;
    auto m = empty_matrix(n, n);
    uint64_t k = 0;
    for (int64_t r = 0; r < n; ++r) {
      const int64_t len = std::max<int64_t>(4000 / (r + 1), hash32(uint64_t(r), 15) % 2);
      for (int64_t j = 0; j < len; ++j, ++k) add_entry(m, r, hash32(k, 16) % n, value_at(k, 17));
    }
    s.push_back({"power-law rows", m});
  }
  {  // duplicates everywhere, random order: 40000 triplets onto ~2000 positions
    auto m = empty_matrix(100, 60);
    for (uint64_t k = 0; k < 40000; ++k)
      add_entry(m, hash32(k, 18) % 100, hash32(k, 19) % 20, value_at(k, 20));
    s.push_back({"duplicates everywhere", m});
  }
  {  // explicit zeros and 2-entry rows (very short rows)
    const int64_t n = 30000;
    auto m = empty_matrix(n, n);
    for (int64_t r = 0; r < n; ++r) {
      add_entry(m, r, r, (r % 5 == 0) ? 0.0 : value_at(r, 21));
      add_entry(m, r, (r + 1) % n, value_at(r, 22));
    }
    s.push_back({"short rows k=2 with explicit zeros", m});
  }
  return s;
}

// y = alpha * A * x + beta * y0 in double from the same (already rounded) inputs, and the
// per-row bound: (row length + 8) * eps(T) * (|alpha| sum_j |a_ij x_j| + |beta y0_i|).
struct Reference {
  std::vector<double> y, tol;
};

template <class T>
Reference reference_spmv(const EigenCsr& a, const std::vector<T>& x, const std::vector<T>& y0,
                         double alpha, double beta) {
  Reference ref;
  const double eps = std::numeric_limits<T>::epsilon();
  ref.y.resize(size_t(a.rows()));
  ref.tol.resize(size_t(a.rows()));
  for (Eigen::Index r = 0; r < a.rows(); ++r) {
    double sum = 0, abs_sum = 0;
    int64_t len = 0;
    for (EigenCsr::InnerIterator it(a, r); it; ++it, ++len) {
      const double p = double(T(it.value())) * double(x[size_t(it.col())]);
      sum += p;
      abs_sum += std::abs(p);
    }
    const double yb = beta == 0.0 ? 0.0 : beta * double(y0[size_t(r)]);
    ref.y[size_t(r)] = alpha * sum + yb;
    ref.tol[size_t(r)] =
        double(len + 8) * eps * (std::abs(alpha) * abs_sum + std::abs(yb)) + 1e-300;
  }
  return ref;
}

template <class T>
void check_y(const std::vector<T>& got, const Reference& ref, const std::string& what) {
  REQUIRE(got.size() == ref.y.size());
  for (size_t r = 0; r < got.size(); ++r) {
    const double err = std::abs(double(got[r]) - ref.y[r]);
    if (!(err <= ref.tol[r]))
      FAIL(what << ": row " << r << ": " << got[r] << " vs " << ref.y[r] << " (tol " << ref.tol[r]
                << ")");
  }
}

}  // namespace vkprim::test
