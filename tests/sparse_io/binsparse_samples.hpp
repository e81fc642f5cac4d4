// Small Binsparse files in the HDF5 forms the reader accepts, each with the matrix it must
// read as: vkprim's own writer (COO, CSR, CSC; integer, pattern, skew upper) and files made
// with libhdf5 directly (variable-length descriptor, chunked with deflate, shuffle and
// fletcher32, unsigned and 16-bit types, big-endian, compact layout, the 1.10 file format
// with link messages and fixed-array, extensible-array and single-chunk indexes, user
// blocks, a root header continued over several chunks, DCSR, dense iso and DVEC). Used by the
// robustness tests (as the originals of their mutants) and as the Binsparse fuzzer's seeds.
#pragma once

#include <vkprim/sparse/binsparse.hpp>

#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace vkprim::test {

struct BinsparseSample {
  std::filesystem::path path;
  sparse::CooMatrix expected;  // what read_binsparse must return
};

namespace samples {

// One dataset to write: values given as int64 or double, stored as `type`; or, with
// `unwritten` > 0, that many elements created but never written (no data stored).
struct Dataset {
  std::string name;
  hid_t type;
  std::vector<int64_t> ints;
  std::vector<double> reals;
  hsize_t unwritten = 0;
};

struct Layout {
  bool latest = false;        // HDF5 1.10 file format: superblock 3, object header 2, links
  bool vlen = false;          // variable-length descriptor string
  hsize_t chunk = 0;          // chunked datasets with this chunk size (0: contiguous)
  bool unlimited = false;     // chunked with an unlimited maximum size
  bool filters = false;       // shuffle, deflate and fletcher32 on chunked datasets
  bool compact = false;       // compact datasets
  hsize_t user_block = 0;     // bytes before the superblock
  int extra_attributes = 0;   // more root attributes: a continued object header
};

inline void write(const std::filesystem::path& p, const std::string& json, const std::vector<Dataset>& sets,
                  const Layout& layout = {}) {
  const hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  if (layout.user_block) H5Pset_userblock(fcpl, layout.user_block);
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (layout.latest) H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  const hid_t f = H5Fcreate(p.c_str(), H5F_ACC_TRUNC, fcpl, fapl);
  H5Pclose(fcpl);
  H5Pclose(fapl);
  const hid_t scalar = H5Screate(H5S_SCALAR);
  for (int a = 0; a < layout.extra_attributes; ++a) {
    const int64_t v = a;
    const hid_t attr = H5Acreate2(f, ("extra_attribute_" + std::to_string(a)).c_str(), H5T_STD_I64LE, scalar,
                                  H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_INT64, &v);
    H5Aclose(attr);
  }
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, layout.vlen ? H5T_VARIABLE : json.size() + 1);
  const hid_t attr = H5Acreate2(f, "binsparse", text, scalar, H5P_DEFAULT, H5P_DEFAULT);
  const char* chars = json.c_str();
  H5Awrite(attr, text, layout.vlen ? static_cast<const void*>(&chars) : chars);
  H5Aclose(attr);
  H5Tclose(text);
  H5Sclose(scalar);
  for (const Dataset& d : sets) {
    const hsize_t n = d.unwritten ? d.unwritten : d.ints.empty() ? d.reals.size() : d.ints.size();
    const hsize_t dims[1] = {n}, unlimited[1] = {H5S_UNLIMITED};
    const hid_t space = H5Screate_simple(1, dims, layout.unlimited ? unlimited : nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (layout.chunk) {
      const hsize_t chunk[1] = {layout.chunk};
      H5Pset_chunk(dcpl, 1, chunk);
      if (layout.filters) {
        H5Pset_shuffle(dcpl);
        H5Pset_deflate(dcpl, 6);
        H5Pset_fletcher32(dcpl);
      }
    } else if (layout.compact) {
      H5Pset_layout(dcpl, H5D_COMPACT);
    }
    const hid_t set = H5Dcreate2(f, d.name.c_str(), d.type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    // Integers keep their bits into unsigned types (HDF5 would clamp -1 to 0).
    if (!d.ints.empty())
      H5Dwrite(set, H5Tget_sign(d.type) == H5T_SGN_NONE ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
               H5P_DEFAULT, d.ints.data());
    else if (!d.reals.empty()) H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, d.reals.data());
    H5Dclose(set);
    H5Pclose(dcpl);
    H5Sclose(space);
  }
  H5Fclose(f);
}

inline std::string descriptor(const std::string& format, const std::string& shape, int64_t stored,
                              const std::string& types, const std::string& extra = "") {
  return R"({"binsparse": {"version": "0.1", "format": ")" + format + R"(", "shape": )" + shape +
         R"(, "number_of_stored_values": )" + std::to_string(stored) + R"(, "data_types": {)" + types + "}" + extra +
         "}}";
}

inline sparse::CooMatrix matrix(int64_t rows, int64_t cols, std::vector<int64_t> r, std::vector<int64_t> c,
                                std::vector<double> reals, std::vector<int64_t> ints = {}) {
  sparse::CooMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.row_indices = std::move(r);
  m.col_indices = std::move(c);
  m.real_values = std::move(reals);
  m.integer_values = std::move(ints);
  m.field = m.integer_values.empty() ? sparse::Field::real : sparse::Field::integer;
  return m;
}

}  // namespace samples

// Writes the samples into `dir` (which must exist).
inline std::vector<BinsparseSample> write_binsparse_samples(const std::filesystem::path& dir) {
  using namespace sparse;
  using samples::Dataset;
  using samples::descriptor;
  using samples::Layout;
  using samples::matrix;
  std::vector<BinsparseSample> out;
  auto own = [&](const char* file, const CooMatrix& m, const BinsparseWriteOptions& o, const CooMatrix& expected) {
    out.push_back({dir / file, expected});
    write_binsparse(m, out.back().path, o).value();
  };
  const CooMatrix real = matrix(5, 4, {4, 1, 2, 4, 0, 3}, {0, 1, 1, 0, 3, 2}, {0.5, -2, 0, 1e300, 7, -0.25});
  own("coo_real.bsp.h5", real, {BinsparseFormat::coo}, real);
  // CSR and CSC files list entries sorted (stably: duplicates keep their order).
  const CooMatrix csr_f32 = matrix(5, 4, {0, 1, 2, 3, 4, 4}, {3, 1, 1, 2, 0, 0}, {7, -2, 0, -0.25, 0.5, INFINITY});
  own("csr_f32_i32.bsp.h5", real, {BinsparseFormat::csr, IndexWidth::i32, RealPrecision::f32}, csr_f32);
  const CooMatrix integer = matrix(3, 3, {2, 0, 1, 2}, {0, 0, 2, 0}, {}, {INT64_MIN, -1, INT64_MAX, 5});
  const CooMatrix csc = matrix(3, 3, {0, 2, 2, 1}, {0, 0, 0, 2}, {}, {-1, INT64_MIN, 5, INT64_MAX});
  own("csc_int.bsp.h5", integer, {BinsparseFormat::csc}, csc);
  CooMatrix pattern = matrix(4, 4, {1, 3, 2}, {0, 3, 1}, {});
  pattern.field = Field::pattern;
  pattern.symmetry = Symmetry::symmetric;
  CooMatrix pattern_csr = matrix(4, 4, {1, 2, 3}, {0, 1, 3}, {});
  pattern_csr.field = Field::pattern;
  pattern_csr.symmetry = Symmetry::symmetric;
  own("pattern_sym.bsp.h5", pattern, {BinsparseFormat::csr}, pattern_csr);
  CooMatrix skew = matrix(3, 3, {0, 1, 0}, {1, 2, 2}, {}, {4, -9, 1});  // upper triangle
  skew.symmetry = Symmetry::skew_symmetric;
  CooMatrix skew_lower = matrix(3, 3, {1, 2, 2}, {0, 1, 0}, {}, {-4, 9, -1});
  skew_lower.symmetry = Symmetry::skew_symmetric;
  own("skew_upper.bsp.h5", skew, {BinsparseFormat::coo}, skew_lower);
  // Complex values: a float array of 2n parts (complex[float64]), a hermitian lower triangle.
  CooMatrix herm = matrix(3, 3, {0, 2, 2}, {0, 0, 1}, {});
  herm.field = Field::complex;
  herm.symmetry = Symmetry::hermitian;
  herm.complex_values = {{2, 0}, {1.5, -0.5}, {-3, 1e300}};
  own("complex_hermitian.bsp.h5", herm, {BinsparseFormat::coo}, herm);

  auto raw = [&](const char* file, const std::string& json, const std::vector<Dataset>& sets, const Layout& layout,
                 const CooMatrix& expected) {
    out.push_back({dir / file, expected});
    samples::write(out.back().path, json, sets, layout);
  };
  const std::string coo_types = R"("indices_0": "uint32", "indices_1": "uint32", "values": "int16")";
  const CooMatrix small_int = matrix(6, 5, {0, 5, 2, 2, 3}, {4, 0, 1, 1, 3}, {}, {-7, 300, 0, 2, -32768});
  const std::vector<Dataset> coo_sets = {{"indices_0", H5T_STD_U32LE, {0, 5, 2, 2, 3}, {}},
                                         {"indices_1", H5T_STD_U32LE, {4, 0, 1, 1, 3}, {}},
                                         {"values", H5T_STD_I16LE, {-7, 300, 0, 2, -32768}, {}}};
  Layout chunked;
  chunked.vlen = true;
  chunked.chunk = 2;
  chunked.filters = true;
  raw("chunked_deflate.bsp.h5", descriptor("COO", "[6, 5]", 5, coo_types), coo_sets, chunked, small_int);

  const CooMatrix csr_real = matrix(3, 4, {0, 0, 2}, {1, 3, 0}, {1.5, -2.5, 3.25});
  const std::string csr_types = R"("pointers_to_1": "int64", "indices_1": "int64", "values": "float64")";
  const std::vector<Dataset> csr_sets = {{"pointers_to_1", H5T_STD_I64LE, {0, 2, 2, 3}, {}},
                                         {"indices_1", H5T_STD_I64LE, {1, 3, 0}, {}},
                                         {"values", H5T_IEEE_F64LE, {}, {1.5, -2.5, 3.25}}};
  Layout latest;
  latest.latest = true;
  raw("latest_contiguous.bsp.h5", descriptor("CSR", "[3, 4]", 3, csr_types), csr_sets, latest, csr_real);
  latest.chunk = 2;  // fixed-array chunk index
  raw("latest_fixed_array.bsp.h5", descriptor("CSR", "[3, 4]", 3, csr_types), csr_sets, latest, csr_real);
  latest.unlimited = true;  // extensible-array chunk index
  latest.filters = true;
  raw("latest_extensible.bsp.h5", descriptor("CSR", "[3, 4]", 3, csr_types), csr_sets, latest, csr_real);
  latest.user_block = 1024;  // chunk addresses from libhdf5 are relative to the superblock
  raw("latest_extensible_user_block.bsp.h5", descriptor("CSR", "[3, 4]", 3, csr_types), csr_sets, latest, csr_real);
  latest.user_block = 0;
  latest.unlimited = latest.filters = false;
  latest.chunk = 5;  // one chunk covers each dataset: single-chunk index
  raw("latest_single_chunk.bsp.h5", descriptor("COO", "[6, 5]", 5, coo_types), coo_sets, latest, small_int);

  Layout compact;
  compact.compact = true;
  const std::string dcsr_types = R"("indices_0": "int64", "pointers_to_1": "int64", "indices_1": "int64",
                                    "values": "float64")";
  const CooMatrix dcsr = matrix(9, 4, {2, 2, 7}, {0, 3, 1}, {-1, 2, 4});
  raw("compact_bigendian_dcsr.bsp.h5", descriptor("DCSR", "[9, 4]", 3, dcsr_types),
      {{"indices_0", H5T_STD_I64BE, {2, 7}, {}},
       {"pointers_to_1", H5T_STD_I64BE, {0, 2, 3}, {}},
       {"indices_1", H5T_STD_I64BE, {0, 3, 1}, {}},
       {"values", H5T_IEEE_F64BE, {}, {-1, 2, 4}}},
      compact, dcsr);

  const CooMatrix dense = matrix(3, 2, {0, 0, 1, 1, 2, 2}, {0, 1, 0, 1, 0, 1}, {2.5, 2.5, 2.5, 2.5, 2.5, 2.5});
  raw("dense_iso.bsp.h5", descriptor("DMAT", "[3, 2]", 6, R"("values": "iso[float64]")"),
      {{"values", H5T_IEEE_F64LE, {}, {2.5}}}, {}, dense);
  const CooMatrix dvec = matrix(3, 1, {0, 1, 2}, {0, 0, 0}, {}, {1, 0, 255});
  raw("dvec_uint8.bsp.h5", descriptor("DVEC", "[3]", 3, R"("values": "uint8")"),
      {{"values", H5T_STD_U8LE, {1, 0, 255}, {}}}, {}, dvec);

  Layout block;
  block.user_block = 512;
  block.extra_attributes = 40;
  raw("user_block_continued.bsp.h5", descriptor("COO", "[6, 5]", 5, coo_types), coo_sets, block, small_int);
  return out;
}

}  // namespace vkprim::test
