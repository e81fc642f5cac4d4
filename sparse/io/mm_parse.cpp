// Matrix Market data section: split into chunks at line boundaries, parsed in parallel
// (std::from_chars for integers, fast_float for reals), concatenated in file order.
// Errors report the first problem in file order, with its line number.
#include <vkprim/sparse/matrix_market.hpp>

#include "mm_header.hpp"
#include "reader_support.hpp"
#include "text_scan.hpp"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>

namespace vkprim::sparse {
namespace {

using detail::MatrixMarketHeader;
using detail::at_delimiter;
using detail::is_eol;
using detail::skip_blanks;

constexpr size_t kDefaultChunkBytes = size_t(4) << 20;

// One piece of the data section. Its entries go straight into the matrix arrays, starting
// at `first` (an upper bound on the entries of the chunks before it: their line counts).
struct Chunk {
  const char* begin = nullptr;
  const char* end = nullptr;
  int64_t first = 0;
  int64_t limit = 0;                // room for entries from `first` on
  int64_t count = 0;                // entries parsed
  const char* error_pos = nullptr;  // where the problem is; null when the chunk parsed
  std::string error;                // "expected ..." (message without file and line)
  bool too_many = false;            // stopped at an entry past `limit`
};

// Where parse_chunk writes entry k of a chunk: arrays + chunk.first + k (null: not stored).
// Without `store` nothing is written: the text is only checked.
struct Out {
  int64_t* rows;
  int64_t* cols;
  double* reals;
  int64_t* ints;
  std::complex<double>* complexes;
  bool store;
};

// Parses one 1-based index ending at a delimiter and checks 1 <= index <= bound.
inline const char* parse_index(const char* p, const char* end, int64_t bound, int64_t& out) {
  const char* q = detail::parse_int64(p, end, out);
  if (q == nullptr || out < 1 || out > bound) return nullptr;
  --out;
  return q;
}

inline const char* parse_real(const char* p, const char* end, double& out) {
  if (p != end && *p == '+' && p + 1 != end && *(p + 1) != '-' && *(p + 1) != '+') ++p;
  auto [q, ec] = fast_float::from_chars(p, end, out);
  // Values beyond the double range become +-inf (ec reports it in newer fast_float).
  if ((ec != std::errc() && ec != std::errc::result_out_of_range) || q == p || !at_delimiter(q, end))
    return nullptr;
  return q;
}

std::string range_text(const char* what, int64_t bound) {
  return std::string(what) + " in 1.." + std::to_string(bound);
}

// Parses the entry lines of [c.begin, c.end) into `out` (from c.first on), stopping at the
// first problem or when an entry beyond `limit` starts.
void parse_chunk(const MatrixMarketHeader& h, Chunk& c, int64_t limit, const Out& out) {
  const char* p = c.begin;
  const char* const end = c.end;
  auto fail = [&](const char* where, std::string what) {
    c.error_pos = where;
    c.error = std::move(what);
  };
  while (p != end) {
    p = skip_blanks(p, end);
    if (p == end) break;
    if (is_eol(*p) || *p == '%') {  // blank line or comment
      p = detail::next_line(p, end);
      continue;
    }
    if (c.count == limit) {
      c.too_many = true;
      return fail(p, "");
    }
    if (h.coordinate) {
      int64_t r = 0, col = 0;
      const char* q = parse_index(p, end, h.rows, r);
      if (q == nullptr) return fail(p, range_text(h.vector ? "an index" : "a row index", h.rows));
      p = skip_blanks(q, end);
      if (!h.vector) {
        q = parse_index(p, end, h.cols, col);
        if (q == nullptr) return fail(p, range_text("a column index", h.cols));
        p = skip_blanks(q, end);
      }
      if (out.store) {
        out.rows[c.first + c.count] = r;
        out.cols[c.first + c.count] = col;
      }
    }
    if (h.field == Field::real) {
      double v;
      const char* q = parse_real(p, end, v);
      if (q == nullptr) return fail(p, "a real value");
      if (out.store) out.reals[c.first + c.count] = v;
      p = q;
    } else if (h.field == Field::complex) {
      // Two reals on the line: the real part, then the imaginary part.
      double re, im;
      const char* q = parse_real(p, end, re);
      if (q == nullptr) return fail(p, "a complex value (real part, then imaginary part)");
      p = skip_blanks(q, end);
      if (p == end || is_eol(*p)) return fail(p, "the imaginary part of a complex value");
      q = parse_real(p, end, im);
      if (q == nullptr) return fail(p, "the imaginary part of a complex value (a real number)");
      if (out.store) out.complexes[c.first + c.count] = {re, im};
      p = q;
    } else if (h.field == Field::integer) {
      int64_t v;
      const char* q = detail::parse_int64(p, end, v);
      if (q == nullptr) return fail(p, "an integer value in the signed 64-bit range");
      if (out.store) out.ints[c.first + c.count] = v;
      p = q;
    }
    p = skip_blanks(p, end);
    if (p != end && !is_eol(*p)) return fail(p, "end of line after the entry");
    ++c.count;
    p = detail::next_line(p, end);
  }
}

// Lines of [p, end) that hold an entry: neither blank nor a comment. Each entry needs one,
// so this bounds the entries a chunk can hold by its text, whatever the header claims.
int64_t entry_lines(const char* p, const char* end) {
  int64_t n = 0;
  while (p != end) {
    p = skip_blanks(p, end);
    if (p == end) break;
    n += !is_eol(*p) && *p != '%';
    p = detail::next_line(p, end);
  }
  return n;
}

// Where entry k (0-based, in file order) of the data section starts: its value token when
// `skip_indices`, else the line's first token.
size_t entry_position(const MatrixMarketHeader& h, std::string_view text, int64_t k, bool skip_indices) {
  const char* const end = text.data() + text.size();
  const char* p = text.data() + h.data_begin;
  for (;;) {
    p = skip_blanks(p, end);
    if (p == end) return text.size();
    if (!is_eol(*p) && *p != '%' && k-- == 0) break;
    p = detail::next_line(p, end);
  }
  if (skip_indices && h.coordinate)
    for (int tokens = h.vector ? 1 : 2; tokens > 0; --tokens) {
      while (p != end && !detail::at_delimiter(p, end)) ++p;
      p = skip_blanks(p, end);
    }
  return size_t(p - text.data());
}

// The reader's error for an integer that expansion or summation cannot represent.
Error overflow_error(const MatrixMarketHeader& h, std::string_view text, std::string_view name,
                     const detail::EntryOverflow& o) {
  const size_t at = entry_position(h, text, o.entry, true);
  if (o.kind == detail::EntryOverflow::Kind::skew_mirror)
    return detail::expected_at(name, text, at,
                               "an integer value whose skew-symmetric mirror (its negation) fits the signed "
                               "64-bit range");
  const int64_t first_line = detail::line_of(text, entry_position(h, text, o.other, false));
  return detail::expected_at(name, text, at,
                             "an integer value that keeps the sum of the duplicates at (" +
                                 std::to_string(o.row + 1) + ", " + std::to_string(o.col + 1) +
                                 ") in the signed 64-bit range (the sum starts at line " +
                                 std::to_string(first_line) + (o.other_mirror ? ", mirrored" : "") +
                                 (o.entry_mirror ? "; this entry mirrored" : "") + ")");
}

// Splits [begin, end) into pieces of about `target` bytes, each ending after a line end.
std::vector<Chunk> split(const char* begin, const char* end, size_t target) {
  std::vector<Chunk> chunks;
  const char* p = begin;
  while (p != end) {
    const char* q = size_t(end - p) <= target ? end : p + target;
    while (q != end && !is_eol(q[-1])) ++q;           // finish the current line
    while (q != end && q[-1] == '\r' && *q == '\n') ++q;  // keep "\r\n" together
    Chunk c;
    c.begin = p;
    c.end = q;
    chunks.push_back(std::move(c));
    p = q;
  }
  return chunks;
}

// Row and column of the k-th value of a dense (array) section, column-major, given the
// stored part for the symmetry. Advances (row, col) to the next position.
struct DenseCursor {
  int64_t rows, cols;
  Symmetry symmetry;
  int64_t row = 0, col = 0;

  void start() {
    row = symmetry == Symmetry::skew_symmetric ? 1 : 0;
    col = 0;
  }
  void advance() {
    if (++row < rows) return;
    ++col;
    row = symmetry == Symmetry::general ? 0 : symmetry == Symmetry::skew_symmetric ? col + 1 : col;
  }
};

// Runs fn(chunk index) for every chunk on up to `threads` threads (the caller's included;
// threads the system refuses to start are done without), chunks taken in order from a
// shared counter. False if fn ran out of memory.
template <class Fn>
bool for_each_chunk(size_t chunks, unsigned threads, Fn fn) {
  std::atomic<size_t> next{0};
  std::atomic<bool> out_of_memory{false};
  auto work = [&] {
    for (size_t i; !out_of_memory && (i = next.fetch_add(1)) < chunks;) {
      try {
        fn(i);
      } catch (const std::bad_alloc&) {
        out_of_memory = true;
      }
    }
  };
  std::vector<std::jthread> pool;
  try {
    pool.reserve(threads);
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  } catch (const std::exception&) {  // std::system_error or std::bad_alloc: fewer threads
  }
  work();
  pool.clear();  // joins
  return !out_of_memory;
}

Result<CooMatrix> parse_text(std::string_view text, std::string_view name, const MatrixMarketReadOptions& options) {
  auto header = detail::parse_matrix_market_header(text, name);
  if (!header) return header.error();
  const MatrixMarketHeader& h = *header;
  auto out_of_memory = [&] {
    return make_error(Errc::out_of_host_memory, std::string(name) + ": out of host memory while parsing");
  };

  const char* const data = text.data() + h.data_begin;
  const char* const data_end = text.data() + text.size();
  const size_t chunk_bytes = options.chunk_bytes ? options.chunk_bytes : kDefaultChunkBytes;
  std::vector<Chunk> chunks = split(data, data_end, chunk_bytes);
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = unsigned(std::max<size_t>(1, std::min<size_t>(threads, chunks.size())));

  // Room for the entries: each needs a line that is neither blank nor a comment, and each
  // such line is an entry or an error, so chunk i's entries start where the lines before
  // it end and take at most its own lines, within the declared count: memory follows the
  // text, not the header. A text with fewer such lines than declared cannot succeed: it is
  // parsed without storing anything, for its first problem in file order.
  std::vector<int64_t> lines(chunks.size());
  for_each_chunk(chunks.size(), threads,
                 [&](size_t i) { lines[i] = entry_lines(chunks[i].begin, chunks[i].end); });
  int64_t text_entries = 0;
  for (int64_t n : lines) text_entries += n;
  const bool store = text_entries >= h.entries;
  int64_t capacity = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    chunks[i].first = capacity;
    chunks[i].limit = store ? std::min(lines[i], h.entries - capacity) : h.entries;
    if (store) capacity += chunks[i].limit;
  }

  CooMatrix m;
  m.rows = h.rows;
  m.cols = h.cols;
  m.field = h.field;
  m.symmetry = h.symmetry;
  try {
    m.row_indices.resize(size_t(capacity));
    m.col_indices.resize(size_t(capacity));
    if (h.field == Field::real) m.real_values.resize(size_t(capacity));
    if (h.field == Field::integer) m.integer_values.resize(size_t(capacity));
    if (h.field == Field::complex) m.complex_values.resize(size_t(capacity));
  } catch (const std::bad_alloc&) {
    return out_of_memory();
  }
  const Out out{m.row_indices.data(),    m.col_indices.data(),    m.real_values.data(),
                m.integer_values.data(), m.complex_values.data(), store};

  // Parse.
  std::mutex progress_mutex;
  uint64_t done_bytes = 0;
  const uint64_t total_bytes = uint64_t(data_end - data);
  const bool parsed = for_each_chunk(chunks.size(), threads, [&](size_t i) {
    parse_chunk(h, chunks[i], chunks[i].limit, out);
    if (options.progress) {
      std::lock_guard lock(progress_mutex);
      done_bytes += uint64_t(chunks[i].end - chunks[i].begin);
      options.progress(done_bytes, total_bytes);
    }
  });
  if (!parsed) return out_of_memory();

  // First problem in file order: a bad line, or an entry past the declared count.
  int64_t total = 0;
  for (Chunk& c : chunks) {
    // Past the declared count, any entry line (even a malformed one) is one too many:
    // re-parse the chunk with the remaining allowance to find which comes first.
    const bool at_limit = total + c.count > h.entries || (c.error_pos != nullptr && total + c.count == h.entries);
    if (c.too_many || at_limit) {
      c.count = 0;
      c.error_pos = nullptr;
      c.too_many = false;
      parse_chunk(h, c, h.entries - total, out);
    }
    if (c.error_pos != nullptr) {
      const size_t pos = size_t(c.error_pos - text.data());
      if (c.too_many)
        return detail::error_at(name, text, pos,
                                "expected no more entries (the size line declares " +
                                    std::to_string(h.entries) + "), found " +
                                    detail::describe_token(text, pos));
      return detail::expected_at(name, text, pos, c.error);
    }
    total += c.count;
  }
  if (total < h.entries)
    return detail::error_at(name, text, text.size(),
                            "expected " + std::to_string(h.entries) + " entries (from the size line), found " +
                                std::to_string(total) + ": the file ends early");

  // Close the gaps left by comment and blank lines (none in most large files).
  int64_t filled = 0;
  for (const Chunk& c : chunks) {
    if (c.first != filled && c.count > 0) {
      auto shift = [&](auto* a) {
        if (a) std::memmove(a + filled, a + c.first, size_t(c.count) * sizeof(*a));
      };
      shift(out.rows);
      shift(out.cols);
      shift(out.reals);
      shift(out.ints);
      shift(out.complexes);
    }
    filled += c.count;
  }
  m.row_indices.resize(size_t(total));
  m.col_indices.resize(size_t(total));
  if (h.field == Field::real) m.real_values.resize(size_t(total));
  if (h.field == Field::integer) m.integer_values.resize(size_t(total));
  if (h.field == Field::complex) m.complex_values.resize(size_t(total));
  if (capacity > total + total / 4 + 1024) {  // many comment lines: give the slack back
    m.row_indices.shrink_to_fit();
    m.col_indices.shrink_to_fit();
    m.real_values.shrink_to_fit();
    m.integer_values.shrink_to_fit();
    m.complex_values.shrink_to_fit();
  }

  if (!h.coordinate) {
    DenseCursor cursor{h.rows, h.cols, h.symmetry};
    cursor.start();
    for (size_t k = 0; k < size_t(total); ++k, cursor.advance()) {
      m.row_indices[k] = cursor.row;
      m.col_indices[k] = cursor.col;
    }
  }

  if (const auto o = detail::expand_and_sum(m, options.expand_symmetry, options.sum_duplicates))
    return overflow_error(h, text, name, *o);
  return m;
}

}  // namespace

Result<CooMatrix> parse_matrix_market(std::string_view text, std::string_view name,
                                      const MatrixMarketReadOptions& options) {
  return detail::no_throw(name, [&] { return parse_text(text, name, options); });
}

}  // namespace vkprim::sparse
