// CooMatrix/CsrMatrix operations: validation, symmetry expansion, duplicate summation and
// conversion between the two forms.
#include <vkprim/sparse/coo.hpp>

#include "reader_support.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace vkprim::sparse {

const char* to_string(Field f) noexcept {
  switch (f) {
    case Field::real: return "real";
    case Field::integer: return "integer";
    case Field::pattern: return "pattern";
    case Field::complex: return "complex";
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
    case Field::complex: return complex_values[size_t(k)].real();
    case Field::pattern: break;
  }
  return 1.0;
}

namespace detail {

Error out_of_memory(std::string_view name) noexcept {
  try {
    return make_error(Errc::out_of_host_memory, std::string(name) + ": out of host memory");
  } catch (...) {
    return Error{Errc::out_of_host_memory, VK_SUCCESS, {}};
  }
}

int64_t skew_unnegatable_entry(const CooMatrix& m) {
  if (m.field != Field::integer) return -1;
  for (size_t k = 0; k < m.integer_values.size(); ++k)
    if (m.integer_values[k] == INT64_MIN && m.row_indices[k] != m.col_indices[k]) return int64_t(k);
  return -1;
}

}  // namespace detail

namespace {

using detail::EntryOverflow;

// "(r, c)". Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "(" + std::string.
std::string position(int64_t r, int64_t c) {
  std::string s = "(";
  s += std::to_string(r);
  s += ", ";
  s += std::to_string(c);
  s += ")";
  return s;
}

Status validate_entries(const CooMatrix& m) {
  auto fail = [](std::string what) { return make_error(Errc::invalid_argument, std::move(what)); };
  const size_t n = m.row_indices.size();
  if (m.rows < 0 || m.cols < 0) return fail("matrix has a negative dimension");
  if (m.col_indices.size() != n) return fail("row and column index arrays differ in length");
  if (m.real_values.size() != (m.field == Field::real ? n : 0) ||
      m.integer_values.size() != (m.field == Field::integer ? n : 0) ||
      m.complex_values.size() != (m.field == Field::complex ? n : 0))
    return fail("value array length does not match the field and entry count");
  if (m.symmetry != Symmetry::general && m.rows != m.cols)
    return fail(std::string("a ") + to_string(m.symmetry) + " matrix must be square");
  for (size_t k = 0; k < n; ++k) {
    const int64_t r = m.row_indices[k], c = m.col_indices[k];
    if (r < 0 || r >= m.rows || c < 0 || c >= m.cols)
      return fail("entry " + std::to_string(k) + " " + position(r, c) + " lies outside the " +
                  std::to_string(m.rows) + " x " + std::to_string(m.cols) + " matrix");
  }
  return {};
}

// Mirrors every off-diagonal entry in place (each stored entry followed by its mirror).
// All arrays are reserved before any is resized, so a failed allocation leaves m as it was.
void expand_in_place(CooMatrix& m) {
  const size_t n = m.row_indices.size();
  size_t off_diagonal = 0;
  for (size_t k = 0; k < n; ++k) off_diagonal += m.row_indices[k] != m.col_indices[k];
  const size_t total = n + off_diagonal;
  const bool negate = m.symmetry == Symmetry::skew_symmetric;
  const bool conjugate = m.symmetry == Symmetry::hermitian;
  m.row_indices.reserve(total);
  m.col_indices.reserve(total);
  if (m.field == Field::real) m.real_values.reserve(total);
  if (m.field == Field::integer) m.integer_values.reserve(total);
  if (m.field == Field::complex) m.complex_values.reserve(total);

  // Fill back to front in place: entry k and its mirror land at or after position k.
  m.row_indices.resize(total);
  m.col_indices.resize(total);
  if (m.field == Field::real) m.real_values.resize(total);
  if (m.field == Field::integer) m.integer_values.resize(total);
  if (m.field == Field::complex) m.complex_values.resize(total);
  size_t out = total;
  for (size_t k = n; k-- > 0;) {
    const int64_t r = m.row_indices[k], c = m.col_indices[k];
    if (r != c) {
      --out;
      m.row_indices[out] = c;
      m.col_indices[out] = r;
      if (m.field == Field::real) m.real_values[out] = negate ? -m.real_values[k] : m.real_values[k];
      if (m.field == Field::integer)  // INT64_MIN refused before: the negation is exact
        m.integer_values[out] = negate ? -m.integer_values[k] : m.integer_values[k];
      if (m.field == Field::complex) {
        const std::complex<double> v = m.complex_values[k];
        m.complex_values[out] = negate ? -v : conjugate ? std::conj(v) : v;
      }
    }
    --out;
    m.row_indices[out] = r;
    m.col_indices[out] = c;
    if (m.field == Field::real) m.real_values[out] = m.real_values[k];
    if (m.field == Field::integer) m.integer_values[out] = m.integer_values[k];
    if (m.field == Field::complex) m.complex_values[out] = m.complex_values[k];
  }
  m.symmetry = Symmetry::general;
}

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

// Where a duplicate sum overflowed: positions in m of the run's first entry and of the
// entry whose addition overflows.
struct SumOverflow {
  int64_t first, entry;
};

// Rewrites m's entries in `order`; when `sum`, runs of equal (row, col) become one entry
// whose value is the left-to-right sum of the run. An integer sum that overflows leaves m
// unchanged and is returned.
std::optional<SumOverflow> apply_order(CooMatrix& m, const std::vector<int64_t>& order, bool sum) {
  CooMatrix out;
  out.rows = m.rows;
  out.cols = m.cols;
  out.field = m.field;
  out.symmetry = m.symmetry;
  out.row_indices.reserve(order.size());
  out.col_indices.reserve(order.size());
  if (m.field == Field::real) out.real_values.reserve(order.size());
  if (m.field == Field::integer) out.integer_values.reserve(order.size());
  if (m.field == Field::complex) out.complex_values.reserve(order.size());
  int64_t run_first = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const size_t k = size_t(order[i]);
    const int64_t r = m.row_indices[k], c = m.col_indices[k];
    const bool same = sum && !out.row_indices.empty() && out.row_indices.back() == r &&
                      out.col_indices.back() == c;
    if (same) {
      if (m.field == Field::real) out.real_values.back() += m.real_values[k];
      if (m.field == Field::complex) out.complex_values.back() += m.complex_values[k];
      if (m.field == Field::integer &&
          __builtin_add_overflow(out.integer_values.back(), m.integer_values[k], &out.integer_values.back()))
        return SumOverflow{run_first, int64_t(k)};
      continue;
    }
    run_first = int64_t(k);
    out.row_indices.push_back(r);
    out.col_indices.push_back(c);
    if (m.field == Field::real) out.real_values.push_back(m.real_values[k]);
    if (m.field == Field::integer) out.integer_values.push_back(m.integer_values[k]);
    if (m.field == Field::complex) out.complex_values.push_back(m.complex_values[k]);
  }
  m = std::move(out);
  return std::nullopt;
}

// Errc::invalid_argument for a duplicate sum of m that overflows; `prefix` leads the message.
Error sum_overflow(const CooMatrix& m, const SumOverflow& o, const std::string& prefix) {
  return make_error(Errc::invalid_argument,
                    prefix + "entries " + std::to_string(o.first) + " and " + std::to_string(o.entry) + " at " +
                        position(m.row_indices[size_t(o.entry)], m.col_indices[size_t(o.entry)]) +
                        " sum beyond the signed 64-bit range");
}

// The stored entry behind position p of an expanded matrix (each stored entry is followed
// by its mirror when off the diagonal), and whether p is the mirror.
std::pair<int64_t, bool> stored_entry(const CooMatrix& expanded, int64_t p) {
  int64_t q = 0, k = 0;
  for (;;) {
    const int64_t span = expanded.row_indices[size_t(q)] != expanded.col_indices[size_t(q)] ? 2 : 1;
    if (p < q + span) return {k, p != q};
    q += span;
    ++k;
  }
}

}  // namespace

namespace detail {

std::optional<EntryOverflow> expand_and_sum(CooMatrix& m, bool expand, bool sum) {
  const bool expanded = expand && m.symmetry != Symmetry::general;
  if (expanded) {
    if (m.symmetry == Symmetry::skew_symmetric)
      if (const int64_t k = skew_unnegatable_entry(m); k >= 0) {
        EntryOverflow o;
        o.kind = EntryOverflow::Kind::skew_mirror;
        o.entry = o.other = k;
        o.entry_mirror = true;
        o.row = m.col_indices[size_t(k)];
        o.col = m.row_indices[size_t(k)];
        return o;
      }
    expand_in_place(m);
  }
  if (!sum) return std::nullopt;
  const auto overflow = apply_order(m, row_major_order(m), true);
  if (!overflow) return std::nullopt;
  EntryOverflow o;
  o.row = m.row_indices[size_t(overflow->entry)];
  o.col = m.col_indices[size_t(overflow->entry)];
  o.entry = overflow->entry;
  o.other = overflow->first;
  if (expanded) {
    std::tie(o.entry, o.entry_mirror) = stored_entry(m, overflow->entry);
    std::tie(o.other, o.other_mirror) = stored_entry(m, overflow->first);
  }
  return o;
}

Status finish_read(CooMatrix& m, bool expand, bool sum, const std::string& name) {
  const auto o = expand_and_sum(m, expand, sum);
  if (!o) return {};
  auto entry = [](int64_t k, bool mirror) {
    return (mirror ? "the mirror of entry " : "entry ") + std::to_string(k);
  };
  if (o->kind == EntryOverflow::Kind::skew_mirror)
    return make_error(Errc::parse_error, name + ": " + entry(o->entry, false) +
                                             " holds -2^63, whose skew-symmetric mirror (its negation) does not "
                                             "fit the signed 64-bit range");
  return make_error(Errc::parse_error, name + ": the duplicates at " + position(o->row, o->col) + " (" +
                                           entry(o->other, o->other_mirror) + " and " +
                                           entry(o->entry, o->entry_mirror) +
                                           ") sum beyond the signed 64-bit range");
}

}  // namespace detail

Status validate(const CooMatrix& m) {
  return detail::no_throw("matrix", [&]() -> Status { return validate_entries(m); });
}

Status expand_symmetry(CooMatrix& m) {
  return detail::no_throw("matrix", [&]() -> Status {
    if (m.symmetry == Symmetry::skew_symmetric)
      if (const int64_t k = detail::skew_unnegatable_entry(m); k >= 0)
        return make_error(Errc::invalid_argument,
                          "entry " + std::to_string(k) + " " +
                              position(m.row_indices[size_t(k)], m.col_indices[size_t(k)]) +
                              " holds -2^63, whose skew-symmetric mirror does not fit the signed 64-bit range");
    if (m.symmetry != Symmetry::general) expand_in_place(m);
    return {};
  });
}

Status sum_duplicates(CooMatrix& m) {
  return detail::no_throw("matrix", [&]() -> Status {
    if (const auto o = apply_order(m, row_major_order(m), true)) return sum_overflow(m, *o, "");
    return {};
  });
}

Result<CsrMatrix> to_csr(const CooMatrix& m, bool sum) {
  return detail::no_throw("CSR", [&]() -> Result<CsrMatrix> {
    const std::string what = "CSR of a " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + " matrix";
    // rows + 1 offsets must fit a vector before anything is allocated.
    if (m.rows < 0 || uint64_t(m.rows) >= std::vector<int64_t>().max_size())
      return make_error(Errc::out_of_host_memory, what + " does not fit in host memory");
    CsrMatrix csr;
    csr.row_offsets.assign(size_t(m.rows) + 1, 0);  // first: may not fit for huge shapes
    CooMatrix sorted = m;
    if (const auto o = apply_order(sorted, row_major_order(m), sum)) return sum_overflow(m, *o, what + ": ");
    csr.rows = m.rows;
    csr.cols = m.cols;
    csr.field = m.field;
    csr.symmetry = m.symmetry;
    for (int64_t r : sorted.row_indices) ++csr.row_offsets[size_t(r) + 1];
    std::partial_sum(csr.row_offsets.begin(), csr.row_offsets.end(), csr.row_offsets.begin());
    csr.col_indices = std::move(sorted.col_indices);
    csr.real_values = std::move(sorted.real_values);
    csr.integer_values = std::move(sorted.integer_values);
    csr.complex_values = std::move(sorted.complex_values);
    return csr;
  });
}

Result<CooMatrix> to_coo(const CsrMatrix& m) {
  return detail::no_throw("matrix", [&]() -> Result<CooMatrix> {
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
    coo.complex_values = m.complex_values;
    return coo;
  });
}

void transpose(CooMatrix& m) {
  std::swap(m.rows, m.cols);
  std::swap(m.row_indices, m.col_indices);
}

}  // namespace vkprim::sparse
