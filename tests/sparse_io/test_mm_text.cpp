// Matrix Market reader and writer on generated texts: line endings, errors with their
// lines, headers that lie, gzip, and exact round trips.
#include "test_support.hpp"

#include <vkprim/sparse/matrix_market.hpp>

#include <zlib.h>

#include <random>
#include <vector>

using namespace vkprim;
using namespace vkprim::sparse;
using namespace vkprim::test;

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t i = 0; (i = s.find(from, i)) != std::string::npos; i += to.size()) s.replace(i, from.size(), to);
  return s;
}

Result<CooMatrix> parse(const std::string& text, size_t chunk = 0, unsigned threads = 0) {
  MatrixMarketReadOptions o;
  o.chunk_bytes = chunk;
  o.threads = threads;
  return parse_matrix_market(text, "t.mtx", o);
}

std::string error_of(const std::string& text) {
  auto r = parse(text);
  return r ? std::string("(no error)") : r.error().message;
}

// A random matrix: duplicates, explicit zeros, awkward doubles (subnormals, NaN, inf, -0).
CooMatrix random_matrix(uint32_t seed, Field field, int64_t rows, int64_t cols, int64_t nnz) {
  std::mt19937_64 rng(seed);
  CooMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.field = field;
  const double specials[] = {0.0, -0.0, 1e-310, -4.9e-324, 1.7976931348623157e308, INFINITY, -INFINITY,
                             NAN, 0.1, 1.0 / 3.0, 123456789.0};
  for (int64_t k = 0; k < nnz; ++k) {
    m.row_indices.push_back(int64_t(rng() % uint64_t(rows)));
    m.col_indices.push_back(int64_t(rng() % uint64_t(cols)));
    if (field == Field::real) {
      const uint64_t pick = rng() % 16;
      m.real_values.push_back(pick < 11 ? specials[pick] : std::ldexp(double(int64_t(rng())), int(rng() % 200) - 100));
    } else if (field == Field::integer) {
      const uint64_t pick = rng() % 4;
      m.integer_values.push_back(pick == 0 ? INT64_MIN : pick == 1 ? INT64_MAX : int64_t(rng()));
    }
  }
  return m;
}

std::string written(const CooMatrix& m, RealPrecision precision = RealPrecision::f64) {
  std::ostringstream out;
  REQUIRE(write_matrix_market(m, out, {precision}).ok());
  return out.str();
}

}  // namespace

TEST_CASE("line endings: LF, CRLF and CR give the same matrix and the same error lines", "[mm]") {
  const std::string lf =
      "%%MatrixMarket matrix coordinate real general\n% comment\n\n3 4 3\n1 1 1.5\n\n% mid\n2 4 -2\n3 2 1e3\n";
  const auto a = parse(lf).value();
  for (const std::string eol : {"\r\n", "\r"}) {
    const std::string text = replace_all(lf, "\n", eol);
    for (size_t chunk : {0, 1, 2, 7}) {
      auto b = parse(text, chunk, 2);
      REQUIRE(b.ok());
      CHECK(identical(*b, a));
    }
    const std::string bad = replace_all(replace_all(lf, "2 4 -2", "2 5 -2"), "\n", eol);
    CHECK(error_of(bad) == "t.mtx:8: expected a column index in 1..4, found '5'");
  }
  CHECK(a.row_indices == std::vector<int64_t>{0, 1, 2});
  CHECK(a.real_values == std::vector<double>{1.5, -2, 1000});
}

TEST_CASE("errors name the file, the line and what was expected", "[mm][errors]") {
  const std::string head = "%%MatrixMarket matrix coordinate integer general\n2 2 2\n";
  CHECK(error_of("") == "t.mtx:1: expected banner '%%MatrixMarket', found end of file");
  CHECK(error_of("%%MatrixMarket matrix coordinate real general extra\n") ==
        "t.mtx:1: expected end of the banner line, found 'extra'");
  CHECK(error_of(head + "1 1 1\n0 2 1\n") == "t.mtx:4: expected a row index in 1..2, found '0'");
  CHECK(error_of(head + "1 1 1\n-1 2 1\n") == "t.mtx:4: expected a row index in 1..2, found '-1'");
  CHECK(error_of(head + "1 1 1\n1 3 1\n") == "t.mtx:4: expected a column index in 1..2, found '3'");
  CHECK(error_of(head + "1 1 1\n1 2 1.5\n") ==
        "t.mtx:4: expected an integer value in the signed 64-bit range, found '1.5'");
  CHECK(error_of(head + "1 1 1\n1 2 x\n") ==
        "t.mtx:4: expected an integer value in the signed 64-bit range, found 'x'");
  CHECK(error_of(head + "1 1 1 7\n") == "t.mtx:3: expected end of line after the entry, found '7'");
  CHECK(error_of(head + "1 1 1\n") == "t.mtx:4: expected 2 entries (from the size line), found 1: the file ends early");
  CHECK(error_of(head + "1 1 1\n2 2 2\n1 2 3\n") ==
        "t.mtx:5: expected no more entries (the size line declares 2), found '1'");
  // Past the declared count even a malformed line is "one too many", whatever the chunking
  // (found by the fuzzer).
  for (size_t chunk : {0, 1, 3, 8}) {
    auto r = parse(head + "1 1 1\n2 2 2\nzz\n", chunk, 2);
    CHECK(r.error().message == "t.mtx:5: expected no more entries (the size line declares 2), found 'zz'");
  }
  CHECK(error_of("%%MatrixMarket matrix coordinate real general\n2 2\n") ==
        "t.mtx:2: expected number of entries (an integer >= 0), found end of line");
  CHECK(error_of("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1.0e\n") ==
        "t.mtx:3: expected a real value, found '1.0e'");
  CHECK(error_of("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n") ==
        "t.mtx:6: expected 4 entries (from the size line), found 3: the file ends early");
  CHECK(error_of("%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n") ==
        "t.mtx:2: expected a square matrix for symmetry 'symmetric', found 2 x 3");
  CHECK(error_of("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1\n") ==
        "t.mtx:3: expected the imaginary part of a complex value, found end of line");
  CHECK(parse(head + "1 1 1\n0 2 1\n").error().code == Errc::parse_error);
  auto missing = read_matrix_market("/nonexistent/dir/x.mtx");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == Errc::io_error);
  CHECK(missing.error().message.find("/nonexistent/dir/x.mtx") == 0);
}

TEST_CASE("a header that lies about its size allocates only what the text holds", "[mm][limits]") {
  const std::string coordinate = "%%MatrixMarket matrix coordinate real general\n1000000 1000000 1000000000000\n1 1 1\n2 2 2\n";
  const std::string dense = "%%MatrixMarket matrix array real general\n1000000 1000000\n1\n2\n";
  const std::string overflow = "%%MatrixMarket matrix array real general\n9223372036854775807 9223372036854775807\n";
  // In a child limited to 256 MiB of address space, so a reservation sized by the header fails.
  for (const std::string& text : {coordinate, dense, overflow}) {
    const ChildResult child = run_in_child(
        [&] {
          auto r = parse(text, 0, 1);
          return !r.ok() && r.error().code == Errc::parse_error ? 0 : 1;
        },
        uint64_t(256) << 20);
    CHECK(child.exited);
    CHECK(child.code == 0);
  }
  CHECK(error_of(coordinate) == "t.mtx:5: expected 1000000000000 entries (from the size line), found 2: the file ends early");
  CHECK(error_of(overflow) == "t.mtx:2: expected at most 2^63 - 1 array values, found a larger size");
}

TEST_CASE("writer: exact round trips for integer, pattern and real matrices", "[mm][write]") {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    for (Field field : {Field::real, Field::integer, Field::pattern}) {
      const CooMatrix m = random_matrix(seed, field, 1 + seed * 37, 1 + seed * 11, 2000);
      const std::string text = written(m);
      for (size_t chunk : {0, 13}) {
        auto back = parse(text, chunk, 2);
        REQUIRE(back.ok());
        CHECK(identical(*back, m));
      }
    }
  }
  SECTION("symmetric metadata and shortest decimals") {
    CooMatrix m;
    m.rows = m.cols = 3;
    m.symmetry = Symmetry::skew_symmetric;
    m.row_indices = {1, 2};
    m.col_indices = {0, 1};
    m.real_values = {0.1, -2.5e-300};
    const std::string text = written(m);
    CHECK(text == "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 0.1\n3 2 -2.5e-300\n");
    CHECK(identical(parse(text).value(), m));
  }
  SECTION("f32 precision prints the shortest float") {
    CooMatrix m;
    m.rows = m.cols = 1;
    m.row_indices = m.col_indices = {0};
    m.real_values = {0.1};
    CHECK(written(m, RealPrecision::f32).find("\n1 1 0.1\n") != std::string::npos);
    CHECK(float(parse(written(m, RealPrecision::f32)).value().real_values[0]) == 0.1f);  // reads back to the same float
  }
  SECTION("invalid matrices are refused") {
    CooMatrix m;
    m.rows = 2;
    m.cols = 2;
    m.row_indices = {2};
    m.col_indices = {0};
    m.real_values = {1};
    std::ostringstream out;
    CHECK(write_matrix_market(m, out).error().code == Errc::invalid_argument);
  }
}

TEST_CASE("gzip: written and read back; corrupt data is an error", "[mm][gzip]") {
  TempDir dir("gzip");
  const CooMatrix m = random_matrix(7, Field::real, 50, 60, 5000);
  REQUIRE(write_matrix_market(m, dir.path / "a.mtx.gz").ok());
  const std::string gz = read_text(dir.path / "a.mtx.gz");
  CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);
  CHECK(identical(read_matrix_market(dir.path / "a.mtx.gz").value(), m));
  // Same bytes under a name without .gz: detected by content.
  write_text(dir.path / "renamed.mtx", gz);
  CHECK(identical(read_matrix_market(dir.path / "renamed.mtx").value(), m));
  // Two concatenated gzip members read as one text.
  REQUIRE(write_matrix_market(m, dir.path / "plain.mtx").ok());
  const std::string plain = read_text(dir.path / "plain.mtx");
  for (size_t cut : {size_t(40), plain.size() / 2}) {
    gzFile f = gzopen((dir.path / "two.gz").c_str(), "wb");
    gzwrite(f, plain.data(), unsigned(cut));
    gzclose(f);
    f = gzopen((dir.path / "two.gz").c_str(), "ab");
    gzwrite(f, plain.data() + cut, unsigned(plain.size() - cut));
    gzclose(f);
    CHECK(identical(read_matrix_market(dir.path / "two.gz").value(), m));
  }
  write_text(dir.path / "cut.mtx.gz", gz.substr(0, gz.size() / 2));
  auto cut = read_matrix_market(dir.path / "cut.mtx.gz");
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.error().code == Errc::parse_error);
  CHECK(cut.error().message.find("gzip") != std::string::npos);
}

TEST_CASE("stream input and progress reporting", "[mm]") {
  const CooMatrix m = random_matrix(3, Field::integer, 100, 100, 20000);
  std::istringstream in(written(m));
  CHECK(identical(read_matrix_market(in, "stdin").value(), m));

  uint64_t last = 0, total = 0;
  int calls = 0;
  MatrixMarketReadOptions o;
  o.chunk_bytes = 4096;
  o.threads = 2;
  o.progress = [&](uint64_t done, uint64_t all) {
    CHECK(done > last);
    last = done;
    total = all;
    ++calls;
  };
  REQUIRE(parse_matrix_market(written(m), "t.mtx", o).ok());
  CHECK(calls > 10);
  CHECK(last == total);
}
