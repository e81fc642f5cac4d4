// CooMatrix/CsrMatrix operations: validation, symmetry expansion, duplicate summation and
// conversion between the two forms.
#include <vkprim/sparse/coo.hpp>

#include <algorithm>
#include <new>
#include <numeric>
#include <string>

namespace vkprim::sparse {

const char* to_string(Field f) noexcept {
  switch (f) {
    case Field::real: return "real";
    case Field::integer: return "integer";
    case Field::pattern: return "pattern";
  }
  return "?";
}

const char* to_string(Symmetry s) noexcept {
  switch (s) {
    case Symmetry::general: return "general";
    case Symmetry::symmetric: return "symmetric";
    case Symmetry::skew_symmetric: return "skew-symmetric";
    case Symmetry::hermitian: return "hermitian";
  }
  return "?";
}

double CooMatrix::value(int64_t k) const noexcept {
  switch (field) {
    case Field::real: return real_values[size_t(k)];
    case Field::integer: return double(integer_values[size_t(k)]);
    case Field::pattern: break;
  }
  return 1.0;
}

Status validate(const CooMatrix& m) {
  auto fail = [](std::string what) { return make_error(Errc::invalid_argument, std::move(what)); };
  const size_t n = m.row_indices.size();
  if (m.rows < 0 || m.cols < 0) return fail("matrix has a negative dimension");
  if (m.col_indices.size() != n) return fail("row and column index arrays differ in length");
  if (m.real_values.size() != (m.field == Field::real ? n : 0) ||
      m.integer_values.size() != (m.field == Field::integer ? n : 0))
    return fail("value array length does not match the field and entry count");
  if (m.symmetry != Symmetry::general && m.rows != m.cols)
    return fail(std::string("a ") + to_string(m.symmetry) + " matrix must be square");
  for (size_t k = 0; k < n; ++k) {
    const int64_t r = m.row_indices[k], c = m.col_indices[k];
    if (r < 0 || r >= m.rows || c < 0 || c >= m.cols)
      return fail("entry " + std::to_string(k) + " (" + std::to_string(r) + ", " +
                  std::to_string(c) + ") lies outside the " + std::to_string(m.rows) + " x " +
                  std::to_string(m.cols) + " matrix");
  }
  return {};
}

void expand_symmetry(CooMatrix& m) {
  if (m.symmetry == Symmetry::general) return;
  const size_t n = m.row_indices.size();
  size_t off_diagonal = 0;
  for (size_t k = 0; k < n; ++k) off_diagonal += m.row_indices[k] != m.col_indices[k];
  const size_t total = n + off_diagonal;
  const bool negate = m.symmetry == Symmetry::skew_symmetric;

  // Fill back to front in place: entry k and its mirror land at or after position k.
  m.row_indices.resize(total);
  m.col_indices.resize(total);
  if (m.field == Field::real) m.real_values.resize(total);
  if (m.field == Field::integer) m.integer_values.resize(total);
  size_t out = total;
  for (size_t k = n; k-- > 0;) {
    const int64_t r = m.row_indices[k], c = m.col_indices[k];
    if (r != c) {
      --out;
      m.row_indices[out] = c;
      m.col_indices[out] = r;
      if (m.field == Field::real) m.real_values[out] = negate ? -m.real_values[k] : m.real_values[k];
      if (m.field == Field::integer)  // negation through unsigned: wraps instead of UB
        m.integer_values[out] = negate ? int64_t(0 - uint64_t(m.integer_values[k])) : m.integer_values[k];
    }
    --out;
    m.row_indices[out] = r;
    m.col_indices[out] = c;
    if (m.field == Field::real) m.real_values[out] = m.real_values[k];
    if (m.field == Field::integer) m.integer_values[out] = m.integer_values[k];
  }
  m.symmetry = Symmetry::general;
}

namespace {

// Entry positions ordered by (row, column, position): a stable row-major order.
std::vector<int64_t> row_major_order(const CooMatrix& m) {
  const size_t n = m.row_indices.size();
  std::vector<int64_t> order(n);
  auto by_col = [&](int64_t a, int64_t b) {
    return m.col_indices[size_t(a)] != m.col_indices[size_t(b)]
               ? m.col_indices[size_t(a)] < m.col_indices[size_t(b)]
               : a < b;
  };
  if (uint64_t(m.rows) <= 4 * uint64_t(n) + 1024) {
    // Counting sort by row (stable), then a small sort inside each row.
    std::vector<int64_t> start(size_t(m.rows) + 1, 0);
    for (int64_t r : m.row_indices) ++start[size_t(r) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<int64_t> next(start.begin(), start.end() - 1);
    for (size_t k = 0; k < n; ++k) order[size_t(next[size_t(m.row_indices[k])]++)] = int64_t(k);
    for (size_t r = 0; r < size_t(m.rows); ++r)
      std::sort(order.begin() + start[r], order.begin() + start[r + 1], by_col);
  } else {
    // Hypersparse (far more rows than entries): one comparison sort.
    std::iota(order.begin(), order.end(), int64_t(0));
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      const int64_t ra = m.row_indices[size_t(a)], rb = m.row_indices[size_t(b)];
      return ra != rb ? ra < rb : by_col(a, b);
    });
  }
  return order;
}

// Rewrites m's entries in `order`; when `sum`, runs of equal (row, col) become one entry
// whose value is the left-to-right sum of the run.
void apply_order(CooMatrix& m, const std::vector<int64_t>& order, bool sum) {
  CooMatrix out;
  out.rows = m.rows;
  out.cols = m.cols;
  out.field = m.field;
  out.symmetry = m.symmetry;
  out.row_indices.reserve(order.size());
  out.col_indices.reserve(order.size());
  if (m.field == Field::real) out.real_values.reserve(order.size());
  if (m.field == Field::integer) out.integer_values.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const size_t k = size_t(order[i]);
    const int64_t r = m.row_indices[k], c = m.col_indices[k];
    const bool same = sum && !out.row_indices.empty() && out.row_indices.back() == r &&
                      out.col_indices.back() == c;
    if (same) {
      if (m.field == Field::real) out.real_values.back() += m.real_values[k];
      if (m.field == Field::integer)
        out.integer_values.back() =
            int64_t(uint64_t(out.integer_values.back()) + uint64_t(m.integer_values[k]));
      continue;
    }
    out.row_indices.push_back(r);
    out.col_indices.push_back(c);
    if (m.field == Field::real) out.real_values.push_back(m.real_values[k]);
    if (m.field == Field::integer) out.integer_values.push_back(m.integer_values[k]);
  }
  m = std::move(out);
}

}  // namespace

void sum_duplicates(CooMatrix& m) { apply_order(m, row_major_order(m), true); }

Result<CsrMatrix> to_csr(const CooMatrix& m, bool sum) {
  try {
    CsrMatrix csr;
    csr.row_offsets.assign(size_t(m.rows) + 1, 0);  // first: may not fit for huge shapes
    CooMatrix sorted = m;
    apply_order(sorted, row_major_order(m), sum);
    csr.rows = m.rows;
    csr.cols = m.cols;
    csr.field = m.field;
    csr.symmetry = m.symmetry;
    for (int64_t r : sorted.row_indices) ++csr.row_offsets[size_t(r) + 1];
    std::partial_sum(csr.row_offsets.begin(), csr.row_offsets.end(), csr.row_offsets.begin());
    csr.col_indices = std::move(sorted.col_indices);
    csr.real_values = std::move(sorted.real_values);
    csr.integer_values = std::move(sorted.integer_values);
    return csr;
  } catch (const std::bad_alloc&) {
    return make_error(Errc::out_of_host_memory,
                      "CSR of a " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                          " matrix does not fit in host memory");
  }
}

CooMatrix to_coo(const CsrMatrix& m) {
  CooMatrix coo;
  coo.rows = m.rows;
  coo.cols = m.cols;
  coo.field = m.field;
  coo.symmetry = m.symmetry;
  coo.row_indices.resize(m.col_indices.size());
  for (int64_t r = 0; r < m.rows; ++r)
    std::fill(coo.row_indices.begin() + m.row_offsets[size_t(r)],
              coo.row_indices.begin() + m.row_offsets[size_t(r) + 1], r);
  coo.col_indices = m.col_indices;
  coo.real_values = m.real_values;
  coo.integer_values = m.integer_values;
  return coo;
}

void transpose(CooMatrix& m) {
  std::swap(m.rows, m.cols);
  std::swap(m.row_indices, m.col_indices);
}

}  // namespace vkprim::sparse
