// Every file of shared/matrices/edge/ (a peer suite of tricky Matrix Market files; its
// SOURCES.md says what each tests): the expected outcome of each, the matrices the valid
// ones must produce, and parse results independent of chunking and threads.
#include "test_support.hpp"

#include <vkprim/sparse/matrix_market.hpp>

#include <cctype>
#include <vector>

using namespace vkprim;
using namespace vkprim::sparse;
using namespace vkprim::test;

namespace {

// "RxC nnz field symmetry" for a matrix, "<errc>:<line>" for an error (the message must
// begin with the file name; "<errc>" alone when the error has no line).
std::string outcome(const Result<CooMatrix>& r, const std::string& file) {
  if (r) {
    return std::to_string(r->rows) + "x" + std::to_string(r->cols) + " " + std::to_string(r->nnz()) + " " +
           to_string(r->field) + " " + to_string(r->symmetry);
  }
  const std::string& msg = r.error().message;
  const std::string code = to_string(r.error().code);
  if (msg.rfind(file + ":", 0) != 0) return code + ": message lacks the file name: " + msg;
  size_t i = file.size() + 1, j = i;
  while (j < msg.size() && std::isdigit(static_cast<unsigned char>(msg[j]))) ++j;
  if (j == i || j >= msg.size() || msg[j] != ':') return code;
  return code + ":" + msg.substr(i, j - i);
}

struct Expect {
  const char* file;
  const char* outcome;
};

// Decisions (docs/matrix-files.md): complex read (hermitian mirrors conjugated); 0-based indices
// refused; files without a banner refused; bzip2 refused; integers beyond int64 refused;
// skew-symmetric diagonal entries and real 'hermitian' accepted; reals beyond double become +-inf.
const Expect kEdge[] = {
    {"fast_matrix_market/python/long_double/longcomplex_array.mtx", "1x1 1 complex general"},
    {"fast_matrix_market/python/long_double/longcomplex_coordinate.mtx", "1x1 1 complex general"},
    {"fast_matrix_market/python/long_double/longdouble_array.mtx", "1x1 1 real general"},
    {"fast_matrix_market/python/long_double/longdouble_coordinate.mtx", "1x1 1 real general"},
    {"fast_matrix_market/python/matrix_array_complex_general.mtx", "3x2 6 complex general"},
    {"fast_matrix_market/python/matrix_array_integer_general.mtx", "3x2 6 integer general"},
    {"fast_matrix_market/python/matrix_coordinate_complex_hermitian.mtx", "3x3 3 complex hermitian"},
    {"fast_matrix_market/python/matrix_coordinate_pattern_symmetric.mtx", "3x3 3 pattern symmetric"},
    {"fast_matrix_market/python/matrix_coordinate_real_general.mtx.bz2", "unsupported"},
    {"fast_matrix_market/python/matrix_coordinate_real_general.mtx.gz", "3x3 3 real general"},
    {"fast_matrix_market/python/matrix_coordinate_real_skew-symmetric.mtx", "3x3 3 real skew-symmetric"},
    {"fast_matrix_market/python/misc/windows_newlines.mtx", "3x3 3 real general"},
    {"fast_matrix_market/python/scipy_crashes/dim_over_32_bit.mtx", "1099511627776x1099511627776 3 real general"},
    {"fast_matrix_market/python/scipy_crashes/vector_array_real_general.mtx", "4x1 4 real general"},
    {"fast_matrix_market/python/scipy_crashes/vector_coordinate_real_general.mtx", "4x1 3 real general"},
    {"fast_matrix_market/tests/2col_array.mtx", "3x2 6 real general"},
    {"fast_matrix_market/tests/eye3.mtx", "3x3 3 real general"},
    {"fast_matrix_market/tests/eye3_array.mtx", "3x3 9 real general"},
    {"fast_matrix_market/tests/eye3_complex.mtx", "3x3 3 complex general"},
    {"fast_matrix_market/tests/eye3_pattern.mtx", "3x3 3 pattern general"},
    {"fast_matrix_market/tests/eye3_str.mtx", "3x3 3 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_bool.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_double.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_double_complex.mtx", "3x1 4 complex general"},
    {"fast_matrix_market/tests/graphblas/matrix_float.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_float_complex.mtx", "3x1 4 complex general"},
    {"fast_matrix_market/tests/graphblas/matrix_int16.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_int32.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_int64.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_int8.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_uint16.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_uint32.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_uint64.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/graphblas/matrix_uint8.mtx", "3x1 4 real general"},
    {"fast_matrix_market/tests/invalid/invalid_bad_banner.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_bad_banner_2.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_bad_field.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_bad_format.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_bad_object.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_bad_symmetry.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_bad_value.mtx", "parse error:3"},
    {"fast_matrix_market/tests/invalid/invalid_bad_value_2.mtx", "parse error:5"},
    {"fast_matrix_market/tests/invalid/invalid_bad_value_3.mtx", "parse error:4"},
    {"fast_matrix_market/tests/invalid/invalid_bad_value_4.mtx", "parse error:4"},
    {"fast_matrix_market/tests/invalid/invalid_dimensions_out_of_range_1.mtx", "parse error:3"},
    {"fast_matrix_market/tests/invalid/invalid_dimensions_out_of_range_2.mtx", "parse error:3"},
    {"fast_matrix_market/tests/invalid/invalid_dimensions_out_of_range_3.mtx", "parse error:3"},
    {"fast_matrix_market/tests/invalid/invalid_indices_out_of_range_1.mtx", "parse error:5"},
    {"fast_matrix_market/tests/invalid/invalid_indices_out_of_range_2.mtx", "parse error:6"},
    {"fast_matrix_market/tests/invalid/invalid_indices_out_of_range_3.mtx", "parse error:5"},
    {"fast_matrix_market/tests/invalid/invalid_indices_out_of_range_4.mtx", "parse error:6"},
    {"fast_matrix_market/tests/invalid/invalid_indices_out_of_range_5.mtx", "parse error:5"},
    {"fast_matrix_market/tests/invalid/invalid_indices_out_of_range_6.mtx", "parse error:6"},
    {"fast_matrix_market/tests/invalid/invalid_matrix_coord_too_long.mtx", "parse error:7"},
    {"fast_matrix_market/tests/invalid/invalid_symmetry_vector.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_truncated_header_1.mtx", "parse error:3"},
    {"fast_matrix_market/tests/invalid/invalid_truncated_header_2.mtx", "parse error:1"},
    {"fast_matrix_market/tests/invalid/invalid_truncated_line_1.mtx", "parse error:5"},
    {"fast_matrix_market/tests/invalid/invalid_truncated_line_2.mtx", "parse error:5"},
    {"fast_matrix_market/tests/invalid/invalid_truncated_lines.mtx", "parse error:4"},
    {"fast_matrix_market/tests/invalid/invalid_vector_array_too_long.mtx", "parse error:7"},
    {"fast_matrix_market/tests/invalid/invalid_vector_coord_too_long.mtx", "parse error:6"},
    {"fast_matrix_market/tests/invalid/invalid_vector_index_out_of_range_1.mtx", "parse error:4"},
    {"fast_matrix_market/tests/invalid/invalid_vector_index_out_of_range_2.mtx", "parse error:4"},
    {"fast_matrix_market/tests/invalid/invalid_vector_negative_length.mtx", "parse error:2"},
    {"fast_matrix_market/tests/kepner_gilbert_graph.mtx", "7x7 12 real general"},
    {"fast_matrix_market/tests/nist_ex1.mtx", "5x5 8 real general"},
    {"fast_matrix_market/tests/nist_ex1_freeformat.mtx", "5x5 8 real general"},
    {"fast_matrix_market/tests/nist_ex1_more_freeformat.mtx", "5x5 8 real general"},
    {"fast_matrix_market/tests/overflow/overflow_dim_gt_int64.mtx", "parse error:2"},
    {"fast_matrix_market/tests/overflow/overflow_index_gt_int64.mtx", "parse error:6"},
    {"fast_matrix_market/tests/overflow/overflow_index_gt_int8.mtx", "1000x1000 1 real general"},
    {"fast_matrix_market/tests/overflow/overflow_value_gt_complex128.mtx", "3x3 3 complex general"},
    {"fast_matrix_market/tests/overflow/overflow_value_gt_float128.mtx", "3x3 1 real general"},
    {"fast_matrix_market/tests/overflow/overflow_value_gt_float64.mtx", "3x3 1 real general"},
    {"fast_matrix_market/tests/overflow/overflow_value_gt_int32.mtx", "3x3 1 integer general"},
    {"fast_matrix_market/tests/overflow/overflow_value_gt_int64.mtx", "parse error:6"},
    {"fast_matrix_market/tests/permissive/permissive_banner_leading_spaces_eye3.mtx", "3x3 3 real general"},
    {"fast_matrix_market/tests/permissive/permissive_banner_one_percent_eye3.mtx", "3x3 3 real general"},
    {"fast_matrix_market/tests/permissive/permissive_lines_indented.mtx", "1x1 1 real general"},
    {"fast_matrix_market/tests/permissive/windows_lineendings_nist_ex1_more_freeformat.mtx", "5x5 8 real general"},
    {"fast_matrix_market/tests/row_3by4.mtx", "3x4 4 integer general"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_real_row.mtx", "3x3 3 real hermitian"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_real_row_general.mtx", "3x3 5 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_real_row_general_dup.mtx", "3x3 6 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_real_row_general_zero.mtx", "3x3 6 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_row.mtx", "3x3 3 complex hermitian"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_row_general.mtx", "3x3 5 complex general"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_row_general_dup.mtx", "3x3 6 complex general"},
    {"fast_matrix_market/tests/symmetry/coordinate_hermitian_row_general_zero.mtx", "3x3 6 complex general"},
    {"fast_matrix_market/tests/symmetry/coordinate_pattern_symmetric_row.mtx", "3x3 2 pattern symmetric"},
    {"fast_matrix_market/tests/symmetry/coordinate_pattern_symmetric_row_general.mtx", "3x3 4 pattern general"},
    {"fast_matrix_market/tests/symmetry/coordinate_pattern_symmetric_row_general_dup.mtx", "3x3 4 pattern general"},
    {"fast_matrix_market/tests/symmetry/coordinate_pattern_symmetric_row_general_zero.mtx", "3x3 4 pattern general"},
    {"fast_matrix_market/tests/symmetry/coordinate_skew_symmetric_row.mtx", "3x3 2 real skew-symmetric"},
    {"fast_matrix_market/tests/symmetry/coordinate_skew_symmetric_row_general.mtx", "3x3 4 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_skew_symmetric_row_general_dup.mtx", "3x3 4 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_skew_symmetric_row_general_zero.mtx", "3x3 4 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_symmetric_row.mtx", "3x3 3 real symmetric"},
    {"fast_matrix_market/tests/symmetry/coordinate_symmetric_row_general.mtx", "3x3 5 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_symmetric_row_general_dup.mtx", "3x3 6 real general"},
    {"fast_matrix_market/tests/symmetry/coordinate_symmetric_row_general_zero.mtx", "3x3 6 real general"},
    {"fast_matrix_market/tests/symmetry_array/array_hermitian.mtx", "3x3 6 complex hermitian"},
    {"fast_matrix_market/tests/symmetry_array/array_hermitian_general.mtx", "3x3 9 complex general"},
    {"fast_matrix_market/tests/symmetry_array/array_skew-symmetric.mtx", "3x3 3 real skew-symmetric"},
    {"fast_matrix_market/tests/symmetry_array/array_skew-symmetric_general.mtx", "3x3 9 real general"},
    {"fast_matrix_market/tests/symmetry_array/array_symmetric.mtx", "3x3 6 real symmetric"},
    {"fast_matrix_market/tests/symmetry_array/array_symmetric_general.mtx", "3x3 9 real general"},
    {"fast_matrix_market/tests/vector_array.mtx", "4x1 4 real general"},
    {"fast_matrix_market/tests/vector_coordinate.mtx", "4x1 3 real general"},
    {"fast_matrix_market/tests/vector_coordinate_complex.mtx", "4x1 3 complex general"},
    {"fast_matrix_market/tests/vector_coordinate_complex_dupes.mtx", "4x1 4 complex general"},
    {"fast_matrix_market/tests/vector_coordinate_dupes.mtx", "4x1 4 real general"},
    {"julia/test.mtx", "11x12 5 integer general"},
    {"julia/test.mtx.gz", "11x12 5 integer general"},
    {"lagraph/A.mtx", "7x7 15 pattern symmetric"},
    {"lagraph/LFAT5_hypersparse.mtx", "2000x2000 30 real symmetric"},
    {"lagraph/comments_full.mtx", "3x3 9 real general"},
    {"lagraph/comments_west0067.mtx", "67x67 295 real general"},
    {"lagraph/complex.mtx", "3x3 9 complex general"},
    {"lagraph/cover.mtx", "7x7 12 integer general"},
    {"lagraph/empty.mtx", "3x4 0 real general"},
    {"lagraph/full.mtx", "3x3 9 real general"},
    {"lagraph/full_noheader.mtx", "parse error:1"},
    {"lagraph/full_symmetric.mtx", "4x4 10 real symmetric"},
    {"lagraph/mangled1.mtx", "parse error:1"},
    {"lagraph/mangled10.mtx", "parse error:7"},
    {"lagraph/mangled11.mtx", "parse error:5"},
    {"lagraph/mangled12.mtx", "parse error:5"},
    {"lagraph/mangled13.mtx", "parse error:7"},
    {"lagraph/mangled14.mtx", "3x4 3 real general"},
    {"lagraph/mangled15.mtx", "parse error:5"},
    {"lagraph/mangled16.mtx", "parse error:5"},
    {"lagraph/mangled2.mtx", "parse error:1"},
    {"lagraph/mangled3.mtx", "parse error:1"},
    {"lagraph/mangled4.mtx", "parse error:1"},
    {"lagraph/mangled5.mtx", "parse error:1"},
    {"lagraph/mangled6.mtx", "parse error:5"},
    {"lagraph/mangled7.mtx", "parse error:5"},
    {"lagraph/mangled8.mtx", "parse error:4"},
    {"lagraph/mangled9.mtx", "parse error:4"},
    {"lagraph/mangled_bool.mtx", "7x7 12 integer general"},
    {"lagraph/mangled_format.mtx", "parse error:1"},
    {"lagraph/mangled_int16.mtx", "7x7 12 integer general"},
    {"lagraph/mangled_int32.mtx", "7x7 12 integer general"},
    {"lagraph/mangled_int8.mtx", "7x7 12 integer general"},
    {"lagraph/mangled_skew.mtx", "6x6 10 integer skew-symmetric"},
    {"lagraph/mangled_uint16.mtx", "7x7 12 integer general"},
    {"lagraph/mangled_uint32.mtx", "7x7 12 integer general"},
    {"lagraph/mangled_uint8.mtx", "7x7 12 integer general"},
    {"lagraph/matrix_bool.mtx", "7x7 12 integer general"},
    {"lagraph/matrix_fp32.mtx", "parse error:7"},
    {"lagraph/matrix_fp64.mtx", "parse error:7"},
    {"lagraph/matrix_int64.mtx", "7x7 12 integer general"},
    {"lagraph/matrix_uint64.mtx", "parse error:8"},
    {"lagraph/skew_fp64.mtx", "6x6 10 real skew-symmetric"},
    {"lagraph/skew_int8.mtx", "6x6 10 integer skew-symmetric"},
    {"lagraph/structure.mtx", "7x7 12 pattern general"},
    {"lagraph/west0067.mtx", "67x67 294 real general"},
    {"lagraph/west0067_jumbled.mtx", "67x67 294 real general"},
    {"lagraph/west0067_noheader.mtx", "parse error:1"},
    {"suitesparse/CHOLMOD/3by0.mtx", "3x0 0 real general"},
    {"suitesparse/CHOLMOD/c.mtx", "3x3 5 complex hermitian"},
    {"suitesparse/CHOLMOD/can___24.mtx", "24x24 92 pattern symmetric"},
    {"suitesparse/CHOLMOD/cha.mtx", "3x3 6 complex hermitian"},
    {"suitesparse/CHOLMOD/fullcrud.mtx", "parse error:7"},
    {"suitesparse/CHOLMOD/fullcrud1.mtx", "parse error:1"},
    {"suitesparse/CHOLMOD/fullcrud2.mtx", "parse error:3"},
    {"suitesparse/CHOLMOD/fullcsa.mtx", "2x2 3 complex symmetric"},
    {"suitesparse/CHOLMOD/fullrsa.mtx", "2x2 3 real symmetric"},
    {"suitesparse/CHOLMOD/fullrza.mtx", "2x2 1 real skew-symmetric"},
    {"suitesparse/CHOLMOD/mangle1.mtx", "parse error:1"},
    {"suitesparse/CHOLMOD/mangle2.mtx", "parse error:1"},
    {"suitesparse/CHOLMOD/mangle3.mtx", "parse error:1"},
    {"suitesparse/CHOLMOD/mangle4.mtx", "parse error:1"},
    {"suitesparse/CHOLMOD/rza.mtx", "3x3 3 integer skew-symmetric"},
    {"suitesparse/KLU/1c.mtx", "1x1 1 complex general"},
    {"suitesparse/KLU/arrow.mtx", "100x100 298 integer general"},
    {"suitesparse/KLU/arrowc.mtx", "100x100 298 complex general"},
    {"suitesparse/KLU/ctina.mtx", "11x11 36 complex general"},
    {"suitesparse/KLU/one.mtx", "2x2 4 real general"},
    {"suitesparse/KLU/onec.mtx", "2x2 4 complex general"},
    {"suitesparse/KLU/two.mtx", "2x2 1 real general"},
    {"suitesparse/ParU/a0.mtx", "0x0 0 pattern general"},
    {"suitesparse/ParU/a04.mtx", "0x4 0 real general"},
    {"suitesparse/ParU/a1.mtx", "parse error:11"},
    {"suitesparse/ParU/a2.mtx", "parse error:9"},
    {"suitesparse/ParU/a4.mtx", "parse error:11"},
    {"suitesparse/ParU/arrow.mtx", "46500x46500 139498 integer general"},
    {"suitesparse/ParU/az88.mtx", "parse error:11"},
    {"suitesparse/ParU/c2.mtx", "parse error:9"},
    {"suitesparse/ParU/r2.mtx", "parse error:9"},
    {"suitesparse/ParU/s32.mtx", "parse error:10"},
    {"t-fdp/EVA.mtx", "8497x8497 6726 real symmetric"},
    {"t-fdp/mesh3e1.mtx", "parse error:3"},
};

Result<CooMatrix> read(const fs::path& p, bool expand = false, bool sum = false) {
  MatrixMarketReadOptions o;
  o.expand_symmetry = expand;
  o.sum_duplicates = sum;
  return read_matrix_market(p, o);
}

}  // namespace

TEST_CASE("edge files: each gives its expected matrix shape or error", "[mm][edge]") {
  VKPRIM_REQUIRE_SHARED("matrices/edge");
  const fs::path edge = shared_data / "matrices/edge";
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(edge))
    if (e.is_regular_file() && e.path().extension() != ".md") ++files;
  CHECK(files == std::size(kEdge));  // a new file in the suite needs an expectation here
  for (const Expect& x : kEdge) {
    const fs::path p = edge / x.file;
    INFO(x.file);
    REQUIRE(fs::exists(p));
    CHECK(outcome(read(p), p.string()) == x.outcome);
  }
}

TEST_CASE("edge files: results do not depend on chunk size or thread count", "[mm][edge][chunks]") {
  VKPRIM_REQUIRE_SHARED("matrices/edge");
  for (const Expect& x : kEdge) {
    const fs::path p = shared_data / "matrices/edge" / x.file;
    if (p.extension() == ".gz" || p.extension() == ".bz2") continue;
    const std::string text = read_text(p);
    const auto reference = parse_matrix_market(text, x.file, {});
    for (size_t chunk : {1, 2, 3, 5, 16, 61}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        MatrixMarketReadOptions o;
        o.chunk_bytes = chunk;
        o.threads = threads;
        const auto r = parse_matrix_market(text, x.file, o);
        INFO(x.file << " chunk " << chunk << " threads " << threads);
        REQUIRE(r.ok() == reference.ok());
        if (r) CHECK(identical(r.value(), reference.value()));
        else CHECK(r.error().message == reference.error().message);
      }
    }
  }
}

TEST_CASE("edge files: values and structure", "[mm][edge]") {
  VKPRIM_REQUIRE_SHARED("matrices/edge");
  const fs::path fmm = shared_data / "matrices/edge/fast_matrix_market/tests";
  const fs::path edge = shared_data / "matrices/edge";

  SECTION("identity in every spelling, line ending and layout") {
    const std::map<std::pair<int64_t, int64_t>, double> eye = {{{0, 0}, 1.0}, {{1, 1}, 1.0}, {{2, 2}, 1.0}};
    for (const char* f : {"eye3.mtx", "eye3_str.mtx", "eye3_array.mtx", "eye3_pattern.mtx",
                          "permissive/permissive_banner_leading_spaces_eye3.mtx",
                          "permissive/permissive_banner_one_percent_eye3.mtx"}) {
      INFO(f);
      CHECK(as_map(read(fmm / f).value()) == eye);
    }
    CHECK(as_map(read(edge / "fast_matrix_market/python/misc/windows_newlines.mtx").value()) == eye);
  }

  SECTION("free-format, blank lines, comments and CRLF give the same matrix") {
    auto base = read(fmm / "nist_ex1.mtx", false, true).value();
    for (const char* f : {"nist_ex1_freeformat.mtx", "nist_ex1_more_freeformat.mtx",
                          "permissive/windows_lineendings_nist_ex1_more_freeformat.mtx"}) {
      INFO(f);
      CHECK(identical(read(fmm / f, false, true).value(), base));
    }
    CHECK(base.real_values[size_t(base.nnz() - 1)] == 12.0);  // "12." is a number
  }

  SECTION("symmetric storage expands to the peers' *_general files") {
    for (const char* f : {"symmetry/coordinate_symmetric_row", "symmetry/coordinate_skew_symmetric_row",
                          "symmetry/coordinate_pattern_symmetric_row", "symmetry/coordinate_hermitian_real_row"}) {
      INFO(f);
      const auto expanded = read(fmm / (std::string(f) + ".mtx"), true, true).value();
      const auto general = read(fmm / (std::string(f) + "_general.mtx"), false, true).value();
      CHECK(expanded.symmetry == Symmetry::general);
      CHECK(expanded.row_indices == general.row_indices);
      CHECK(expanded.col_indices == general.col_indices);
      CHECK(expanded.real_values == general.real_values);
      // The common wrong answer (diagonal mirrored) must differ; pattern sums hide it and a
      // skew-symmetric matrix has no diagonal to mirror.
      if (expanded.field == Field::pattern || std::string(f).find("skew") != std::string::npos) continue;
      const auto dup = read(fmm / (std::string(f) + "_general_dup.mtx"), false, true).value();
      CHECK_FALSE((dup.row_indices == expanded.row_indices && dup.real_values == expanded.real_values));
    }
    for (const char* f : {"symmetry_array/array_symmetric", "symmetry_array/array_skew-symmetric"}) {
      INFO(f);
      CHECK(as_map(read(fmm / (std::string(f) + ".mtx"), true).value()) ==
            as_map(read(fmm / (std::string(f) + "_general.mtx")).value()));
    }
    const auto rza = read(edge / "suitesparse/CHOLMOD/fullrza.mtx", true, true).value();  // 2x2 skew array
    CHECK(as_map(rza) == std::map<std::pair<int64_t, int64_t>, double>{{{0, 1}, -3.4}, {{1, 0}, 3.4}});
  }

  SECTION("skew-symmetric mirror of inf is -inf; integer skew negates") {
    const auto skew = read(edge / "lagraph/skew_fp64.mtx", true).value();
    REQUIRE(skew.nnz() == 20);
    CHECK(skew.row_indices[2] == 4);  // "5 1 inf" then its mirror (0, 4) = -inf
    CHECK(skew.real_values[2] == INFINITY);
    CHECK(skew.row_indices[3] == 0);
    CHECK(skew.real_values[3] == -INFINITY);
    const auto rza = read(edge / "suitesparse/CHOLMOD/rza.mtx", true).value();
    CHECK(rza.integer_values == std::vector<int64_t>{-13, 13, -32, 32, -17, 17});
  }

  SECTION("array layout is column-major") {
    const auto a = read(fmm / "2col_array.mtx").value();
    CHECK(a.row_indices == std::vector<int64_t>{0, 1, 2, 0, 1, 2});
    CHECK(a.col_indices == std::vector<int64_t>{0, 0, 0, 1, 1, 1});
    CHECK(a.real_values == std::vector<double>{10, 11, 12, 20, 21, 22});
  }

  SECTION("duplicates: kept by default, summed in file order on request") {
    const auto kept = read(edge / "lagraph/mangled14.mtx").value();
    CHECK(kept.nnz() == 3);
    const auto summed = read(edge / "lagraph/mangled14.mtx", false, true).value();
    CHECK(summed.nnz() == 2);
    CHECK(as_map(summed).at({1, 1}) == 10.5);
    const auto dbl = read(fmm / "graphblas/matrix_double.mtx", false, true).value();
    CHECK(as_map(dbl).at({2, 0}) == 2.0);
    // EVA is 'symmetric' yet stores 13 pairs in both triangles: 26 duplicates after expansion.
    const auto eva = read(edge / "t-fdp/EVA.mtx", true).value();
    const auto eva_summed = read(edge / "t-fdp/EVA.mtx", true, true).value();
    CHECK(eva.nnz() - eva_summed.nnz() == 26);
  }

  SECTION("explicit zeros, huge dimensions, overflowing reals, NaN") {
    const auto one = read(edge / "suitesparse/KLU/one.mtx").value();
    CHECK(one.real_values == std::vector<double>{0, 0, 0, 0});
    const auto big = read(edge / "fast_matrix_market/python/scipy_crashes/dim_over_32_bit.mtx").value();
    CHECK(big.row_indices.back() == 1099511627774);
    CHECK(read(fmm / "overflow/overflow_value_gt_float64.mtx").value().real_values[0] == INFINITY);
    CHECK(std::isnan(read(edge / "lagraph/comments_west0067.mtx").value().real_values[0]));
    CHECK(read(fmm / "overflow/overflow_value_gt_int32.mtx").value().integer_values[0] == 8589934592);
  }

  SECTION("entry order does not change the summed matrix; gzip equals plain") {
    CHECK(identical(read(edge / "lagraph/west0067.mtx", false, true).value(),
                    read(edge / "lagraph/west0067_jumbled.mtx", false, true).value()));
    CHECK(identical(read(edge / "julia/test.mtx").value(), read(edge / "julia/test.mtx.gz").value()));
  }
}
