// Binsparse reader: the file's structure checked and its arrays read by hdf5_scan (libhdf5,
// through the checked driver of hdf5_source, only lists the chunks of the HDF5 1.10 chunk
// indexes), then the descriptor's format assembled into a CooMatrix.
#include <vkprim/sparse/binsparse.hpp>

#include "binsparse_descriptor.hpp"
#include "hdf5_handle.hpp"
#include "hdf5_scan.hpp"
#include "hdf5_source.hpp"
#include "reader_support.hpp"

#include <algorithm>
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>

namespace vkprim::sparse {
namespace {

using namespace detail;

// Everything one read needs to report errors and reach datasets.
struct Reader {
  const Hdf5Scan& scan;
  const ByteSource& source;
  std::string name;  // file name for messages
  const BinsparseDescriptor& d;
  mutable H5File file;  // opened only for chunk indexes left to libhdf5

  Error fail(const std::string& what) const { return make_error(Errc::parse_error, name + ": " + what); }

  const BinsparseType* type_of(const std::string& ds) const {
    auto it = d.data_types.find(ds);
    return it == d.data_types.end() ? nullptr : &it->second;
  }

  // The elements of 1-D dataset `ds` (`count` of them, stored exactly as `type` declares)
  // in `out`, one 8-byte slot each: int64_t for integer types, double for float types.
  // Memory is allocated only once the file is known to store that many elements.
  template <class T>
  Status read(const std::string& ds, int64_t count, const BinsparseType& type, std::vector<T>& out) const {
    auto info = scan.dataset(ds);
    if (!info) return info.error();
    if (info->dims.size() != 1) return fail("dataset '" + ds + "' must be one-dimensional");
    if (info->dims[0] != uint64_t(count))
      return fail("dataset '" + ds + "' holds " + std::to_string(info->dims[0]) + " elements, expected " +
                  std::to_string(count));
    const H5Number& stored = info->type;
    const bool bint8 = type.scalar == "bint8" && stored.size == 1 && stored.kind != H5Number::Kind::ieee_float;
    if (stored.name() != type.scalar && !bint8)
      return fail("dataset '" + ds + "' stores " + stored.name() + " values, but data_types declares " + type.scalar);
    if (std::is_same_v<T, double> != (stored.kind == H5Number::Kind::ieee_float))
      return fail("dataset '" + ds + "' must hold " + (std::is_same_v<T, double> ? "floating-point" : "integer") +
                  " values");
    // What the file stores must account for every element, compressed at most as much as
    // zlib can: a small file cannot claim a large array.
    const uint64_t element_bytes = uint64_t(count) * stored.size;
    H5Object set;
    uint64_t stored_bytes = info->stored_bytes();
    if (!info->chunks_listed) {  // a chunk index of the HDF5 1.10 format: libhdf5 reads it
      if (!file.valid()) file = H5File(open_hdf5(source));
      set = H5Object(file.valid() ? H5Oopen_by_addr(file.get(), haddr_t(info->header)) : H5I_INVALID_HID);
      if (!set.valid() || H5Iget_type(set.get()) != H5I_DATASET)
        return fail("libhdf5 cannot open dataset '" + ds + "'");
      stored_bytes = H5Dget_storage_size(set.get());
    }
    if (element_bytes / info->expansion > stored_bytes)
      return fail("dataset '" + ds + "' claims " + std::to_string(count) + " elements but the file stores only " +
                  std::to_string(stored_bytes) + " bytes of them");
    if (!info->chunks_listed) VKPRIM_TRY(scan.list_chunks(*info, set.get(), ds));
    if (info->storage == H5DatasetScan::Storage::chunked && info->chunks.size() < info->chunks_expected)
      return fail("dataset '" + ds + "' stores " + std::to_string(info->chunks.size()) + " of its " +
                  std::to_string(info->chunks_expected) + " chunks");

    out.resize(size_t(count));
    if (count == 0) return {};
    // The stored width first, then widened in place from the back: element k's slot starts
    // at or after its stored bytes.
    auto* bytes = reinterpret_cast<uint8_t*>(out.data());
    VKPRIM_TRY(scan.read_elements(*info, std::span(bytes, size_t(element_bytes)), ds));
    auto widen = [&](auto tag) {
      using S = decltype(tag);
      for (size_t k = size_t(count); k-- > 0;) {
        S v;
        std::memcpy(&v, bytes + k * sizeof(S), sizeof(S));
        out[k] = T(v);
      }
    };
    if (stored.kind == H5Number::Kind::ieee_float) {
      if (stored.size == 4) widen(float{});
      return {};
    }
    if (stored.kind == H5Number::Kind::unsigned_int && stored.size == 8) {
      for (size_t k = 0; k < size_t(count); ++k)
        if (int64_t(out[k]) < 0)  // above INT64_MAX as uint64
          return fail("dataset '" + ds + "' holds " + std::to_string(uint64_t(int64_t(out[k]))) + " at element " +
                      std::to_string(k) + ", expected a value in the signed 64-bit range");
      return {};
    }
    const bool is_signed = stored.kind == H5Number::Kind::signed_int;
    switch (stored.size) {
      case 1: is_signed ? widen(int8_t{}) : widen(uint8_t{}); break;
      case 2: is_signed ? widen(int16_t{}) : widen(uint16_t{}); break;
      case 4: is_signed ? widen(int32_t{}) : widen(uint32_t{}); break;
      default: break;
    }
    return {};
  }

  // An index or pointer array: integers in [0, limit), `what` naming them in messages.
  Result<std::vector<int64_t>> integers(const std::string& ds, int64_t count, int64_t limit,
                                        const std::string& what) const {
    const BinsparseType* type = type_of(ds);
    if (type == nullptr) return fail("data_types has no entry for '" + ds + "'");
    if (!type->is_integer() || type->iso || type->complex)
      return fail("data_types." + ds + " must be an integer type, found " + type->scalar);
    std::vector<int64_t> out;
    VKPRIM_TRY(read(ds, count, *type, out));
    for (size_t k = 0; k < out.size(); ++k)
      if (out[k] < 0 || out[k] >= limit)
        return fail("dataset '" + ds + "' holds " + std::to_string(out[k]) + " at element " + std::to_string(k) +
                    ", expected " + what + " in 0.." + std::to_string(limit - 1));
    return out;
  }

  // Reads `values` (count stored values, 1 if iso) into m's value array, setting m.field.
  Status values(CooMatrix& m, int64_t count) const {
    const BinsparseType* type = type_of("values");
    if (type == nullptr) return fail("data_types has no entry for 'values'");
    const int64_t in_file = type->iso ? 1 : count;
    if (type->complex) {
      // complex[float32|float64]: the dataset holds 2 * in_file floats, each value's real
      // part at 2k and its imaginary part at 2k + 1 (Binsparse v0.1, "Complex Values").
      if (!type->is_float())
        return fail("data_types.values: complex[...] needs float32 or float64, found complex[" +
                    type->scalar + "]");
      if (in_file > INT64_MAX / 2) return fail("dataset 'values' is too large for complex values");
      std::vector<double> parts;
      VKPRIM_TRY(read("values", 2 * in_file, *type, parts));
      m.field = Field::complex;
      m.complex_values.resize(size_t(in_file));
      for (size_t k = 0; k < size_t(in_file); ++k)
        m.complex_values[k] = {parts[2 * k], parts[2 * k + 1]};
      if (type->iso) m.complex_values.assign(size_t(count), m.complex_values[0]);
      return {};
    }
    if (type->is_float()) {
      m.field = Field::real;
      VKPRIM_TRY(read("values", in_file, *type, m.real_values));
    } else {
      m.field = Field::integer;
      VKPRIM_TRY(read("values", in_file, *type, m.integer_values));
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

Status read_entries(const Reader& r, const BinsparseReadOptions& options, CooMatrix& m) {
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
    // Finch.jl (these files carry its "tensor" key) wrote COOR with indices_0 holding
    // columns and indices_1 rows; its entries are then sorted by (indices_1, indices_0).
    const bool maybe_swapped = f == "COOR" && d.finch_tensor;
    const int64_t limit0 = maybe_swapped ? std::max(m.rows, m.cols) : m.rows;
    auto i0 = r.integers("indices_0", n, limit0, vector ? "an index" : "a row index");
    if (!i0) return i0.error();
    m.row_indices = std::move(*i0);
    if (vector) {
      m.col_indices.assign(size_t(n), 0);
    } else {
      auto i1 = r.integers("indices_1", n, maybe_swapped ? std::max(m.rows, m.cols) : m.cols, "a column index");
      if (!i1) return i1.error();
      m.col_indices = std::move(*i1);
      if (maybe_swapped && sorted_pairs(m.col_indices, m.row_indices) && !sorted_pairs(m.row_indices, m.col_indices))
        std::swap(m.row_indices, m.col_indices);
    }
  } else if (f == "CSR" || f == "CSC" || f == "DCSR" || f == "DCSC") {
    const bool by_row = f == "CSR" || f == "DCSR";
    const bool doubly = f[0] == 'D';
    std::vector<int64_t> major_ids;  // which rows (columns) the pointers cover
    const int64_t major_limit = by_row ? m.rows : m.cols;
    int64_t majors = major_limit;
    if (doubly) {
      auto info = r.scan.dataset("indices_0");
      if (!info) return info.error();
      if (info->dims.size() != 1) return r.fail("dataset 'indices_0' must be one-dimensional");
      if (info->dims[0] > uint64_t(majors)) return r.fail("dataset 'indices_0' holds more indices than the shape has");
      auto ids = r.integers("indices_0", int64_t(info->dims[0]), major_limit,
                            by_row ? "a row index" : "a column index");
      if (!ids) return ids.error();
      major_ids = std::move(*ids);
      majors = int64_t(major_ids.size());
    }
    if (majors == INT64_MAX) return r.fail("a shape of 2^63 - 1 rows or columns has no pointer array");
    auto ptr = r.integers("pointers_to_1", majors + 1, n == INT64_MAX ? n : n + 1, "a pointer");
    if (!ptr) return ptr.error();
    VKPRIM_TRY(r.check_pointers(*ptr));
    auto minor = r.integers("indices_1", n, by_row ? m.cols : m.rows, by_row ? "a column index" : "a row index");
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
    // Every cell becomes an entry with its indices made here, and an iso file stores one
    // value for all of them: the count is capped by the caller's limit.
    if (n > options.max_dense_entries)
      return make_error(Errc::limit_exceeded,
                        r.name + ": a dense " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                            " matrix has " + std::to_string(n) + " entries, more than the limit of " +
                            std::to_string(options.max_dense_entries) +
                            " (raise BinsparseReadOptions::max_dense_entries to read it)");
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
    // The lower triangle's value of a skew matrix is the negated upper one (the diagonal
    // stays as stored).
    if (m.symmetry == Symmetry::skew_symmetric) {
      if (const int64_t k = skew_unnegatable_entry(m); k >= 0)
        return r.fail("entry " + std::to_string(k) + " of the skew-symmetric upper triangle holds -2^63, whose "
                      "negation (its lower-triangle value) does not fit the signed 64-bit range");
      for (size_t k = 0; k < m.row_indices.size(); ++k) {
        if (m.row_indices[k] == m.col_indices[k]) continue;
        if (m.field == Field::real) m.real_values[k] = -m.real_values[k];
        if (m.field == Field::integer) m.integer_values[k] = -m.integer_values[k];
        if (m.field == Field::complex) m.complex_values[k] = -m.complex_values[k];
      }
    }
    // A hermitian complex matrix's lower-triangle value is the conjugated upper one.
    if (m.symmetry == Symmetry::hermitian && m.field == Field::complex)
      for (size_t k = 0; k < m.row_indices.size(); ++k)
        if (m.row_indices[k] != m.col_indices[k])
          m.complex_values[k] = std::conj(m.complex_values[k]);
    std::swap(m.row_indices, m.col_indices);
  }
  return {};
}

Result<CooMatrix> read_source(const ByteSource& source, const std::string& name, const BinsparseReadOptions& options) {
  H5Quiet quiet;
  auto scan = Hdf5Scan::open(source, name);
  if (!scan) return scan.error();
  auto json = scan->root_string_attribute("binsparse");
  if (!json) return json.error();
  // A descriptor is a few hundred bytes; a JSON document takes many times its text in
  // memory, so a larger one is refused before it is parsed.
  constexpr size_t kLargestDescriptor = size_t(1) << 20;
  if (json->size() > kLargestDescriptor)
    return make_error(Errc::parse_error, name + ": the 'binsparse' attribute holds " + std::to_string(json->size()) +
                                             " bytes, more than a descriptor may (1 MiB)");
  auto descriptor = parse_binsparse_descriptor(*json, name);
  if (!descriptor) return descriptor.error();

  CooMatrix m;
  Reader reader{*scan, source, name, *descriptor, {}};
  VKPRIM_TRY(read_entries(reader, options, m));
  VKPRIM_TRY(apply_structure(reader, m));
  if (auto v = validate(m); !v) return make_error(Errc::parse_error, name + ": " + v.error().message);
  VKPRIM_TRY(finish_read(m, options.expand_symmetry, options.sum_duplicates, name));
  return m;
}

}  // namespace

Result<CooMatrix> read_binsparse(const std::filesystem::path& path, const BinsparseReadOptions& options) {
  return no_throw(path.native(), [&]() -> Result<CooMatrix> {
    const std::string name = path.string();
    auto source = ByteSource::open(path, name);
    if (!source) return source.error();
    return read_source(*source, name, options);
  });
}

Result<CooMatrix> parse_binsparse(std::span<const std::byte> image, std::string_view name,
                                  const BinsparseReadOptions& options) {
  return no_throw(name, [&] { return read_source(ByteSource::memory(image), std::string(name), options); });
}

}  // namespace vkprim::sparse
