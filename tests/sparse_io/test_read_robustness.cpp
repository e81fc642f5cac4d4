// What the readers do with inputs that lie or break: corrupt Binsparse files (mutants read
// in child processes) give errors naming the file, never crashes; memory follows the bytes
// of the input, not its claims (checked under an address-space limit); no exception leaves
// the no-throw API; integers that do not fit int64 and stored types other than the
// declared ones are errors, never wrapped or clamped values.
#include "binsparse_samples.hpp"
#include "test_support.hpp"

#include <vkprim/sparse/binsparse.hpp>
#include <vkprim/sparse/matrix_market.hpp>

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include <fcntl.h>

using namespace vkprim;
using namespace vkprim::sparse;
using namespace vkprim::test;

namespace {

// The error of a read, or Errc::ok.
template <class T>
Error error_of(const Result<T>& r) {
  return r ? Error{Errc::ok, VK_SUCCESS, ""} : r.error();
}

// A deterministic corruption of `bytes`: bytes overwritten, a bit flipped, the file cut
// short, or an aligned field (an address, a size, a count) replaced by a random, small or
// in-file value.
std::string mutate(std::string bytes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t n = bytes.size();
  const size_t field = (rng() % (n / 8)) * 8;
  uint64_t value = rng();
  switch (rng() % 5) {
    case 0:
      for (uint64_t k = 1 + rng() % 4; k > 0; --k) bytes[rng() % n] = char(rng());
      break;
    case 1: bytes[rng() % n] = char(bytes[rng() % n] ^ (1 << (rng() % 8))); break;
    case 2: bytes.resize(rng() % n); break;
    case 3:
      if (rng() % 2) value &= 0xffff;
      std::memcpy(&bytes[field], &value, 1 + rng() % 8);
      break;
    default:
      value %= n;  // an address inside the file, pointing at the wrong structure
      std::memcpy(&bytes[field], &value, 8);
      break;
  }
  return bytes;
}

struct MutantCount {
  int read = 0, refused = 0, unnamed = 0;
  int crashed = 0, hung = 0;  // children (one per file) that died or ran past their time
  std::string first_failure;
};

// Reads `per_file` mutants of each file (from memory) in a child process per file. The child logs one
// byte per mutant read: 'r' read, 'e' refused with an error naming the file, 'u' an error
// without it; a child that dies leaves the log at the mutant that killed it.
MutantCount read_mutants(const std::vector<fs::path>& files, int per_file, const fs::path& work) {
  MutantCount count;
  const fs::path log = work / "mutants.log";
  for (size_t f = 0; f < files.size(); ++f) {
    const std::string original = read_text(files[f]);
    write_text(log, "");
    const ChildResult child = run_in_child(
        [&] {
          const int out = ::open(log.c_str(), O_WRONLY | O_APPEND);
          for (int i = 0; i < per_file; ++i) {
            const std::string bytes = mutate(original, (uint64_t(f) << 32) | uint64_t(i));
            auto r = parse_binsparse(std::as_bytes(std::span(bytes.data(), bytes.size())), "mutant",
                                     {true, true, int64_t(1) << 20});
            const char outcome = r ? 'r' : r.error().message.rfind("mutant: ", 0) == 0 ? 'e' : 'u';
            if (::write(out, &outcome, 1) != 1) return 2;
          }
          return 0;
        },
        uint64_t(1) << 30, 20 + unsigned(per_file) / 10);
    const std::string outcomes = read_text(log);
    count.read += int(std::count(outcomes.begin(), outcomes.end(), 'r'));
    count.refused += int(std::count(outcomes.begin(), outcomes.end(), 'e'));
    count.unnamed += int(std::count(outcomes.begin(), outcomes.end(), 'u'));
    const bool died = !child.exited || child.code != 0;
    count.crashed += died && child.signal != SIGALRM;
    count.hung += child.signal == SIGALRM;
    const size_t unnamed = outcomes.find('u');
    if (count.first_failure.empty() && (died || unnamed != std::string::npos))
      count.first_failure = files[f].filename().string() + " mutant " +
                            std::to_string(died ? outcomes.size() : unnamed) +
                            (died ? " (signal " + std::to_string(child.signal) + ")"
                                  : " (error without the file name)");
  }
  return count;
}

std::vector<fs::path> paths_of(const std::vector<BinsparseSample>& samples) {
  std::vector<fs::path> out;
  for (const BinsparseSample& s : samples) out.push_back(s.path);
  return out;
}

// A gzip stream (one member) of `head` followed by `count` copies of `line`.
std::string gzip_of_lines(const std::string& head, const std::string& line, size_t count) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out;
  char buffer[1 << 16];
  auto pump = [&](const char* data, size_t size, int flush) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    z.avail_in = uInt(size);
    do {
      z.next_out = reinterpret_cast<Bytef*>(buffer);
      z.avail_out = sizeof buffer;
      deflate(&z, flush);
      out.append(buffer, sizeof buffer - z.avail_out);
    } while (z.avail_out == 0);
  };
  pump(head.data(), head.size(), Z_NO_FLUSH);
  std::string block;
  for (size_t k = 0; k < (size_t(1) << 20); ++k) block += line;
  for (size_t left = count; left > 0;) {
    const size_t n = std::min<size_t>(left, size_t(1) << 20);
    left -= n;
    pump(block.data(), n * line.size(), left ? Z_NO_FLUSH : Z_FINISH);
  }
  deflateEnd(&z);
  return out;
}

const std::string kCooInt64 = R"("indices_0": "int64", "indices_1": "int64", "values": "int64")";

}  // namespace

TEST_CASE("Binsparse files in every accepted HDF5 form read as written", "[binsparse][robust]") {
  TempDir tmp("bsp_samples");
  for (const BinsparseSample& s : write_binsparse_samples(tmp.path)) {
    INFO(s.path.filename().string());
    auto r = read_binsparse(s.path);
    REQUIRE(r.ok());
    CHECK(identical(*r, s.expected));
    // The same bytes from memory.
    const std::string bytes = read_text(s.path);
    auto m = parse_binsparse(std::as_bytes(std::span(bytes.data(), bytes.size())), "image");
    REQUIRE(m.ok());
    CHECK(identical(*m, s.expected));
  }
}

TEST_CASE("corrupt Binsparse files give errors naming the file, never crashes", "[binsparse][robust]") {
  TempDir tmp("bsp_mutants");
  const MutantCount count = read_mutants(paths_of(write_binsparse_samples(tmp.path)), 1000, tmp.path);
  INFO("first failure: " << count.first_failure);
  CHECK(count.crashed == 0);
  CHECK(count.hung == 0);
  CHECK(count.unnamed == 0);
  CHECK(count.refused > 0);
}

// By hand: sparse_io_tests "[mutants]" (VKPRIM_MUTANTS per file, default 500), over the
// samples and the shared reference files.
TEST_CASE("Binsparse mutant campaign", "[.][mutants]") {
  TempDir tmp("bsp_campaign");
  std::vector<fs::path> files = paths_of(write_binsparse_samples(tmp.path));
  if (const fs::path shared = shared_dir(); !shared.empty() && fs::exists(shared / "binsparse-reference"))
    for (const auto& e : fs::recursive_directory_iterator(shared / "binsparse-reference"))
      if (e.path().extension() == ".h5") files.push_back(e.path());
  const char* env = std::getenv("VKPRIM_MUTANTS");
  const int per_file = env ? std::atoi(env) : 500;
  const MutantCount count = read_mutants(files, per_file, tmp.path);
  WARN(files.size() * size_t(per_file) << " mutants: " << count.read << " read, " << count.refused << " refused, "
                                       << count.crashed << " crashed, " << count.hung << " hung, " << count.unnamed
                                       << " errors without the file name; first failure: " << count.first_failure);
  CHECK(count.crashed + count.hung + count.unnamed == 0);
}

TEST_CASE("memory follows the input: gzip texts of short lines under a huge count", "[mm][robust][limits]") {
  TempDir tmp("gz_claim");
  const fs::path p = tmp.path / "claim.mtx.gz";
  // In 512 MiB of address space: the texts themselves (10^8 and 8 * 10^7 bytes) fit, arrays
  // sized by their line counts (24 bytes a line) would not.
  auto fails_as_expected = [&](const std::string& expected) {
    const ChildResult child = run_in_child(
        [&] {
          auto r = read_matrix_market(p);
          return !r.ok() && r.error().code == Errc::parse_error && r.error().message.find(expected) != std::string::npos
                     ? 0
                     : 1;
        },
        uint64_t(512) << 20);
    CHECK(child.exited);
    CHECK(child.code == 0);
  };
  // 97 KB of gzip: a header claiming 10^12 entries over 10^8 line ends.
  write_text(p, gzip_of_lines("%%MatrixMarket matrix coordinate real general\n1000000 1000000 1000000000000\n", "\n",
                              100'000'000));
  CHECK(fs::file_size(p) < 200'000);
  fails_as_expected("expected 1000000000000 entries (from the size line), found 0");
  // 4 * 10^7 values of a dense 10^6 x 10^6 matrix: each line an entry, but fewer lines than
  // declared, so nothing is stored before the error.
  write_text(p, gzip_of_lines("%%MatrixMarket matrix array real general\n1000000 1000000\n", "1\n", 40'000'000));
  CHECK(fs::file_size(p) < 200'000);
  fails_as_expected("expected 1000000000000 entries (from the size line), found 40000000");
}

TEST_CASE("memory follows the input: Binsparse datasets claiming unstored elements", "[binsparse][robust][limits]") {
  TempDir tmp("bsp_claim");
  const fs::path p = tmp.path / "claim.bsp.h5";
  const hsize_t n = hsize_t(1) << 27;
  samples::Layout chunked;
  chunked.chunk = hsize_t(1) << 20;
  samples::write(p, samples::descriptor("COO", "[1000, 1000]", int64_t(n), kCooInt64),
                 {{"indices_0", H5T_STD_I64LE, {}, {}, n},
                  {"indices_1", H5T_STD_I64LE, {}, {}, n},
                  {"values", H5T_STD_I64LE, {}, {}, n}},
                 chunked);
  CHECK(fs::file_size(p) < 20'000);
  const ChildResult child = run_in_child(
      [&] {
        auto r = read_binsparse(p);
        return !r.ok() && r.error().code == Errc::parse_error &&
                       r.error().message.find("claims 134217728 elements but the file stores only 0 bytes") !=
                           std::string::npos
                   ? 0
                   : 1;
      },
      uint64_t(512) << 20);
  CHECK(child.exited);
  CHECK(child.code == 0);

  // One chunk of four stored, deflated: few bytes may stand for many elements, but the
  // chunks HDF5 does not find would read as fill values.
  samples::Layout deflated;
  deflated.chunk = 2;
  deflated.filters = true;
  samples::write(p, samples::descriptor("DVEC", "[8]", 8, R"("values": "int64")"),
                 {{"values", H5T_STD_I64LE, {}, {}, 8}}, deflated);
  const hid_t f = H5Fopen(p.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t set = H5Dopen2(f, "values", H5P_DEFAULT);
  const hsize_t start[1] = {2}, count[1] = {2};
  const hid_t file_space = H5Dget_space(set);
  H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  const hid_t memory_space = H5Screate_simple(1, count, nullptr);
  const int64_t two[2] = {5, 6};
  H5Dwrite(set, H5T_NATIVE_INT64, memory_space, file_space, H5P_DEFAULT, two);
  H5Sclose(memory_space);
  H5Sclose(file_space);
  H5Dclose(set);
  H5Fclose(f);
  CHECK(error_of(read_binsparse(p)).message == p.string() + ": dataset 'values' stores 1 of its 4 chunks");
}

TEST_CASE("Binsparse chunks that do not decode to a chunk's bytes are errors", "[binsparse][robust]") {
  // libhdf5 1.10 would copy a whole chunk out of a shorter inflated buffer; the reader
  // undoes the filters itself and checks every step.
  TempDir tmp("bsp_chunks");
  const fs::path p = tmp.path / "c.bsp.h5";
  auto write_chunk = [&](bool deflate, bool fletcher32, const std::string& stored) {
    samples::write(p, samples::descriptor("DVEC", "[8]", 8, R"("values": "int64")"),
                   {{"values", H5T_STD_I64LE, {}, {}, 8}});
    // Recreated chunked (one chunk of 8 elements) with the filters, then the chunk's stored
    // bytes written as they are.
    const hid_t f = H5Fopen(p.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "values", H5P_DEFAULT);
    const hsize_t dims[1] = {8}, offset[1] = {0};
    const hid_t space = H5Screate_simple(1, dims, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, dims);
    if (deflate) H5Pset_deflate(dcpl, 6);
    if (fletcher32) H5Pset_fletcher32(dcpl);
    const hid_t set = H5Dcreate2(f, "values", H5T_STD_I64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dwrite_chunk(set, H5P_DEFAULT, 0, offset, stored.size(), stored.data());
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Fclose(f);
    return error_of(read_binsparse(p)).message;
  };
  auto zlib = [](size_t bytes) {
    const std::string plain(bytes, '\7');
    std::string z(compressBound(uLong(bytes)), '\0');
    uLongf size = uLongf(z.size());
    compress2(reinterpret_cast<Bytef*>(z.data()), &size, reinterpret_cast<const Bytef*>(plain.data()),
              uLong(plain.size()), 6);
    z.resize(size);
    return z;
  };
  CHECK(write_chunk(true, false, zlib(64)) == "");  // 8 int64: exactly the chunk
  CHECK(write_chunk(true, false, zlib(3)).find("deflated chunk does not inflate to its size") != std::string::npos);
  CHECK(write_chunk(true, false, zlib(150)).find("deflated chunk does not inflate to its size") != std::string::npos);
  CHECK(write_chunk(true, false, "not zlib").find("deflated chunk") != std::string::npos);
  CHECK(write_chunk(true, true, "ab").find("chunk shorter than its fletcher32 checksum") != std::string::npos);
  CHECK(write_chunk(false, true, std::string(68, '\1')).find("fletcher32 checksum mismatch") != std::string::npos);
  CHECK(write_chunk(false, false, std::string(70, '\1')).find("a chunk of 70 bytes, expected 64") !=
        std::string::npos);
}

TEST_CASE("memory follows the input: an iso dense Binsparse matrix of 10^8 entries", "[binsparse][robust][limits]") {
  TempDir tmp("bsp_iso");
  const fs::path p = tmp.path / "iso.bsp.h5";
  samples::write(p, samples::descriptor("DMAT", "[10000, 10000]", 100'000'000, R"("values": "iso[float64]")"),
                 {{"values", H5T_IEEE_F64LE, {}, {1.0}}});
  CHECK(fs::file_size(p) < 20'000);
  const ChildResult child = run_in_child(
      [&] {
        auto r = read_binsparse(p);
        return !r.ok() && r.error().code == Errc::limit_exceeded &&
                       r.error().message.find("max_dense_entries") != std::string::npos
                   ? 0
                   : 1;
      },
      uint64_t(512) << 20);
  CHECK(child.exited);
  CHECK(child.code == 0);

  // The limit is the caller's: lowered, it refuses a small matrix; raised, it reads it.
  samples::write(p, samples::descriptor("DMAT", "[300, 200]", 60'000, R"("values": "iso[float64]")"),
                 {{"values", H5T_IEEE_F64LE, {}, {2.5}}});
  BinsparseReadOptions o;
  o.max_dense_entries = 1000;
  CHECK(error_of(read_binsparse(p, o)).code == Errc::limit_exceeded);
  o.max_dense_entries = 60'000;
  auto m = read_binsparse(p, o);
  REQUIRE(m.ok());
  CHECK(m->nnz() == 60'000);
  CHECK(m->real_values.back() == 2.5);
}

TEST_CASE("a Binsparse descriptor larger than 1 MiB is refused before it is parsed", "[binsparse][robust][limits]") {
  TempDir tmp("bsp_json");
  const fs::path p = tmp.path / "j.bsp.h5";
  const std::string padding = R"(, "padding": [)" + std::string(size_t(1) << 20, '[') + "]";
  samples::Layout vlen;  // in the global heap: a fixed-length one cannot exceed 64 KiB
  vlen.vlen = true;
  samples::write(p, samples::descriptor("DVEC", "[1]", 1, R"("values": "int64")", padding),
                 {{"values", H5T_STD_I64LE, {5}, {}}}, vlen);
  CHECK(error_of(read_binsparse(p)).message.find("more than a descriptor may (1 MiB)") != std::string::npos);
}

TEST_CASE("a 2^61-row matrix is an error, never an exception", "[robust]") {
  TempDir tmp("huge");
  const fs::path p = tmp.path / "huge.bsp.h5";
  const int64_t rows = int64_t(1) << 61;
  // An iso dense column of 2^61 entries: past any limit, and past what a vector can hold.
  samples::write(p, samples::descriptor("DMAT", "[2305843009213693952, 1]", rows, R"("values": "iso[float64]")"),
                 {{"values", H5T_IEEE_F64LE, {}, {1.0}}});
  CHECK(error_of(read_binsparse(p)).code == Errc::limit_exceeded);
  BinsparseReadOptions unlimited;
  unlimited.max_dense_entries = INT64_MAX;
  const Error e = error_of(read_binsparse(p, unlimited));
  CHECK(e.code == Errc::out_of_host_memory);
  CHECK(e.message.rfind(p.string(), 0) == 0);

  // Few entries in a huge shape read fine; CSR of it does not fit, and says so.
  samples::write(p, samples::descriptor("COO", "[2305843009213693952, 2305843009213693952]", 2, kCooInt64),
                 {{"indices_0", H5T_STD_I64LE, {rows - 1, 0}, {}},
                  {"indices_1", H5T_STD_I64LE, {5, rows - 1}, {}},
                  {"values", H5T_STD_I64LE, {1, 2}, {}}});
  BinsparseReadOptions sum;
  sum.sum_duplicates = true;
  auto m = read_binsparse(p, sum);
  REQUIRE(m.ok());
  CHECK(m->row_indices == std::vector<int64_t>{0, rows - 1});
  CHECK(error_of(to_csr(*m, false)).code == Errc::out_of_host_memory);
  m->rows = INT64_MAX;
  CHECK(error_of(to_csr(*m, true)).code == Errc::out_of_host_memory);
  auto text =
      parse_matrix_market("%%MatrixMarket matrix coordinate real general\n2305843009213693952 3 1\n1 1 1\n", "t.mtx");
  REQUIRE(text.ok());
  CHECK(error_of(to_csr(*text, false)).code == Errc::out_of_host_memory);
}

TEST_CASE("integer sums and skew mirrors that leave int64 are errors, never wrapped", "[robust][overflow]") {
  MatrixMarketReadOptions sum;
  sum.sum_duplicates = true;
  MatrixMarketReadOptions expand;
  expand.expand_symmetry = true;
  MatrixMarketReadOptions both = sum;
  both.expand_symmetry = true;

  SECTION("Matrix Market: the error names the line") {
    const std::string dup = "%%MatrixMarket matrix coordinate integer general\n2 2 3\n1 1 9223372036854775807\n"
                            "2 2 1\n1 1 1\n";
    CHECK(error_of(parse_matrix_market(dup, "t.mtx", sum)).message ==
          "t.mtx:5: expected an integer value that keeps the sum of the duplicates at (1, 1) in the signed 64-bit "
          "range (the sum starts at line 3), found '1'");
    CHECK(parse_matrix_market(dup, "t.mtx").ok());  // duplicates kept: nothing to sum
    const std::string skew = "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 5\n"
                             "3 1 -9223372036854775808\n";
    CHECK(error_of(parse_matrix_market(skew, "t.mtx", expand)).message ==
          "t.mtx:4: expected an integer value whose skew-symmetric mirror (its negation) fits the signed 64-bit "
          "range, found '-9223372036854775808'");
    auto kept = parse_matrix_market(skew, "t.mtx");  // stored as is, not mirrored
    REQUIRE(kept.ok());
    CHECK(kept->integer_values[1] == INT64_MIN);
    // (2, 1) = -2^63 + 1 mirrors to (1, 2) = 2^63 - 1, which the stored (1, 2) = 1 overflows.
    const std::string mirrored = "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 2\n"
                                 "2 1 -9223372036854775807\n1 2 1\n";
    CHECK(error_of(parse_matrix_market(mirrored, "t.mtx", both)).message ==
          "t.mtx:4: expected an integer value that keeps the sum of the duplicates at (1, 2) in the signed 64-bit "
          "range (the sum starts at line 3, mirrored), found '1'");
    // Negative overflow, and reals (IEEE: inf) unaffected.
    CHECK(error_of(parse_matrix_market("%%MatrixMarket matrix coordinate integer general\n1 1 2\n"
                                       "1 1 -9223372036854775808\n1 1 -1\n",
                                       "t.mtx", sum))
              .code == Errc::parse_error);
    auto real = parse_matrix_market("%%MatrixMarket matrix coordinate real general\n1 1 2\n1 1 1e308\n1 1 1e308\n",
                                    "t.mtx", sum);
    REQUIRE(real.ok());
    CHECK(real->real_values[0] == INFINITY);
  }
  SECTION("the COO calls refuse and leave the matrix unchanged") {
    CooMatrix m = samples::matrix(2, 2, {1, 1, 0}, {0, 0, 1}, {}, {INT64_MAX, 1, 3});
    const CooMatrix before = m;
    CHECK(error_of(sum_duplicates(m)).code == Errc::invalid_argument);
    CHECK(identical(m, before));
    CHECK(error_of(to_csr(m, true)).code == Errc::invalid_argument);
    CHECK(to_csr(m, false).ok());
    m.symmetry = Symmetry::skew_symmetric;
    m.integer_values = {INT64_MIN, 1, 3};
    const CooMatrix skew = m;
    CHECK(error_of(expand_symmetry(m)).code == Errc::invalid_argument);
    CHECK(identical(m, skew));
    m.row_indices[0] = m.col_indices[0] = 1;  // on the diagonal: not mirrored, accepted
    CHECK(expand_symmetry(m).ok());
  }
  SECTION("Binsparse: the error names the file and the entries") {
    TempDir tmp("bsp_overflow");
    const fs::path p = tmp.path / "o.bsp.h5";
    samples::write(p, samples::descriptor("COO", "[3, 3]", 3, kCooInt64),
                   {{"indices_0", H5T_STD_I64LE, {1, 0, 1}, {}},
                    {"indices_1", H5T_STD_I64LE, {1, 2, 1}, {}},
                    {"values", H5T_STD_I64LE, {INT64_MAX, 7, 1}, {}}});
    BinsparseReadOptions o;
    CHECK(read_binsparse(p, o).ok());
    o.sum_duplicates = true;
    CHECK(error_of(read_binsparse(p, o)).message ==
          p.string() + ": the duplicates at (1, 1) (entry 0 and entry 2) sum beyond the signed 64-bit range");
    // A skew-symmetric upper triangle holds the negated lower one: -2^63 has no negation.
    samples::write(p, samples::descriptor("COO", "[3, 3]", 2, kCooInt64, R"(, "structure": "skew_symmetric_upper")"),
                   {{"indices_0", H5T_STD_I64LE, {0, 1}, {}},
                    {"indices_1", H5T_STD_I64LE, {1, 2}, {}},
                    {"values", H5T_STD_I64LE, {4, INT64_MIN}, {}}});
    CHECK(error_of(read_binsparse(p)).message.find(p.string() + ": entry 1 of the skew-symmetric upper triangle "
                                                                "holds -2^63") == 0);
    samples::write(p, samples::descriptor("COO", "[3, 3]", 1, kCooInt64, R"(, "structure": "skew_symmetric_lower")"),
                   {{"indices_0", H5T_STD_I64LE, {2}, {}},
                    {"indices_1", H5T_STD_I64LE, {1}, {}},
                    {"values", H5T_STD_I64LE, {INT64_MIN}, {}}});
    CHECK(read_binsparse(p).ok());
    CHECK(error_of(read_binsparse(p, {true, false})).message ==
          p.string() + ": entry 0 holds -2^63, whose skew-symmetric mirror (its negation) does not fit the signed "
                       "64-bit range");
  }
}

TEST_CASE("a Binsparse dataset must store the type its descriptor declares", "[binsparse][robust][types]") {
  TempDir tmp("bsp_types");
  const fs::path p = tmp.path / "t.bsp.h5";
  auto write_values = [&](const std::string& declared, hid_t stored, std::vector<int64_t> ints,
                          std::vector<double> reals = {}) {
    samples::write(p, samples::descriptor("DVEC", "[2]", 2, R"("values": ")" + declared + R"(")"),
                   {{"values", stored, std::move(ints), std::move(reals)}});
    return error_of(read_binsparse(p));
  };
  // uint64 max stored where int64 is declared: never clamped to INT64_MAX.
  CHECK(write_values("int64", H5T_STD_U64LE, {-1, 0}).message ==
        p.string() + ": dataset 'values' stores uint64 values, but data_types declares int64");
  // Declared and stored uint64, above INT64_MAX: vkprim's integers are int64.
  CHECK(write_values("uint64", H5T_STD_U64LE, {3, -1}).message ==
        p.string() + ": dataset 'values' holds 18446744073709551615 at element 1, expected a value in the signed "
                     "64-bit range");
  // -5 stored where uint8 is declared: never clamped to 0.
  CHECK(write_values("uint8", H5T_STD_I64LE, {-5, 1}).message ==
        p.string() + ": dataset 'values' stores int64 values, but data_types declares uint8");
  CHECK(write_values("float32", H5T_IEEE_F64LE, {}, {0.1, 2}).message ==
        p.string() + ": dataset 'values' stores float64 values, but data_types declares float32");
  CHECK(write_values("int32", H5T_IEEE_F64LE, {}, {0.5, 2}).code == Errc::parse_error);
  CHECK(write_values("uint16", H5T_STD_U16BE, {65535, 1}).code == Errc::ok);  // either byte order

  // Indices: negative or past the shape, whatever their type.
  auto write_coo = [&](const std::string& index_type, hid_t stored, std::vector<int64_t> rows) {
    const std::string types = R"("indices_0": ")" + index_type + R"(", "indices_1": "int64", "values": "int64")";
    samples::write(p, samples::descriptor("COO", "[3, 3]", 2, types),
                   {{"indices_0", stored, std::move(rows), {}},
                    {"indices_1", H5T_STD_I64LE, {0, 1}, {}},
                    {"values", H5T_STD_I64LE, {1, 2}, {}}});
    return error_of(read_binsparse(p));
  };
  CHECK(write_coo("int64", H5T_STD_I64LE, {0, -1}).message ==
        p.string() + ": dataset 'indices_0' holds -1 at element 1, expected a row index in 0..2");
  CHECK(write_coo("uint32", H5T_STD_I32LE, {0, 1}).message ==
        p.string() + ": dataset 'indices_0' stores int32 values, but data_types declares uint32");
  CHECK(write_coo("uint8", H5T_STD_U8LE, {0, 3}).message ==
        p.string() + ": dataset 'indices_0' holds 3 at element 1, expected a row index in 0..2");
  CHECK(write_coo("uint8", H5T_STD_U8LE, {0, 2}).code == Errc::ok);
}
