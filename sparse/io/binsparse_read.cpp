// Binsparse reader: descriptor, then the format's arrays, into a CooMatrix.
#include <vkprim/sparse/binsparse.hpp>

#include "binsparse_descriptor.hpp"
#include "hdf5_handle.hpp"

#include <algorithm>
#include <new>
#include <string>

namespace vkprim::sparse {
namespace {

using namespace detail;

// Everything one read needs to report errors and reach datasets.
struct Reader {
  hid_t file;
  std::string name;  // file name for messages
  const BinsparseDescriptor& d;

  Error fail(const std::string& what) const { return make_error(Errc::parse_error, name + ": " + what); }

  // Opens 1-D dataset `ds` and checks it holds `count` elements of `type`'s class.
  Result<H5Dataset> open(const std::string& ds, int64_t count, const BinsparseType& type) const {
    if (H5Lexists(file, ds.c_str(), H5P_DEFAULT) <= 0) return fail("missing dataset '" + ds + "'");
    H5Dataset set(H5Dopen2(file, ds.c_str(), H5P_DEFAULT));
    if (!set.valid()) return make_error(Errc::io_error, name + ": cannot open dataset '" + ds + "'");
    H5Space space(H5Dget_space(set.get()));
    hsize_t dims[1] = {0};
    if (H5Sget_simple_extent_ndims(space.get()) != 1 || H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 1)
      return fail("dataset '" + ds + "' must be one-dimensional");
    if (dims[0] != hsize_t(count))
      return fail("dataset '" + ds + "' holds " + std::to_string(dims[0]) + " elements, expected " +
                  std::to_string(count));
    H5Type t(H5Dget_type(set.get()));
    const H5T_class_t cls = H5Tget_class(t.get());
    if (cls != (type.is_float() ? H5T_FLOAT : H5T_INTEGER))
      return fail("dataset '" + ds + "' does not hold the " + type.scalar + " values its data_types entry declares");
    return set;
  }

  const BinsparseType* type_of(const std::string& ds) const {
    auto it = d.data_types.find(ds);
    return it == d.data_types.end() ? nullptr : &it->second;
  }

  // Reads an index/pointer array as int64, refusing values above INT64_MAX.
  Result<std::vector<int64_t>> integers(const std::string& ds, int64_t count) const {
    const BinsparseType* type = type_of(ds);
    if (type == nullptr) return fail("data_types has no entry for '" + ds + "'");
    if (!type->is_integer() || type->iso || type->complex)
      return fail("data_types." + ds + " must be an integer type, found " + type->scalar);
    auto set = open(ds, count, *type);
    if (!set) return set.error();
    std::vector<int64_t> out(static_cast<size_t>(count));
    if (count == 0) return out;
    const bool u64 = type->scalar == "uint64";
    if (H5Dread(set->get(), u64 ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
      return make_error(Errc::io_error, name + ": cannot read dataset '" + ds + "'");
    if (u64)
      for (int64_t v : out)
        if (v < 0) return fail("dataset '" + ds + "' holds a value above 2^63 - 1");
    return out;
  }

  // Reads `values` (count stored values, 1 if iso) into m's value array, setting m.field.
  Status values(CooMatrix& m, int64_t count) const {
    const BinsparseType* type = type_of("values");
    if (type == nullptr) return fail("data_types has no entry for 'values'");
    if (type->complex)
      return make_error(Errc::unsupported, name + ": complex values are not supported (vkprim reads real, "
                                                  "integer and pattern matrices)");
    const int64_t in_file = type->iso ? 1 : count;
    auto set = open("values", in_file, *type);
    if (!set) return set.error();
    if (type->is_float()) {
      m.field = Field::real;
      m.real_values.resize(size_t(in_file));
      if (in_file && H5Dread(set->get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, m.real_values.data()) < 0)
        return make_error(Errc::io_error, name + ": cannot read dataset 'values'");
    } else {
      m.field = Field::integer;
      m.integer_values.resize(size_t(in_file));
      const bool u64 = type->scalar == "uint64";
      if (in_file && H5Dread(set->get(), u64 ? H5T_NATIVE_UINT64 : H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
                             H5P_DEFAULT, m.integer_values.data()) < 0)
        return make_error(Errc::io_error, name + ": cannot read dataset 'values'");
      if (u64)
        for (int64_t v : m.integer_values)
          if (v < 0) return fail("'values' holds an integer above 2^63 - 1, which vkprim cannot store");
    }
    if (type->iso) {
      // One value for every entry; iso[bint8] true is a pattern matrix.
      if (type->scalar == "bint8" && m.integer_values[0] == 1) {
        m.field = Field::pattern;
        m.integer_values.clear();
      } else if (m.field == Field::real) {
        m.real_values.assign(size_t(count), m.real_values[0]);
      } else {
        m.integer_values.assign(size_t(count), m.integer_values[0]);
      }
    }
    return {};
  }

  // Checks a pointer array: starts at 0, never decreases, ends at the stored count.
  Status check_pointers(const std::vector<int64_t>& p) const {
    if (p.front() != 0 || p.back() != d.stored || !std::is_sorted(p.begin(), p.end()))
      return fail("'pointers_to_1' must rise from 0 to number_of_stored_values");
    return {};
  }
};

bool sorted_pairs(const std::vector<int64_t>& major, const std::vector<int64_t>& minor) {
  for (size_t k = 1; k < major.size(); ++k)
    if (major[k] < major[k - 1] || (major[k] == major[k - 1] && minor[k] < minor[k - 1])) return false;
  return true;
}

Status read_entries(const Reader& r, CooMatrix& m) {
  const BinsparseDescriptor& d = r.d;
  const std::string& f = d.format;
  const int64_t n = d.stored;
  const bool vector = d.shape.size() == 1;
  const bool is_vector_format = f == "CVEC" || f == "VEC" || f == "DVEC";
  if (vector != is_vector_format)
    return r.fail("format " + f + " does not match a shape of rank " + std::to_string(d.shape.size()));
  m.rows = d.shape[0];
  m.cols = vector ? 1 : d.shape[1];

  if (f == "COO" || f == "COOR" || f == "COOC" || f == "CVEC" || f == "VEC") {
    auto i0 = r.integers("indices_0", n);
    if (!i0) return i0.error();
    m.row_indices = std::move(*i0);
    if (vector) {
      m.col_indices.assign(size_t(n), 0);
    } else {
      auto i1 = r.integers("indices_1", n);
      if (!i1) return i1.error();
      m.col_indices = std::move(*i1);
      // Finch.jl (these files carry its "tensor" key) wrote COOR with indices_0 holding
      // columns and indices_1 rows; its entries are then sorted by (indices_1, indices_0).
      if (f == "COOR" && d.finch_tensor && sorted_pairs(m.col_indices, m.row_indices) &&
          !sorted_pairs(m.row_indices, m.col_indices))
        std::swap(m.row_indices, m.col_indices);
    }
  } else if (f == "CSR" || f == "CSC" || f == "DCSR" || f == "DCSC") {
    const bool by_row = f == "CSR" || f == "DCSR";
    const bool doubly = f[0] == 'D';
    std::vector<int64_t> major_ids;  // which rows (columns) the pointers cover
    int64_t majors = by_row ? m.rows : m.cols;
    if (doubly) {
      const BinsparseType* t = r.type_of("indices_0");
      if (t == nullptr) return r.fail("data_types has no entry for 'indices_0'");
      H5Dataset set(H5Dopen2(r.file, "indices_0", H5P_DEFAULT));
      if (!set.valid()) return r.fail("missing dataset 'indices_0'");
      H5Space space(H5Dget_space(set.get()));
      const hssize_t k = H5Sget_simple_extent_npoints(space.get());
      if (k < 0) return r.fail("cannot size dataset 'indices_0'");
      auto ids = r.integers("indices_0", int64_t(k));
      if (!ids) return ids.error();
      major_ids = std::move(*ids);
      for (int64_t id : major_ids)
        if (id < 0 || id >= majors) return r.fail("'indices_0' holds an index outside the shape");
      majors = int64_t(major_ids.size());
    }
    auto ptr = r.integers("pointers_to_1", majors + 1);
    if (!ptr) return ptr.error();
    VKPRIM_TRY(r.check_pointers(*ptr));
    auto minor = r.integers("indices_1", n);
    if (!minor) return minor.error();
    std::vector<int64_t> major(static_cast<size_t>(n));
    for (int64_t i = 0; i < majors; ++i)
      std::fill(major.begin() + (*ptr)[size_t(i)], major.begin() + (*ptr)[size_t(i) + 1],
                doubly ? major_ids[size_t(i)] : i);
    m.row_indices = by_row ? std::move(major) : std::move(*minor);
    m.col_indices = by_row ? std::move(*minor) : std::move(major);
  } else if (f == "DMAT" || f == "DMATR" || f == "DMATC" || f == "DVEC") {
    int64_t cells = 0;
    if (__builtin_mul_overflow(m.rows, m.cols, &cells) || n != cells)
      return r.fail("a dense format must store rows x columns values");
    VKPRIM_TRY(r.values(m, n));  // first: checks the dataset really holds n values
    const bool by_row = f != "DMATC";
    m.row_indices.resize(size_t(n));
    m.col_indices.resize(size_t(n));
    for (int64_t k = 0; k < n; ++k) {
      m.row_indices[size_t(k)] = by_row ? k / m.cols : k % m.rows;
      m.col_indices[size_t(k)] = by_row ? k % m.cols : k / m.rows;
    }
    return {};
  } else {
    return make_error(Errc::unsupported, r.name + ": Binsparse format '" + f +
                                             "' is not supported (COO, COOR, COOC, CSR, CSC, DCSR, "
                                             "DCSC, DMAT, DMATR, DMATC, CVEC, VEC, DVEC are)");
  }
  return r.values(m, n);
}

// Applies the descriptor's `structure`: symmetry metadata, with an upper triangle moved
// to the lower one (the Matrix Market convention).
Status apply_structure(const Reader& r, CooMatrix& m) {
  const std::string& s = r.d.structure;
  if (s.empty()) return {};
  const auto split = s.rfind('_');
  const std::string kind = split == std::string::npos ? s : s.substr(0, split);
  const std::string part = split == std::string::npos ? "" : s.substr(split + 1);
  if (kind == "symmetric") m.symmetry = Symmetry::symmetric;
  else if (kind == "skew_symmetric") m.symmetry = Symmetry::skew_symmetric;
  else if (kind == "hermitian") m.symmetry = Symmetry::hermitian;
  else
    return make_error(Errc::unsupported, r.name + ": structure '" + s + "' is not supported");
  if (part != "lower" && part != "upper")
    return make_error(Errc::unsupported, r.name + ": structure '" + s + "' is not supported");
  if (m.rows != m.cols) return r.fail("structure '" + s + "' needs a square shape");
  if (part == "upper") {
    std::swap(m.row_indices, m.col_indices);
    if (m.symmetry == Symmetry::skew_symmetric) {
      for (double& v : m.real_values) v = -v;
      for (int64_t& v : m.integer_values) v = int64_t(0 - uint64_t(v));
    }
  }
  return {};
}

}  // namespace

Result<CooMatrix> read_binsparse(const std::filesystem::path& path, const BinsparseReadOptions& options) {
  H5Quiet quiet;
  const std::string name = path.string();
  if (!std::filesystem::exists(path)) return make_error(Errc::io_error, name + ": no such file");
  if (H5Fis_hdf5(name.c_str()) <= 0) return make_error(Errc::parse_error, name + ": not an HDF5 file");
  H5File file(H5Fopen(name.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file.valid()) return make_error(Errc::io_error, name + ": cannot open HDF5 file");

  // The descriptor: a fixed- or variable-length string attribute of the root group.
  if (H5Aexists(file.get(), "binsparse") <= 0)
    return make_error(Errc::parse_error, name + ": no 'binsparse' attribute on the root group (not a Binsparse file)");
  H5Attribute attr(H5Aopen(file.get(), "binsparse", H5P_DEFAULT));
  H5Type type(H5Aget_type(attr.get()));
  if (H5Tget_class(type.get()) != H5T_STRING)
    return make_error(Errc::parse_error, name + ": the 'binsparse' attribute is not a string");
  std::string json;
  if (H5Tis_variable_str(type.get()) > 0) {
    H5Type mem(H5Tcopy(H5T_C_S1));
    H5Tset_size(mem.get(), H5T_VARIABLE);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));  // HDF5 converts no character sets
    char* text = nullptr;
    if (H5Aread(attr.get(), mem.get(), &text) < 0 || text == nullptr)
      return make_error(Errc::io_error, name + ": cannot read the 'binsparse' attribute");
    json = text;
    H5free_memory(text);
  } else {
    const size_t size = H5Tget_size(type.get());
    H5Type mem(H5Tcopy(H5T_C_S1));
    H5Tset_size(mem.get(), size + 1);
    H5Tset_strpad(mem.get(), H5T_STR_NULLTERM);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
    std::string buffer(size + 1, '\0');
    if (H5Aread(attr.get(), mem.get(), buffer.data()) < 0)
      return make_error(Errc::io_error, name + ": cannot read the 'binsparse' attribute");
    json = buffer.c_str();
  }
  auto descriptor = parse_binsparse_descriptor(json, name);
  if (!descriptor) return descriptor.error();

  CooMatrix m;
  Reader reader{file.get(), name, *descriptor};
  try {
    VKPRIM_TRY(read_entries(reader, m));
  } catch (const std::bad_alloc&) {
    return make_error(Errc::out_of_host_memory, name + ": arrays do not fit in host memory");
  }
  VKPRIM_TRY(apply_structure(reader, m));
  if (auto v = validate(m); !v) return make_error(Errc::parse_error, name + ": " + v.error().message);
  if (options.expand_symmetry) expand_symmetry(m);
  if (options.sum_duplicates) sum_duplicates(m);
  return m;
}

}  // namespace vkprim::sparse
