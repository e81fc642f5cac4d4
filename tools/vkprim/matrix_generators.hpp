// Small generated matrices for `vkprim spmv --generate KIND:N` (no file needed): the row-length
// shapes SpMV must handle, in COO form, entries in a scrambled order (so a GPU CSR build has
// sorting to do).
//   poisson2d:N   5-point Laplacian on an N x N grid (N^2 rows, ~5 entries per row)
//   poisson3d:N   7-point Laplacian on an N x N x N grid (N^3 rows, ~7 entries per row)
//   convdiff:N    upwind convection-diffusion on an N x N grid (nonsymmetric, ~5 per row)
//   band:N:K      N rows, K consecutive entries centred on the diagonal
//   powerlaw:N    row r has ~ N^0.6 / (r + 1)^0.8 + 1 entries at hashed columns
//   arrow:N       dense first row and column plus the diagonal
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>
#include <vkprim/error.hpp>
#include <vkprim/sparse/coo.hpp>

#include <fmt/core.h>

#include "commands.hpp"

namespace vkprim::cli {

inline uint32_t gen_hash(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return uint32_t(x);
}

inline Result<sparse::CooMatrix> generate_matrix(const std::string& spec) {
  const auto bad = [&spec] {
    return make_error(
        Errc::invalid_argument,
        "--generate '" + spec +
            "': expected poisson2d:N, poisson3d:N, convdiff:N, band:N:K, powerlaw:N or arrow:N");
  };
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    const size_t colon = spec.find(':', at);
    parts.push_back(spec.substr(at, colon == std::string::npos ? colon : colon - at));
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  std::vector<int64_t> nums;
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto v = parse_decimal(parts[i]);
    if (!v || *v == 0 || *v > uint64_t(INT64_MAX)) return bad();
    nums.push_back(int64_t(*v));
  }
  const std::string& kind = parts[0];
  // Entries each shape stores at most (sizes are capped below), checked against the host's
  // memory before anything is allocated: an entry takes 56 bytes here (24 in the COO matrix, 24
  // in its scrambled copy, 8 in the permutation).
  double entries = 0;
  if (nums.size() == 1 && nums[0] <= (int64_t(1) << 32)) {
    const double n = double(nums[0]);
    entries = kind == "poisson2d" || kind == "convdiff" ? 5 * n * n
              : kind == "poisson3d"                    ? 7 * n * n * n
              : kind == "arrow"                        ? 3 * n
                                                       : n + 5 * std::pow(n, 0.8);
  } else if (nums.size() == 2 && nums[0] <= (int64_t(1) << 32)) {
    entries = double(nums[0]) * double(std::min(nums[0], nums[1]));
  }
  if (const uint64_t memory = host_memory_bytes(); memory && entries * 56 > double(memory))
    return make_error(Errc::invalid_argument,
                      fmt::format("--generate '{}': about {:.3g} entries need {}, more than this "
                                  "machine's {} of memory",
                                  spec, entries, format_bytes(entries * 56), format_bytes(double(memory))));
  sparse::CooMatrix m;
  auto add = [&m](int64_t r, int64_t c, double v) {
    m.row_indices.push_back(r);
    m.col_indices.push_back(c);
    m.real_values.push_back(v);
  };
  if (kind == "poisson2d" && nums.size() == 1 && nums[0] <= 46340) {
    const int64_t n = nums[0];
    m.rows = m.cols = n * n;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t r = i * n + j;
        add(r, r, 4.0);
        if (i > 0) add(r, r - n, -1.0);
        if (i + 1 < n) add(r, r + n, -1.0);
        if (j > 0) add(r, r - 1, -1.0);
        if (j + 1 < n) add(r, r + 1, -1.0);
      }
  } else if (kind == "poisson3d" && nums.size() == 1 && nums[0] <= 1625) {
    const int64_t n = nums[0];
    m.rows = m.cols = n * n * n;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t k = 0; k < n; ++k) {
          const int64_t r = (i * n + j) * n + k;
          add(r, r, 6.0);
          if (i > 0) add(r, r - n * n, -1.0);
          if (i + 1 < n) add(r, r + n * n, -1.0);
          if (j > 0) add(r, r - n, -1.0);
          if (j + 1 < n) add(r, r + n, -1.0);
          if (k > 0) add(r, r - 1, -1.0);
          if (k + 1 < n) add(r, r + 1, -1.0);
        }
  } else if (kind == "convdiff" && nums.size() == 1 && nums[0] <= 46340) {
    // -laplace(u) + c (du/dx + du/dy), c = 1 in grid units, upwind differences: an M-matrix,
    // diagonally dominant and nonsymmetric.
    const int64_t n = nums[0];
    const double c = 1.0;
    m.rows = m.cols = n * n;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t r = i * n + j;
        add(r, r, 4.0 + 2.0 * c);
        if (i > 0) add(r, r - n, -1.0 - c);
        if (i + 1 < n) add(r, r + n, -1.0);
        if (j > 0) add(r, r - 1, -1.0 - c);
        if (j + 1 < n) add(r, r + 1, -1.0);
      }
  } else if (kind == "band" && nums.size() == 2 && nums[0] < (int64_t(1) << 32)) {
    const int64_t n = nums[0], k = nums[1];
    m.rows = m.cols = n;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t d = -k / 2; d < k - k / 2; ++d)
        if (r + d >= 0 && r + d < n)
          add(r, r + d, double(int64_t(gen_hash(uint64_t(r * k + d)) % 17) - 8) / 8.0);
  } else if (kind == "powerlaw" && nums.size() == 1 && nums[0] < (int64_t(1) << 32)) {
    const int64_t n = nums[0];
    m.rows = m.cols = n;
    const double top = std::pow(double(n), 0.6);
    uint64_t k = 0;
    for (int64_t r = 0; r < n; ++r) {
      const int64_t len = int64_t(top / std::pow(double(r + 1), 0.8)) + 1;
      for (int64_t j = 0; j < len; ++j, ++k)
        add(r, gen_hash(k) % uint64_t(n), double(gen_hash(k + 7) % 64) / 32.0 - 1.0);
    }
  } else if (kind == "arrow" && nums.size() == 1 && nums[0] < (int64_t(1) << 31)) {
    const int64_t n = nums[0];
    m.rows = m.cols = n;
    for (int64_t i = 0; i < n; ++i) {
      add(0, i, 1.0);
      if (i) {
        add(i, 0, 1.0);
        add(i, i, 2.0);
      }
    }
  } else {
    return bad();
  }
  // Scramble the entry order (a fixed permutation): a CSR build must sort.
  const size_t nnz = m.row_indices.size();
  std::vector<size_t> order(nnz);
  for (size_t i = 0; i < nnz; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [](size_t a, size_t b) {
    return gen_hash(a) < gen_hash(b) || (gen_hash(a) == gen_hash(b) && a < b);
  });
  sparse::CooMatrix s = m;
  for (size_t i = 0; i < nnz; ++i) {
    s.row_indices[i] = m.row_indices[order[i]];
    s.col_indices[i] = m.col_indices[order[i]];
    s.real_values[i] = m.real_values[order[i]];
  }
  return s;
}

}  // namespace vkprim::cli
