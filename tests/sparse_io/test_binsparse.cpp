// Binsparse: every file of shared/binsparse-reference/ (written by Finch.jl) against its
// Matrix Market source; our own files written in each format and read back.
#include "test_support.hpp"

#include <vkprim/sparse/binsparse.hpp>
#include <vkprim/sparse/matrix_market.hpp>

#include <hdf5.h>

using namespace vkprim;
using namespace vkprim::sparse;
using namespace vkprim::test;

namespace {

// The reference .mtx of a vector (VEC/DVEC folders) has a 'matrix' banner over a vector's
// size line ("n nnz"); it is read as the vector it is.
CooMatrix read_reference_mtx(const fs::path& p, bool vector) {
  std::string text = read_text(p);
  if (vector) text.replace(text.find("matrix"), 6, "vector");
  return parse_matrix_market(text, p.string()).value();
}

// Writes an HDF5 file holding only the given descriptor (and optional int64 datasets).
void write_raw(const fs::path& p, const std::string& json, const std::map<std::string, std::vector<int64_t>>& sets = {}) {
  hid_t f = H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);  // variable-length: the other string form a peer may use
  hid_t s = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(f, "binsparse", t, s, H5P_DEFAULT, H5P_DEFAULT);
  const char* text = json.c_str();
  H5Awrite(a, t, &text);
  H5Aclose(a);
  H5Sclose(s);
  H5Tclose(t);
  for (const auto& [name, v] : sets) {
    hsize_t dims[1] = {v.size()};
    hid_t sp = H5Screate_simple(1, dims, nullptr);
    hid_t d = H5Dcreate2(f, name.c_str(), H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Dclose(d);
    H5Sclose(sp);
  }
  H5Fclose(f);
}

}  // namespace

TEST_CASE("every Binsparse reference file equals its Matrix Market source", "[binsparse][shared]") {
  VKPRIM_REQUIRE_SHARED("binsparse-reference");
  size_t files = 0;
  for (const auto& dir : fs::directory_iterator(shared_data / "binsparse-reference")) {
    if (!dir.is_directory()) continue;
    fs::path h5, mtx;
    for (const auto& e : fs::directory_iterator(dir.path()))
      (e.path().extension() == ".h5" ? h5 : mtx) = e.path();
    INFO(h5.string());
    const bool vector = dir.path().filename().string().find("VEC") != std::string::npos;
    const CooMatrix expected = read_reference_mtx(mtx, vector);
    const CooMatrix got = read_binsparse(h5).value();
    CHECK(got.rows == expected.rows);
    CHECK(got.cols == expected.cols);
    CHECK(got.field == expected.field);
    CHECK(as_map(got) == as_map(expected));  // dense formats store zeros too
    const bool dense = h5.string().find("DMAT") != std::string::npos || h5.string().find("DVEC") != std::string::npos;
    if (!dense) CHECK(got.nnz() == expected.nnz());
    ++files;
  }
  CHECK(files == 20);
}

TEST_CASE("Binsparse written from each reference .mtx reads back identically", "[binsparse][shared]") {
  VKPRIM_REQUIRE_SHARED("binsparse-reference");
  TempDir tmp("bsp_ref");
  for (const auto& dir : fs::directory_iterator(shared_data / "binsparse-reference")) {
    if (!dir.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(dir.path())) {
      if (e.path().extension() != ".mtx") continue;
      const bool vector = dir.path().filename().string().find("VEC") != std::string::npos;
      const CooMatrix m = read_reference_mtx(e.path(), vector);
      for (auto format : {BinsparseFormat::coo, BinsparseFormat::csr, BinsparseFormat::csc}) {
        for (auto index : {IndexWidth::i32, IndexWidth::i64}) {
          INFO(e.path().string() << " format " << int(format) << " index " << int(index));
          const fs::path out = tmp.path / "out.bsp.h5";
          REQUIRE(write_binsparse(m, out, {format, index}).ok());
          CooMatrix back = read_binsparse(out).value();
          if (format == BinsparseFormat::coo) {
            CHECK(identical(back, m));
          } else {
            CooMatrix sorted = m;
            REQUIRE(sum_duplicates(sorted).ok());  // no duplicates in these sources: only sorts
            REQUIRE(sum_duplicates(back).ok());
            CHECK(identical(back, sorted));
          }
        }
      }
    }
  }
}

TEST_CASE("Binsparse round trips: fields, iso pattern, symmetry, precision", "[binsparse]") {
  TempDir tmp("bsp");
  const fs::path out = tmp.path / "m.bsp.h5";
  CooMatrix m;
  m.rows = 4;
  m.cols = 4;
  m.row_indices = {3, 1, 2, 3, 1};
  m.col_indices = {0, 1, 1, 0, 0};  // (3,0) twice: duplicates are kept
  m.real_values = {0.1, -2, 0, 1e300, 5};

  SECTION("real, f64 and f32") {
    REQUIRE(write_binsparse(m, out, {BinsparseFormat::coo}).ok());
    CHECK(identical(read_binsparse(out).value(), m));
    REQUIRE(write_binsparse(m, out, {BinsparseFormat::coo, IndexWidth::i64, RealPrecision::f32}).ok());
    const CooMatrix f = read_binsparse(out).value();
    CHECK(f.real_values[0] == double(0.1f));
    CHECK(f.real_values[3] == INFINITY);  // 1e300 does not fit a float
  }
  SECTION("integer and pattern (iso[bint8])") {
    CooMatrix i = m;
    i.field = Field::integer;
    i.real_values.clear();
    i.integer_values = {INT64_MIN, -1, 0, INT64_MAX, 7};
    REQUIRE(write_binsparse(i, out, {BinsparseFormat::coo}).ok());
    CHECK(identical(read_binsparse(out).value(), i));
    CooMatrix p = m;
    p.field = Field::pattern;
    p.real_values.clear();
    REQUIRE(write_binsparse(p, out, {BinsparseFormat::coo}).ok());
    CHECK(identical(read_binsparse(out).value(), p));
  }
  SECTION("symmetric structures: lower kept, upper mirrored to lower, both refused") {
    CooMatrix s = m;
    s.symmetry = Symmetry::skew_symmetric;
    REQUIRE(write_binsparse(s, out, {BinsparseFormat::csr}).ok());
    CooMatrix back = read_binsparse(out).value();
    CHECK(back.symmetry == Symmetry::skew_symmetric);
    CooMatrix upper = s;
    transpose(upper);
    // The same skew matrix with its upper triangle stored: off-diagonal values negated.
    for (size_t k = 0; k < upper.real_values.size(); ++k)
      if (upper.row_indices[k] != upper.col_indices[k]) upper.real_values[k] = -upper.real_values[k];
    REQUIRE(write_binsparse(upper, out, {BinsparseFormat::coo}).ok());
    back = read_binsparse(out).value();
    CHECK(identical(back, s));
    BinsparseReadOptions expand;
    expand.expand_symmetry = true;
    CooMatrix full = s;
    REQUIRE(expand_symmetry(full).ok());
    CHECK(identical(read_binsparse(out, expand).value(), full));
    CooMatrix both = s;
    both.row_indices.push_back(0);
    both.col_indices.push_back(3);
    both.real_values.push_back(1);
    CHECK(write_binsparse(both, out).error().code == Errc::invalid_argument);
  }
  SECTION("32-bit indices refuse what does not fit") {
    CooMatrix big = m;
    big.rows = int64_t(1) << 33;
    CHECK(write_binsparse(big, out, {BinsparseFormat::coo, IndexWidth::i32}).error().code == Errc::invalid_argument);
    REQUIRE(write_binsparse(big, out, {BinsparseFormat::coo, IndexWidth::i64}).ok());
    CHECK(identical(read_binsparse(out).value(), big));
  }
}

TEST_CASE("Binsparse errors are clear", "[binsparse][errors]") {
  TempDir tmp("bsp_err");
  const fs::path p = tmp.path / "x.bsp.h5";
  auto error_of = [&](const fs::path& f) {
    auto r = read_binsparse(f);
    return r ? Error{Errc::ok, VK_SUCCESS, ""} : r.error();
  };
  CHECK(error_of(tmp.path / "missing.h5").code == Errc::io_error);
  write_text(p, "%%MatrixMarket matrix coordinate real general\n1 1 0\n");
  CHECK(error_of(p).message == p.string() + ": not an HDF5 file");
  const std::string coo = R"({"binsparse": {"version": "0.1", "format": "COO", "shape": [3, 3],
      "number_of_stored_values": 2, "data_types": {"indices_0": "int64", "indices_1": "int64",
      "values": "int64"}, "unknown_key": {"ignored": true}}})";
  write_raw(p, coo, {{"indices_0", {0, 2}}, {"indices_1", {1, 1}}, {"values", {5, 6}}});
  CHECK(read_binsparse(p).value().integer_values == std::vector<int64_t>{5, 6});
  write_raw(p, coo, {{"indices_0", {0, 3}}, {"indices_1", {1, 1}}, {"values", {5, 6}}});
  CHECK(error_of(p).code == Errc::parse_error);  // index outside the shape
  write_raw(p, coo, {{"indices_0", {0}}, {"indices_1", {1, 1}}, {"values", {5, 6}}});
  CHECK(error_of(p).message.find("dataset 'indices_0' holds 1 elements, expected 2") != std::string::npos);
  write_raw(p, R"({"binsparse": {"version": "0.1", "format": "COO", "shape": [3, 3],
      "number_of_stored_values": 1000000000000, "data_types": {"indices_0": "int64",
      "indices_1": "int64", "values": "int64"}}})",
            {{"indices_0", {0}}, {"indices_1", {1}}, {"values", {5}}});
  CHECK(error_of(p).code == Errc::parse_error);  // a lying count allocates nothing
  write_raw(p, R"({"binsparse": {"version": "0.1", "format": "COO", "shape": [3, 3],
      "number_of_stored_values": 1, "data_types": {"indices_0": "int64",
      "indices_1": "int64", "values": "complex[float64]"}}})",
            {{"indices_0", {0}}, {"indices_1", {1}}});
  CHECK(error_of(p).code == Errc::parse_error);  // complex values without their dataset
  write_raw(p, R"({"binsparse": {"version": "0.1", "format": "CSF", "shape": [3, 3, 3],
      "number_of_stored_values": 0, "data_types": {}}})");
  CHECK(error_of(p).code == Errc::unsupported);
  write_raw(p, R"({"binsparse": {"version": "0.1", "shape": [3, 3]}})");
  CHECK(error_of(p).message.find("expected key 'format'") != std::string::npos);
  write_raw(p, "{not json");
  CHECK(error_of(p).message.find("not valid JSON") != std::string::npos);
}
