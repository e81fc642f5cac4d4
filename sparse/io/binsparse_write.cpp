// Binsparse writer: COO, CSR or CSC arrays plus the descriptor attribute, written through an
// AtomicFile (the target is replaced only by a complete HDF5 file).
#include <vkprim/sparse/binsparse.hpp>

#include "binsparse_descriptor.hpp"
#include "core/atomic_file.hpp"
#include "hdf5_handle.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

namespace vkprim::sparse {
namespace {

using namespace detail;

// Writes a 1-D dataset of `count` elements stored as `file_type`, converted by HDF5 from
// `mem_type`.
Status write_dataset(hid_t file, const std::string& name, const char* ds, hid_t file_type, hid_t mem_type,
                     const void* data, size_t count) {
  const hsize_t dims[1] = {hsize_t(count)};
  H5Space space(H5Screate_simple(1, dims, nullptr));
  H5Dataset set(H5Dcreate2(file, ds, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!set.valid()) return make_error(Errc::io_error, name + ": cannot create dataset '" + std::string(ds) + "'");
  if (count > 0 && H5Dwrite(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    return make_error(Errc::io_error, name + ": cannot write dataset '" + std::string(ds) + "'");
  return {};
}

// "_lower" or "_upper": the triangle holding every stored entry of a non-general matrix.
Result<std::string> stored_triangle(const CooMatrix& m) {
  bool lower = true, upper = true;
  for (int64_t k = 0; k < m.nnz(); ++k) {
    lower = lower && m.row_indices[size_t(k)] >= m.col_indices[size_t(k)];
    upper = upper && m.row_indices[size_t(k)] <= m.col_indices[size_t(k)];
  }
  if (lower) return std::string("_lower");
  if (upper) return std::string("_upper");
  return make_error(Errc::invalid_argument,
                    std::string("a ") + to_string(m.symmetry) +
                        " matrix with entries in both triangles has no Binsparse structure; expand it first");
}

}  // namespace

Status write_binsparse(const CooMatrix& m, const std::filesystem::path& path, const BinsparseWriteOptions& options) {
  VKPRIM_TRY(validate(m));
  H5Quiet quiet;
  const std::string name = path.string();
  const bool i32 = options.index == IndexWidth::i32;
  if (i32 && (m.rows > INT32_MAX || m.cols > INT32_MAX || m.nnz() > INT32_MAX))
    return make_error(Errc::invalid_argument, name + ": a " + std::to_string(m.rows) + " x " +
                                                  std::to_string(m.cols) + " matrix with " + std::to_string(m.nnz()) +
                                                  " entries does not fit 32-bit indices");

  BinsparseDescriptor d;
  d.shape = {m.rows, m.cols};
  d.stored = m.nnz();
  if (m.symmetry != Symmetry::general) {
    auto triangle = stored_triangle(m);
    if (!triangle) return make_error(Errc::invalid_argument, name + ": " + triangle.error().message);
    const char* kind = m.symmetry == Symmetry::symmetric        ? "symmetric"
                       : m.symmetry == Symmetry::skew_symmetric ? "skew_symmetric"
                                                                : "hermitian";
    d.structure = kind + *triangle;
  }

  // Arrange the entries for the format.
  const CooMatrix* entries = &m;
  CooMatrix sorted;
  std::vector<int64_t> pointers;
  if (options.format == BinsparseFormat::coo) {
    d.format = "COO";
  } else {
    const bool csc = options.format == BinsparseFormat::csc;
    d.format = csc ? "CSC" : "CSR";
    CooMatrix source = m;
    if (csc) transpose(source);
    auto csr = to_csr(source, false);
    if (!csr) return make_error(csr.error().code, name + ": " + csr.error().message);
    pointers = std::move(csr->row_offsets);
    sorted.rows = m.rows;
    sorted.cols = m.cols;
    sorted.field = m.field;
    sorted.col_indices = std::move(csr->col_indices);  // minor indices (indices_1)
    sorted.real_values = std::move(csr->real_values);
    sorted.integer_values = std::move(csr->integer_values);
    sorted.complex_values = std::move(csr->complex_values);
    entries = &sorted;
  }

  const BinsparseType index_type{i32 ? "int32" : "int64"};
  const hid_t index_file_type = i32 ? H5T_STD_I32LE : H5T_STD_I64LE;
  if (d.format == "COO") {
    d.data_types["indices_0"] = index_type;
    d.data_types["indices_1"] = index_type;
  } else {
    d.data_types["pointers_to_1"] = index_type;
    d.data_types["indices_1"] = index_type;
  }
  BinsparseType value_type;
  switch (m.field) {
    case Field::real: value_type.scalar = options.precision == RealPrecision::f32 ? "float32" : "float64"; break;
    case Field::integer: value_type.scalar = "int64"; break;
    case Field::pattern: value_type = {"bint8", true, false}; break;
    case Field::complex:
      value_type = {options.precision == RealPrecision::f32 ? "float32" : "float64", false, true};
      break;
  }
  d.data_types["values"] = value_type;

  // The HDF5 file is built in memory (the core driver without a backing store) and its image
  // written out through an AtomicFile, so that every disk write is vkprim's and checked. HDF5
  // itself must not meet a failing write: HDF5 1.10 leaves a file whose close failed half
  // destroyed and crashes at exit (fixed in HDF5 1.14.1, HDFGroup/hdf5#2496). The image is held
  // twice while it is copied out (the driver's buffer and the copy). The driver grows its
  // buffer by the arrays' size plus room for the metadata, so one allocation usually suffices.
  auto out = vkprim::detail::AtomicFile::create(path);
  if (!out) return out.error();
  const size_t index_bytes = i32 ? 4 : 8;
  const size_t arrays = (entries->col_indices.size() + std::max(pointers.size(), entries->row_indices.size())) *
                            index_bytes +
                        entries->real_values.size() * 8 + entries->integer_values.size() * 8 +
                        entries->complex_values.size() * 16;
  H5PropList fapl(H5Pcreate(H5P_FILE_ACCESS));
  if (!fapl.valid() || H5Pset_fapl_core(fapl.get(), arrays + (size_t(1) << 16), false) < 0)
    return make_error(Errc::io_error, name + ": cannot set up HDF5's in-memory driver");
  H5File file(H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()));
  if (!file.valid()) return make_error(Errc::io_error, name + ": cannot create HDF5 file");

  const std::string json = make_binsparse_descriptor(d);
  {
    H5Type text(H5Tcopy(H5T_C_S1));
    H5Tset_size(text.get(), json.size() + 1);
    H5Tset_strpad(text.get(), H5T_STR_NULLTERM);
    H5Tset_cset(text.get(), H5T_CSET_UTF8);
    H5Space scalar(H5Screate(H5S_SCALAR));
    H5Attribute attr(H5Acreate2(file.get(), "binsparse", text.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT));
    if (!attr.valid() || H5Awrite(attr.get(), text.get(), json.c_str()) < 0)
      return make_error(Errc::io_error, name + ": cannot write the 'binsparse' attribute");
  }

  const size_t n = entries->col_indices.size();  // (row_indices is empty for CSR/CSC)
  if (d.format == "COO") {
    VKPRIM_TRY(write_dataset(file.get(), name, "indices_0", index_file_type, H5T_NATIVE_INT64,
                             entries->row_indices.data(), n));
  } else {
    VKPRIM_TRY(write_dataset(file.get(), name, "pointers_to_1", index_file_type, H5T_NATIVE_INT64,
                             pointers.data(), pointers.size()));
  }
  VKPRIM_TRY(write_dataset(file.get(), name, "indices_1", index_file_type, H5T_NATIVE_INT64,
                           entries->col_indices.data(), n));
  switch (m.field) {
    case Field::real:
      VKPRIM_TRY(write_dataset(file.get(), name, "values",
                               options.precision == RealPrecision::f32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE,
                               H5T_NATIVE_DOUBLE, entries->real_values.data(), n));
      break;
    case Field::integer:
      VKPRIM_TRY(write_dataset(file.get(), name, "values", H5T_STD_I64LE, H5T_NATIVE_INT64,
                               entries->integer_values.data(), n));
      break;
    case Field::complex:
      // Binsparse v0.1 stores complex values as a float array of twice the length: value
      // k's real part at 2k, its imaginary part at 2k + 1 (std::complex<double>'s layout).
      VKPRIM_TRY(
          write_dataset(file.get(), name, "values",
                        options.precision == RealPrecision::f32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE,
                        H5T_NATIVE_DOUBLE, entries->complex_values.data(), 2 * n));
      break;
    case Field::pattern: {
      const int8_t one = 1;
      VKPRIM_TRY(write_dataset(file.get(), name, "values", H5T_STD_I8LE, H5T_NATIVE_INT8, &one, 1));
      break;
    }
  }
  // Flushed, the in-memory file is complete; H5Fget_file_image copies it.
  if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0) return make_error(Errc::io_error, name + ": flush failed");
  const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
  if (size < 0) return make_error(Errc::io_error, name + ": cannot complete the HDF5 file");
  std::vector<char> image(static_cast<size_t>(size));
  if (H5Fget_file_image(file.get(), image.data(), image.size()) != size || file.close() < 0)
    return make_error(Errc::io_error, name + ": cannot complete the HDF5 file");
  auto stream = out->stream();
  if (!stream) return stream.error();
  if (std::fwrite(image.data(), 1, image.size(), *stream) != image.size())
    return vkprim::detail::file_error(name, "write failed", errno);
  return out->commit();
}

}  // namespace vkprim::sparse
