// The HDF5 structure check (see hdf5_scan.hpp). Field layouts follow the HDF5 File Format
// Specification version 3.0 (HDF5 1.10); every field is read through Cursor, which never
// reads past the bytes fetched, and every fetch stays inside the file's end-of-file address.
#include "hdf5_scan.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <set>

namespace vkprim::sparse::detail {
namespace {

constexpr uint64_t kUndefined = UINT64_MAX;  // an address with every bit set

// Object header message types.
enum : uint16_t {
  kDataspace = 1,
  kLinkInfo = 2,
  kDatatype = 3,
  kFillOld = 4,
  kFill = 5,
  kLink = 6,
  kExternal = 7,
  kLayout = 8,
  kPipeline = 11,
  kAttribute = 12,
  kContinuation = 16,
  kSymbolTable = 17,
  kAttributeInfo = 21,
  kRefCount = 22,
};

constexpr uint8_t kMessageShared = 0x02;

// Little-endian fields of one buffer. Reading past its end yields zeros and clears ok().
class Cursor {
 public:
  Cursor(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
  explicit Cursor(const std::vector<uint8_t>& v) : Cursor(v.data(), v.size()) {}

  uint64_t u(size_t bytes) {  // bytes <= 8
    const uint8_t* q = take(bytes);
    uint64_t v = 0;
    if (q)
      for (size_t i = 0; i < bytes; ++i) v |= uint64_t(q[i]) << (8 * i);
    return v;
  }
  uint8_t u8() { return uint8_t(u(1)); }
  // An address of `bytes` bytes; every bit set means "undefined".
  uint64_t address(size_t bytes) {
    const uint64_t v = u(bytes);
    return bytes < 8 && v == (uint64_t(1) << (8 * bytes)) - 1 ? kUndefined : v;
  }
  // The next n bytes, or null (and !ok()) when fewer are left.
  const uint8_t* take(uint64_t n) {
    if (!ok_ || n > left()) {
      ok_ = false;
      p_ = end_;
      return nullptr;
    }
    const uint8_t* q = p_;
    p_ += n;
    return q;
  }
  bool signature(const char* four) {
    const uint8_t* q = take(4);
    return q && std::memcmp(q, four, 4) == 0;
  }
  size_t left() const { return size_t(end_ - p_); }
  bool ok() const { return ok_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

uint64_t round8(uint64_t n) { return (n + 7) & ~uint64_t(7); }

// Bob Jenkins' lookup3 hashlittle() with initial value 0: the checksum of HDF5's version 2
// structures (H5_checksum_lookup3).
uint32_t lookup3(const uint8_t* k, size_t length) {
  auto rot = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
  auto word = [](const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  };
  uint32_t a = 0xdeadbeef + uint32_t(length), b = a, c = a;
  while (length > 12) {
    a += word(k);
    b += word(k + 4);
    c += word(k + 8);
    a -= c, a ^= rot(c, 4), c += b;
    b -= a, b ^= rot(a, 6), a += c;
    c -= b, c ^= rot(b, 8), b += a;
    a -= c, a ^= rot(c, 16), c += b;
    b -= a, b ^= rot(a, 19), a += c;
    c -= b, c ^= rot(b, 4), b += a;
    length -= 12;
    k += 12;
  }
  if (length == 0) return c;
  uint8_t tail[12] = {};  // the last 1..12 bytes, zero-padded
  std::memcpy(tail, k, length);
  a += word(tail);
  b += word(tail + 4);
  c += word(tail + 8);
  c ^= b, c -= rot(b, 14);
  a ^= c, a -= rot(c, 11);
  b ^= a, b -= rot(a, 25);
  c ^= b, c -= rot(b, 16);
  a ^= c, a -= rot(c, 4);
  b ^= a, b -= rot(a, 14);
  c ^= b, c -= rot(b, 24);
  return c;
}

// Whether the last 4 bytes of `bytes` are the lookup3 checksum of the others.
bool checksum_matches(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < 4) return false;
  Cursor c(bytes.data() + bytes.size() - 4, 4);
  return lookup3(bytes.data(), bytes.size() - 4) == c.u(4);
}

// A problem found in a structure: corrupt, or valid HDF5 outside what is supported.
struct Problem {
  bool unsupported = false;
  std::string what;
  explicit operator bool() const { return !what.empty(); }
};
Problem bad(std::string what) { return {false, std::move(what)}; }
Problem unsupported_feature(std::string what) { return {true, std::move(what)}; }

struct Dataspace {
  enum Type { scalar, simple, null } type = scalar;
  std::vector<uint64_t> dims;
};

Problem parse_dataspace(const std::vector<uint8_t>& data, unsigned length_size, Dataspace& out) {
  Cursor c(data);
  const unsigned version = c.u8();
  const unsigned rank = c.u8();
  const unsigned flags = c.u8();
  if (version == 1) {
    c.take(5);
    out.type = rank > 0 ? Dataspace::simple : Dataspace::scalar;
  } else if (version == 2) {
    const unsigned type = c.u8();
    if (type > 2) return bad("dataspace of unknown type " + std::to_string(type));
    out.type = Dataspace::Type(type);
    if (out.type != Dataspace::simple && rank != 0) return bad("scalar or null dataspace with dimensions");
  } else {
    return bad("dataspace message of version " + std::to_string(version));
  }
  if (rank > 32) return bad("dataspace of rank " + std::to_string(rank) + " (at most 32)");
  if (flags & ~1u) return flags & 2u ? unsupported_feature("dataspace permutations") : bad("dataspace flags");
  for (unsigned d = 0; d < rank; ++d) out.dims.push_back(c.u(length_size));
  if (flags & 1u) c.take(uint64_t(rank) * length_size);  // maximum dimensions
  if (!c.ok()) return bad("dataspace message shorter than its rank needs");
  return {};
}

struct Datatype {
  unsigned cls = 0;
  uint32_t bits = 0;
  uint64_t size = 0;
  bool is_number = false;
  H5Number number;
  bool vlen_string = false;
};

// Integers (class 0), floats (1), strings (3) and variable-length strings (9): what
// Binsparse datasets and the descriptor attribute use.
Problem parse_datatype(Cursor& c, Datatype& t, int depth) {
  const unsigned b0 = c.u8();
  t.cls = b0 & 15;
  const unsigned version = b0 >> 4;
  t.bits = uint32_t(c.u(3));
  t.size = c.u(4);
  if (!c.ok()) return bad("datatype message too short");
  if (version < 1 || version > 4) return bad("datatype message of version " + std::to_string(version));
  if (t.size == 0) return bad("datatype of size 0");
  switch (t.cls) {
    case 0: {  // fixed-point
      const uint64_t offset = c.u(2), precision = c.u(2);
      if (!c.ok()) return bad("integer datatype message too short");
      if (offset != 0 || precision != 8 * t.size || (t.size != 1 && t.size != 2 && t.size != 4 && t.size != 8))
        return unsupported_feature("integers of " + std::to_string(precision) + " bits at bit " +
                                   std::to_string(offset) + " of " + std::to_string(t.size) + "-byte elements");
      t.is_number = true;
      t.number.kind = t.bits & 8u ? H5Number::Kind::signed_int : H5Number::Kind::unsigned_int;
      t.number.size = unsigned(t.size);
      t.number.big_endian = t.bits & 1u;
      return {};
    }
    case 1: {  // floating point: only the IEEE binary32 and binary64 layouts
      const uint64_t offset = c.u(2), precision = c.u(2);
      const unsigned exp_at = c.u8(), exp_bits = c.u8(), mant_at = c.u8(), mant_bits = c.u8();
      const uint64_t bias = c.u(4);
      if (!c.ok()) return bad("floating-point datatype message too short");
      const unsigned sign_at = (t.bits >> 8) & 0xff, normalization = (t.bits >> 4) & 3;
      if (t.bits & 0x40u) return unsupported_feature("VAX-order floating-point values");
      const bool f32 = t.size == 4 && precision == 32 && exp_at == 23 && exp_bits == 8 && mant_bits == 23 &&
                       bias == 127 && sign_at == 31;
      const bool f64 = t.size == 8 && precision == 64 && exp_at == 52 && exp_bits == 11 && mant_bits == 52 &&
                       bias == 1023 && sign_at == 63;
      if (!(f32 || f64) || offset != 0 || mant_at != 0 || normalization != 2)
        return unsupported_feature("floating-point values other than IEEE binary32 and binary64");
      t.is_number = true;
      t.number.kind = H5Number::Kind::ieee_float;
      t.number.size = unsigned(t.size);
      t.number.big_endian = t.bits & 1u;
      return {};
    }
    case 3:  // fixed-length string
      return {};
    case 9: {  // variable-length sequence or string of one-byte characters
      if (depth > 0) return unsupported_feature("nested variable-length datatypes");
      Datatype base;
      if (Problem p = parse_datatype(c, base, depth + 1)) return p;
      if ((base.cls != 0 && base.cls != 3) || base.size != 1)
        return unsupported_feature("variable-length data other than strings");
      t.vlen_string = (t.bits & 15u) == 1;
      return {};
    }
    default:
      return unsupported_feature("HDF5 datatype class " + std::to_string(t.cls));
  }
}

// A fill value message (new or old form): its value, when present, has the element size.
Problem check_fill(const std::vector<uint8_t>& data, bool old_form, uint64_t element_size) {
  Cursor c(data);
  bool has_value = true;
  if (!old_form) {
    const unsigned version = c.u8();
    if (version == 1 || version == 2) {
      c.take(2);  // allocation time, write time
      has_value = c.u8() != 0;
    } else if (version == 3) {
      const unsigned flags = c.u8();
      if (flags & ~0x3fu) return bad("fill value flags");
      has_value = flags & 0x20u;
    } else {
      return bad("fill value message of version " + std::to_string(version));
    }
  }
  if (has_value) {
    const uint64_t size = c.u(4);
    c.take(size);
    if (size != 0 && size != element_size)
      return bad("fill value of " + std::to_string(size) + " bytes for " + std::to_string(element_size) +
                 "-byte elements");
  }
  if (!c.ok()) return bad("fill value message too short");
  return {};
}

struct Pipeline {
  std::vector<unsigned> filters;  // in pipeline (write) order
  bool deflate = false;
};

// Deflate (1), shuffle (2) and fletcher32 (3), with the parameters HDF5 gives them.
Problem parse_pipeline(const std::vector<uint8_t>& data, uint64_t element_size, Pipeline& out) {
  Cursor c(data);
  const unsigned version = c.u8();
  const unsigned filters = c.u8();
  if (version != 1 && version != 2) return bad("filter pipeline message of version " + std::to_string(version));
  if (filters > 32) return bad("filter pipeline of " + std::to_string(filters) + " filters (at most 32)");
  if (version == 1) c.take(6);
  for (unsigned f = 0; f < filters; ++f) {
    const uint64_t id = c.u(2);
    const uint64_t name_length = version == 1 || id >= 256 ? c.u(2) : 0;
    c.u(2);  // flags
    const uint64_t values = c.u(2);
    const uint8_t* name = c.take(version == 1 ? round8(name_length) : name_length);
    if (name_length > 0 && name != nullptr && std::memchr(name, 0, name_length) == nullptr)
      return bad("filter name without a terminating NUL");
    std::vector<uint64_t> cd;
    for (uint64_t v = 0; v < values && c.ok(); ++v) cd.push_back(c.u(4));
    if (version == 1 && values % 2) c.take(4);
    if (!c.ok()) return bad("filter pipeline message too short");
    out.filters.push_back(unsigned(id));
    if (id == 1) {
      if (cd.size() != 1 || cd[0] > 9) return bad("deflate filter parameters");
      out.deflate = true;
    } else if (id == 2) {
      if (cd.size() != 1 || cd[0] != element_size) return bad("shuffle filter parameters");
    } else if (id != 3) {
      return unsupported_feature("HDF5 filter " + std::to_string(id) +
                                 " (deflate, shuffle and fletcher32 are read)");
    }
  }
  return {};
}

// Fletcher-32 as HDF5 computes it (H5_checksum_fletcher32): sums of big-endian 16-bit words.
uint32_t fletcher32(const uint8_t* data, size_t length) {
  uint32_t sum1 = 0, sum2 = 0;
  for (size_t words = length / 2; words > 0;) {
    size_t block = std::min<size_t>(words, 360);  // sums that cannot overflow before folding
    words -= block;
    do {
      sum1 += uint32_t(data[0]) << 8 | data[1];
      data += 2;
      sum2 += sum1;
    } while (--block);
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  if (length % 2) {
    sum1 += uint32_t(*data) << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  return sum2 << 16 | sum1;
}

// Undoes `filters` (pipeline order; bit i of `mask` set: filter i was skipped) on one
// stored chunk, last filter first. Each step checks its input: a chunk shorter than its
// checksum, a checksum that differs, a deflate stream that does not end at exactly
// `chunk_bytes` bytes (zlib expands at most 1032:1, checked before allocating) are errors.
Problem unfilter(std::vector<uint8_t>& raw, const std::vector<unsigned>& filters, uint32_t mask, unsigned element_size,
                 uint64_t chunk_bytes) {
  for (size_t i = filters.size(); i-- > 0;) {
    if (mask & (uint32_t(1) << i)) continue;
    if (filters[i] == 3) {  // fletcher32: the checksum of the rest, appended
      if (raw.size() < 4) return bad("chunk shorter than its fletcher32 checksum");
      const size_t n = raw.size() - 4;
      Cursor tail(raw.data() + n, 4);
      const uint32_t stored = uint32_t(tail.u(4)), sum = fletcher32(raw.data(), n);
      const uint32_t swapped = ((sum & 0x00ff00ffu) << 8) | ((sum >> 8) & 0x00ff00ffu);  // before HDF5 1.6.3
      if (stored != sum && stored != swapped) return bad("fletcher32 checksum mismatch in a chunk");
      raw.resize(n);
    } else if (filters[i] == 1) {  // deflate: a zlib stream
      if (raw.size() > UINT32_MAX || chunk_bytes > uint64_t(raw.size()) * 1032 + 64)
        return bad("deflated chunk of " + std::to_string(raw.size()) + " bytes cannot hold " +
                   std::to_string(chunk_bytes));
      std::vector<uint8_t> inflated(size_t(chunk_bytes) + 1);  // a spare byte: a longer stream shows
      z_stream z{};
      if (inflateInit(&z) != Z_OK) throw std::bad_alloc();
      z.next_in = raw.data();
      z.avail_in = uInt(raw.size());
      z.next_out = inflated.data();
      z.avail_out = uInt(inflated.size());
      const int rc = inflate(&z, Z_FINISH);
      const uint64_t produced = z.total_out;
      inflateEnd(&z);
      if (rc != Z_STREAM_END || produced != chunk_bytes) return bad("deflated chunk does not inflate to its size");
      inflated.resize(size_t(chunk_bytes));
      raw = std::move(inflated);
    } else if (filters[i] == 2) {  // shuffle: byte j of every element stored together
      const size_t n = raw.size() / element_size;
      if (element_size < 2 || n < 2) continue;
      std::vector<uint8_t> plain(raw.size());
      for (size_t j = 0; j < element_size; ++j)
        for (size_t k = 0; k < n; ++k) plain[k * element_size + j] = raw[j * n + k];
      std::copy(raw.begin() + std::ptrdiff_t(n * element_size), raw.end(),
                plain.begin() + std::ptrdiff_t(n * element_size));  // leftover bytes as stored
      raw = std::move(plain);
    }
  }
  return {};
}

// Each listed chunk of a one-dimensional dataset lies in the file, at a multiple of the
// chunk size inside the dataspace, in rising order.
Problem check_chunks(const H5DatasetScan& d, uint64_t end) {
  for (size_t k = 0; k < d.chunks.size(); ++k) {
    const H5Chunk& c = d.chunks[k];
    if (c.size == 0 || c.address == kUndefined || c.address > end || c.size > end - c.address)
      return bad("chunk outside the file");
    if (c.offset % d.chunk != 0 || c.offset >= d.dims[0] || (k > 0 && c.offset <= d.chunks[k - 1].offset))
      return bad("chunks out of order or outside the dataspace");
  }
  return {};
}

}  // namespace

uint64_t H5DatasetScan::stored_bytes() const {
  switch (storage) {
    case Storage::none: return 0;
    case Storage::compact: return compact.size();
    case Storage::contiguous: return dims.empty() ? type.size : dims[0] * type.size;
    case Storage::chunked: break;
  }
  uint64_t sum = 0;
  for (const H5Chunk& c : chunks) sum += c.size;
  return sum;
}

std::string H5Number::name() const {
  const char* kind_name = kind == Kind::ieee_float ? "float" : kind == Kind::signed_int ? "int" : "uint";
  return kind_name + std::to_string(8 * size);
}

Error Hdf5Scan::corrupt(const std::string& what, uint64_t at) const {
  return make_error(Errc::parse_error,
                    name_ + ": corrupt HDF5 file: " + what + " (at byte " + std::to_string(base_ + at) + ")");
}

Error Hdf5Scan::unsupported(const std::string& what) const {
  return make_error(Errc::unsupported, name_ + ": " + what + " (an HDF5 feature vkprim's Binsparse reader refuses)");
}

Result<std::vector<uint8_t>> Hdf5Scan::fetch(uint64_t address, uint64_t n, const char* what) const {
  if (address == kUndefined || address > end_ || n > end_ - address)
    return corrupt(std::string(what) + " of " + std::to_string(n) + " bytes lies outside the file", address);
  std::vector<uint8_t> bytes(n);
  if (!source_->read(base_ + address, n, bytes.data()))
    return make_error(Errc::io_error, name_ + ": read failed");
  return bytes;
}

Result<Hdf5Scan> Hdf5Scan::open(const ByteSource& source, const std::string& name) {
  Hdf5Scan s(source, name);
  // The superblock sits at 0, 512, 1024, ... (after a user block), as HDF5 searches.
  static const uint8_t kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  uint64_t at = 0;
  for (;;) {
    uint8_t sig[8];
    if (!source.read(at, 8, sig)) return make_error(Errc::parse_error, name + ": not an HDF5 file");
    if (std::memcmp(sig, kSignature, 8) == 0) break;
    at = at == 0 ? 512 : 2 * at;
  }
  uint8_t block[128] = {};
  const size_t have = size_t(std::min<uint64_t>(sizeof block, source.size() - at));
  if (!source.read(at, have, block)) return make_error(Errc::io_error, name + ": read failed");
  s.base_ = at;
  Cursor c(block, have);
  c.take(8);
  const unsigned version = c.u8();
  uint64_t stored_base = 0, stored_eof = 0, root = 0, driver = kUndefined;
  if (version <= 1) {
    const unsigned free_space = c.u8(), root_entry = c.u8();
    c.u8();
    const unsigned shared_header = c.u8();
    s.offset_size_ = c.u8();
    s.length_size_ = c.u8();
    c.u8();
    s.group_leaf_k_ = unsigned(c.u(2));
    s.group_internal_k_ = unsigned(c.u(2));
    c.u(4);  // consistency flags
    if (version == 1) {
      s.chunk_k_ = unsigned(c.u(2));
      c.u(2);
    }
    if (free_space != 0 || root_entry != 0 || shared_header != 0)
      return s.corrupt("superblock with unknown component versions", 0);
    if (s.group_leaf_k_ == 0 || s.group_internal_k_ == 0 || s.chunk_k_ == 0 ||
        s.group_internal_k_ > 0x7fff || s.chunk_k_ > 0x7fff || s.group_leaf_k_ > 0x7fff)
      return s.corrupt("superblock B-tree parameters out of range", 0);
  } else if (version == 2 || version == 3) {
    s.offset_size_ = c.u8();
    s.length_size_ = c.u8();
    c.u8();  // consistency flags
  } else {
    return s.unsupported("superblock version " + std::to_string(version));
  }
  for (unsigned size : {s.offset_size_, s.length_size_})
    if (size != 2 && size != 4 && size != 8)
      return s.corrupt("superblock field sizes other than 2, 4 or 8 bytes", 0);
  stored_base = c.address(s.offset_size_);
  if (version <= 1) {
    c.address(s.offset_size_);  // free-space information: unused by HDF5 1.10
    stored_eof = c.address(s.offset_size_);
    driver = c.address(s.offset_size_);
    c.address(s.offset_size_);  // root symbol table entry: link name offset
    root = c.address(s.offset_size_);
    c.take(24);  // cache type, reserved, scratch pad
  } else {
    if (c.address(s.offset_size_) != kUndefined) return s.unsupported("an HDF5 superblock extension");
    stored_eof = c.address(s.offset_size_);
    root = c.address(s.offset_size_);
    c.take(4);
    const size_t size = 12 + 4 * size_t(s.offset_size_) + 4;
    if (c.ok() && !checksum_matches(std::vector<uint8_t>(block, block + size)))
      return s.corrupt("superblock checksum mismatch", 0);
  }
  if (!c.ok()) return s.corrupt("superblock cut short", 0);
  // As HDF5 does: addresses are relative to where the superblock is, whatever base the
  // file records, and the stored end of file moves with it.
  if (stored_base != at) stored_eof -= stored_base - at;
  if (stored_eof == kUndefined || stored_eof > source.size() || stored_eof < at)
    return make_error(Errc::parse_error, name + ": corrupt HDF5 file: truncated, or its superblock's end-of-file "
                                                "address is wrong (" + std::to_string(source.size()) + " bytes)");
  s.end_ = stored_eof - at;
  if (driver != kUndefined) {  // driver information block: version, reserved, size, name
    auto head = s.fetch(driver, 16, "driver information block");
    if (!head) return head.error();
    Cursor d(*head);
    if (d.u8() != 0) return s.corrupt("driver information block of unknown version", driver);
    d.take(3);
    VKPRIM_TRY(s.fetch(driver + 16, d.u(4), "driver information"));
  }

  auto messages = s.object_header(root);
  if (!messages) return messages.error();
  s.root_ = std::move(*messages);
  const Message* stab = nullptr;
  const Message* link_info = nullptr;
  for (const Message& m : s.root_) {
    if (m.type == kSymbolTable && stab == nullptr) stab = &m;
    if (m.type == kLinkInfo && link_info == nullptr) link_info = &m;
  }
  if (stab != nullptr) {
    VKPRIM_TRY(s.read_symbol_table(*stab));
  } else if (link_info != nullptr) {
    Cursor l(link_info->data);
    const unsigned version = l.u8(), flags = l.u8();
    if (flags & 1u) l.take(8);
    const uint64_t heap = l.address(s.offset_size_);
    if (!l.ok() || version != 0) return s.corrupt("link info message", link_info->at);
    if (heap != kUndefined) return s.unsupported("dense link storage in the root group");
    for (const Message& m : s.root_)
      if (m.type == kLink) VKPRIM_TRY(s.read_link(m));
  } else {
    return s.corrupt("the root object is not a group", root);
  }
  return s;
}

Result<std::vector<Hdf5Scan::Message>> Hdf5Scan::object_header(uint64_t address) const {
  constexpr size_t kMaxChunks = 4096;
  if (address == kUndefined || address >= end_) return corrupt("object header address outside the file", address);
  auto prefix = fetch(address, std::min<uint64_t>(34, end_ - address), "object header");
  if (!prefix) return prefix.error();
  Cursor c(*prefix);
  int version = 0;
  unsigned flags = 0;
  // Chunks in order: [address, address + size), messages after `skip` bytes; version 2
  // chunks end with a checksum of everything before it.
  struct Chunk {
    uint64_t address, size, skip;
  };
  std::vector<Chunk> chunks;
  if ((*prefix)[0] == 1) {
    version = 1;
    c.take(2);
    const uint64_t messages = c.u(2);
    c.take(4);
    const uint64_t size = c.u(4);
    if (!c.ok() || (messages > 0 && size < 8) || (messages == 0 && size > 0))
      return corrupt("object header prefix", address);
    chunks.push_back({address + 16, size, 0});
  } else if (c.signature("OHDR")) {
    version = c.u8();
    flags = c.u8();
    if (version != 2 || (flags & ~0x3fu)) return corrupt("object header of unknown version or flags", address);
    if (flags & 0x20u) c.take(16);  // times
    if (flags & 0x10u) c.take(4);   // attribute storage phase change
    const uint64_t size = c.u(size_t(1) << (flags & 3u));
    if (!c.ok()) return corrupt("object header prefix cut short", address);
    const uint64_t prefix_size = prefix->size() - c.left();
    if (size > end_ - address - prefix_size || end_ - address - prefix_size - size < 4)
      return corrupt("object header larger than the file", address);
    chunks.push_back({address, prefix_size + size + 4, prefix_size});
  } else {
    return corrupt("no object header at this address", address);
  }

  std::vector<Message> out;
  std::set<uint64_t> seen = {address};
  const size_t header_bytes = version == 1 ? 8 : (flags & 4u) ? 6 : 4;
  uint64_t budget = end_;  // a header's chunks do not overlap: together they fit the file
  for (size_t k = 0; k < chunks.size(); ++k) {
    if (chunks[k].size > budget) return corrupt("object header chunks larger than the file", chunks[k].address);
    budget -= chunks[k].size;
    auto bytes = fetch(chunks[k].address, chunks[k].size, "object header chunk");
    if (!bytes) return bytes.error();
    uint64_t at = chunks[k].address + chunks[k].skip, size = chunks[k].size - chunks[k].skip;
    if (version == 2) {
      if (k > 0 && (size < 8 || std::memcmp(bytes->data(), "OCHK", 4) != 0))
        return corrupt("object header continuation without its signature", chunks[k].address);
      // HDF5 checks the checksum too, but leaks memory when it fails: checked here first.
      if (!checksum_matches(*bytes)) return corrupt("object header checksum mismatch", chunks[k].address);
      if (k > 0) at += 4, size -= 4;
      size -= 4;
    }
    Cursor m(bytes->data() + (at - chunks[k].address), size_t(size));
    while (m.left() > 0) {
      if (m.left() < header_bytes) {
        if (version == 1) return corrupt("object header message cut short", at + size - m.left());
        break;  // a gap at the end of a version 2 chunk
      }
      const uint64_t where = at + size - m.left();
      Message msg;
      msg.type = uint16_t(version == 1 ? m.u(2) : m.u8());
      const uint64_t length = m.u(2);
      msg.flags = m.u8();
      m.take(header_bytes - (version == 1 ? 5 : 4));  // reserved, or creation order
      if (version == 1 && length % 8) return corrupt("object header message not 8-byte aligned", where);
      const uint8_t* data = m.take(length);
      if (data == nullptr) return corrupt("object header message runs past its chunk", where);
      msg.at = where + header_bytes;
      msg.data.assign(data, data + length);
      if (msg.type == kContinuation) {
        Cursor cont(msg.data);
        const uint64_t next = cont.address(offset_size_), next_size = cont.u(length_size_);
        if (!cont.ok() || next == kUndefined || next_size == 0) return corrupt("continuation message", msg.at);
        if (!seen.insert(next).second || chunks.size() >= kMaxChunks)
          return corrupt("object header continuations loop", msg.at);
        chunks.push_back({next, next_size, 0});
      } else if (msg.type == kRefCount) {  // decoded by HDF5 as the header loads
        if (version == 1 || msg.data.size() < 5 || msg.data[0] != 0) return corrupt("reference count message", msg.at);
      }
      out.push_back(std::move(msg));
    }
  }
  return out;
}

Status Hdf5Scan::read_symbol_table(const Message& stab) {
  const unsigned O = offset_size_, L = length_size_;
  Cursor c(stab.data);
  const uint64_t btree = c.address(O), heap = c.address(O);
  if (!c.ok()) return corrupt("symbol table message", stab.at);

  // The local heap holding the names.
  auto heap_header = fetch(heap, 8 + 2 * L + O, "local heap");
  if (!heap_header) return heap_header.error();
  Cursor h(*heap_header);
  if (!h.signature("HEAP") || h.u8() != 0) return corrupt("local heap signature or version", heap);
  h.take(3);
  const uint64_t heap_size = h.u(L);
  h.u(L);  // free list
  const uint64_t heap_data = h.address(O);
  auto names = fetch(heap_data, heap_size, "local heap data");
  if (!names) return names.error();
  // The name at `offset`; empty when longer than any Binsparse dataset's name (kept out of
  // the links, so that many entries naming one long string cost little).
  constexpr size_t kLongestName = 1024;
  auto name_at = [&](uint64_t offset, std::string& out) {
    if (offset >= names->size()) return false;
    const auto* p = names->data() + offset;
    const size_t left = names->size() - size_t(offset);
    const void* nul = std::memchr(p, 0, std::min(left, kLongestName + 1));
    if (nul == nullptr) return left > kLongestName;  // too long, or not terminated
    out.assign(reinterpret_cast<const char*>(p), size_t(static_cast<const uint8_t*>(nul) - p));
    return true;
  };

  // The group B-tree (version 1, type 0), then its symbol table nodes.
  const uint64_t two_k = 2 * uint64_t(group_internal_k_);
  const uint64_t node_size = 8 + 2 * O + two_k * O + (two_k + 1) * L;
  const uint64_t entry_size = 2 * uint64_t(O) + 24;
  const uint64_t symbols_max = 2 * uint64_t(group_leaf_k_);
  std::set<uint64_t> seen;
  struct Pending {
    uint64_t address;
    int level;  // -1: any (the root)
  };
  uint64_t budget = end_;  // the tree's nodes do not overlap: together they fit the file
  auto spend = [&](uint64_t bytes) { return bytes <= budget ? (budget -= bytes, true) : false; };
  std::vector<Pending> stack = {{btree, -1}};
  while (!stack.empty()) {
    const Pending node = stack.back();
    stack.pop_back();
    if (!seen.insert(node.address).second) return corrupt("group B-tree revisits a node", node.address);
    if (!spend(node_size)) return corrupt("group B-tree larger than the file", node.address);
    auto bytes = fetch(node.address, node_size, "group B-tree node");
    if (!bytes) return bytes.error();
    Cursor n(*bytes);
    if (!n.signature("TREE") || n.u8() != 0) return corrupt("group B-tree node signature or type", node.address);
    const int level = n.u8();
    const uint64_t entries = n.u(2);
    if ((node.level >= 0 && level != node.level) || entries > two_k)
      return corrupt("group B-tree node level or entry count", node.address);
    n.take(2 * O);  // siblings
    for (uint64_t e = 0; e < entries; ++e) {
      n.u(L);  // key: a heap offset, compared only by HDF5's own traversal
      const uint64_t child = n.address(O);
      if (level > 0) {
        stack.push_back({child, level - 1});
        continue;
      }
      if (!seen.insert(child).second) return corrupt("group B-tree revisits a symbol node", child);
      if (!spend(8 + symbols_max * entry_size)) return corrupt("group B-tree larger than the file", child);
      auto snod = fetch(child, 8 + symbols_max * entry_size, "symbol table node");
      if (!snod) return snod.error();
      Cursor s(*snod);
      if (!s.signature("SNOD") || s.u8() != 1) return corrupt("symbol table node signature or version", child);
      s.u8();
      const uint64_t symbols = s.u(2);
      if (symbols > symbols_max) return corrupt("symbol table node entry count", child);
      for (uint64_t k = 0; k < symbols; ++k) {
        const uint64_t name_offset = s.u(O), header = s.address(O);
        s.take(24);
        std::string name;
        if (!name_at(name_offset, name)) return corrupt("symbol name outside the local heap", child);
        if (!name.empty()) links_.emplace(name, header);
      }
    }
  }
  return {};
}

Status Hdf5Scan::read_link(const Message& link) {
  Cursor c(link.data);
  const unsigned version = c.u8(), flags = c.u8();
  if (version != 1 || (flags & ~0x1fu)) return corrupt("link message version or flags", link.at);
  const unsigned type = flags & 8u ? c.u8() : 0;
  if (flags & 4u) c.take(8);  // creation order
  if (flags & 16u) c.u8();    // character set
  const uint64_t length = c.u(size_t(1) << (flags & 3u));
  const uint8_t* name = c.take(length);
  if (!c.ok() || length == 0) return corrupt("link message name", link.at);
  if (type != 0) return {};  // soft and external links name no dataset of this file
  const uint64_t header = c.address(offset_size_);
  if (!c.ok()) return corrupt("link message cut short", link.at);
  links_.emplace(std::string(reinterpret_cast<const char*>(name), size_t(length)), header);
  return {};
}

Result<std::string> Hdf5Scan::global_heap_string(uint64_t collection, uint64_t index, uint64_t length) const {
  const unsigned L = length_size_;
  auto head = fetch(collection, 8 + L, "global heap collection");
  if (!head) return head.error();
  Cursor h(*head);
  if (!h.signature("GCOL") || h.u8() != 1) return corrupt("global heap collection signature or version", collection);
  h.take(3);
  auto heap = fetch(collection, h.u(L), "global heap collection");
  if (!heap) return heap.error();
  Cursor c(*heap);
  c.take(8 + L);
  while (c.left() >= 8 + L) {
    const uint64_t id = c.u(2);
    c.take(6);  // reference count, reserved
    const uint64_t size = c.u(L);
    if (id == 0) break;  // free space: no objects after it
    const uint8_t* data = c.take(round8(size));
    if (data == nullptr) return corrupt("global heap object runs past its collection", collection);
    if (id == index) {
      if (length > size) return corrupt("string longer than its global heap object", collection);
      return std::string(reinterpret_cast<const char*>(data), size_t(length));
    }
  }
  return corrupt("global heap object " + std::to_string(index) + " not found", collection);
}

Result<std::string> Hdf5Scan::root_string_attribute(const std::string& attribute) const {
  bool dense = false;
  for (const Message& m : root_) {
    if (m.type == kAttributeInfo) {
      Cursor c(m.data);
      const unsigned flags = (c.u8(), c.u8());
      if (flags & 1u) c.take(2);
      dense = dense || c.address(offset_size_) != kUndefined;
      continue;
    }
    if (m.type != kAttribute) continue;
    Cursor c(m.data);
    const unsigned version = c.u8();
    const unsigned flags = c.u8();
    const uint64_t name_size = c.u(2), type_size = c.u(2), space_size = c.u(2);
    if (version == 3) c.u8();  // character set of the name
    const bool padded = version == 1;
    const uint8_t* name = c.take(padded ? round8(name_size) : name_size);
    if (!c.ok() || version < 1 || version > 3 || name_size == 0)
      return corrupt("attribute message header", m.at);
    const void* nul = std::memchr(name, 0, name_size);
    const size_t name_length = nul ? size_t(static_cast<const uint8_t*>(nul) - name) : size_t(name_size);
    if (std::string(reinterpret_cast<const char*>(name), name_length) != attribute) continue;

    if (flags & 3u) return unsupported("a shared datatype or dataspace in attribute '" + attribute + "'");
    const uint8_t* type_bytes = c.take(padded ? round8(type_size) : type_size);
    const uint8_t* space_bytes = c.take(padded ? round8(space_size) : space_size);
    if (!c.ok()) return corrupt("attribute message cut short", m.at);
    Datatype type;
    Cursor tc(type_bytes, size_t(type_size));
    if (Problem p = parse_datatype(tc, type, 0))
      return p.unsupported ? unsupported(p.what) : corrupt(p.what, m.at);
    Dataspace space;
    if (Problem p = parse_dataspace(std::vector<uint8_t>(space_bytes, space_bytes + space_size), length_size_, space))
      return p.unsupported ? unsupported(p.what) : corrupt(p.what, m.at);
    uint64_t elements = 1;
    for (uint64_t d : space.dims) elements = d == 1 ? elements : 0;
    if (space.type == Dataspace::null || elements != 1)
      return make_error(Errc::parse_error, name_ + ": the '" + attribute + "' attribute must hold one string");
    if (type.cls == 3) {
      const uint8_t* text = c.take(type.size);
      if (text == nullptr) return corrupt("attribute value cut short", m.at);
      std::string value(reinterpret_cast<const char*>(text), size_t(type.size));
      if (const size_t end = value.find('\0'); end != std::string::npos) value.resize(end);
      if ((type.bits & 15u) == 2)  // space-padded
        value.erase(value.find_last_not_of(' ') + 1);
      return value;
    }
    if (type.cls == 9 && type.vlen_string) {
      const uint64_t length = c.u(4), collection = c.address(offset_size_), index = c.u(4);
      if (!c.ok()) return corrupt("attribute value cut short", m.at);
      return global_heap_string(collection, index, length);
    }
    return make_error(Errc::parse_error, name_ + ": the '" + attribute + "' attribute is not a string");
  }
  if (dense) return unsupported("attributes in dense storage on the root group");
  return make_error(Errc::parse_error,
                    name_ + ": no '" + attribute + "' attribute on the root group (not a Binsparse file)");
}

Result<H5DatasetScan> Hdf5Scan::dataset(const std::string& link) const {
  const unsigned O = offset_size_, L = length_size_;
  auto linked = links_.find(link);
  if (linked == links_.end()) return make_error(Errc::parse_error, name_ + ": missing dataset '" + link + "'");
  H5DatasetScan out;
  out.header = linked->second;
  auto messages = object_header(out.header);
  if (!messages) return messages.error();
  const std::string where = "dataset '" + link + "': ";
  auto fail = [&](const Problem& p, uint64_t at) {
    return p.unsupported ? unsupported(where + p.what) : corrupt(where + p.what, at);
  };

  // The first message of each type is the one HDF5 decodes.
  const Message* first[32] = {};
  for (const Message& m : *messages) {
    if (m.type < 32 && first[m.type] == nullptr) first[m.type] = &m;
    const bool decoded = m.type == kDataspace || m.type == kDatatype || m.type == kFillOld || m.type == kFill ||
                         m.type == kExternal || m.type == kLayout || m.type == kPipeline;
    if (decoded && (m.flags & kMessageShared)) return fail(unsupported_feature("shared object header messages"), m.at);
  }
  if (first[kSymbolTable] || first[kLinkInfo]) return fail(bad("the object is a group"), out.header);
  if (!first[kDatatype] || !first[kDataspace] || !first[kLayout])
    return fail(bad("the object is not a dataset (no datatype, dataspace or layout)"), out.header);
  if (first[kExternal]) return fail(unsupported_feature("external data files"), first[kExternal]->at);

  Datatype type;
  Cursor tc(first[kDatatype]->data);
  if (Problem p = parse_datatype(tc, type, 0)) return fail(p, first[kDatatype]->at);
  if (!type.is_number) return fail(unsupported_feature("elements that are not numbers"), first[kDatatype]->at);
  out.type = type.number;
  Dataspace space;
  if (Problem p = parse_dataspace(first[kDataspace]->data, L, space)) return fail(p, first[kDataspace]->at);
  out.dims = space.dims;
  uint64_t elements = space.type == Dataspace::null ? 0 : 1, logical = 0;
  for (uint64_t d : space.dims)
    if (__builtin_mul_overflow(elements, d, &elements))
      return fail(bad("dataspace of more than 2^64 elements"), first[kDataspace]->at);
  if (__builtin_mul_overflow(elements, type.size, &logical))
    return fail(bad("dataset of more than 2^64 bytes"), first[kDataspace]->at);

  for (uint16_t t : {kFill, kFillOld})
    if (first[t])
      if (Problem p = check_fill(first[t]->data, t == kFillOld, type.size)) return fail(p, first[t]->at);
  Pipeline pipeline;
  if (first[kPipeline])
    if (Problem p = parse_pipeline(first[kPipeline]->data, type.size, pipeline)) return fail(p, first[kPipeline]->at);
  out.expansion = pipeline.deflate ? 1032 : 1;

  // The layout and the storage behind it.
  const uint64_t at = first[kLayout]->at;
  Cursor c(first[kLayout]->data);
  const unsigned version = c.u8(), layout = c.u8();
  if (version < 3) return fail(unsupported_feature("layout messages of HDF5 1.6 and older"), at);
  if (version > 4) return fail(bad("layout message of version " + std::to_string(version)), at);
  if (layout != 2 && first[kPipeline]) return fail(bad("filters on a dataset that is not chunked"), at);
  if (layout == 0) {  // compact: the data is in the message
    const uint64_t size = c.u(2);
    const uint8_t* data = c.take(size);
    if (!data || size != logical) return fail(bad("compact data of the wrong size"), at);
    out.storage = H5DatasetScan::Storage::compact;
    out.compact.assign(data, data + size);
    return out;
  }
  if (layout == 1) {  // contiguous
    const uint64_t address = c.address(O), size = c.u(L);
    if (!c.ok()) return fail(bad("layout message cut short"), at);
    if (address == kUndefined) return out;  // never written: nothing stored
    if (size < logical) return fail(bad("contiguous storage smaller than the dataspace"), at);
    if (address > end_ || size > end_ - address) return fail(bad("contiguous data outside the file"), at);
    out.storage = H5DatasetScan::Storage::contiguous;
    out.address = address;
    return out;
  }
  if (layout != 2) return fail(layout == 3 ? unsupported_feature("virtual datasets") : bad("unknown layout class"), at);

  // Chunked: dimensions (the last is the element size), then the chunk index.
  const unsigned chunk_flags = version == 4 ? c.u8() : 0;
  const unsigned ndims = c.u8();
  uint64_t index_address = version == 3 ? c.address(O) : kUndefined;
  const unsigned dim_bytes = version == 4 ? c.u8() : 4;
  if (chunk_flags & ~3u) return fail(bad("chunked layout flags"), at);
  if (ndims != space.dims.size() + 1 || dim_bytes < 1 || dim_bytes > 8)
    return fail(bad("chunk rank does not match the dataspace"), at);
  std::vector<uint64_t> chunk(ndims);
  uint64_t chunk_bytes = 1;
  for (unsigned d = 0; d < ndims; ++d) {
    chunk[d] = c.u(dim_bytes);
    if (chunk[d] == 0 || __builtin_mul_overflow(chunk_bytes, chunk[d], &chunk_bytes))
      return fail(bad("chunk dimensions"), at);
  }
  if (chunk[ndims - 1] != type.size || chunk_bytes >= (uint64_t(1) << 32))
    return fail(bad("chunk element size or chunk size"), at);
  unsigned index = 0;  // version 3: a version 1 B-tree
  uint64_t single_size = chunk_bytes;
  uint32_t single_mask = 0;
  if (version == 4) {
    index = c.u8();
    if (index == 1 && (chunk_flags & 2u)) {  // one filtered chunk: its stored size and filter mask
      single_size = c.u(L);
      single_mask = uint32_t(c.u(4));
    } else if (index == 3 || index == 4) {  // fixed or extensible array: parameters are never 0
      for (int k = index == 3 ? 1 : 5; k > 0; --k)
        if (c.u8() == 0) return fail(bad("chunk index parameters"), at);
    } else if (index == 5) {  // version 2 B-tree: node size, split and merge percentages
      const uint64_t node = c.u(4);
      const unsigned split = c.u8(), merge = c.u8();
      if (node == 0 || split == 0 || split > 100 || merge == 0 || merge > 100)
        return fail(bad("chunk index parameters"), at);
    } else if (index != 2 && index != 1) {
      return fail(bad("unknown chunk index type"), at);
    }
    index_address = c.address(O);
  }
  if (!c.ok()) return fail(bad("layout message cut short"), at);
  if (index == 2 && first[kPipeline]) return fail(bad("filters on an implicitly indexed dataset"), at);
  out.storage = H5DatasetScan::Storage::chunked;
  out.chunk = chunk[0];
  out.filters = pipeline.filters;
  out.unfiltered_edges = chunk_flags & 1u;
  if (space.dims.size() != 1) return out;  // the reader refuses other ranks
  const uint64_t chunks = space.dims[0] / chunk[0] + (space.dims[0] % chunk[0] != 0);  // covering the dataspace
  out.chunks_expected = chunks;
  if (index_address == kUndefined) return out;  // no chunk written

  if (index == 2) {  // unfiltered chunks one after the other: the elements in order, padded
    uint64_t size = 0;
    if (__builtin_mul_overflow(chunks, chunk_bytes, &size) || index_address > end_ || size > end_ - index_address)
      return fail(bad("implicitly indexed chunks outside the file"), at);
    out.storage = H5DatasetScan::Storage::contiguous;
    out.address = index_address;
    return out;
  }
  if (index == 1) {  // one chunk
    out.chunks.push_back({0, index_address, single_size, single_mask});
  } else if (index != 0) {  // fixed array, extensible array, version 2 B-tree: left to libhdf5
    out.chunks_listed = false;
    return out;
  } else {
    // Version 1 B-tree of chunks (type 1): keys hold (stored size, filter mask, offsets).
    const uint64_t two_k = 2 * uint64_t(chunk_k_);
    const uint64_t key_size = 8 + 8 * uint64_t(ndims);
    const uint64_t node_size = 8 + 2 * O + two_k * O + (two_k + 1) * key_size;
    uint64_t budget = end_;  // the tree's nodes do not overlap: together they fit the file
    std::set<uint64_t> seen;
    struct Pending {
      uint64_t address;
      int level;
    };
    // Depth-first, children left to right: leaf chunks come in key order.
    std::vector<Pending> stack = {{index_address, -1}};
    while (!stack.empty()) {
      const Pending node = stack.back();
      stack.pop_back();
      if (!seen.insert(node.address).second) return fail(bad("chunk B-tree revisits a node"), node.address);
      if (node_size > budget) return fail(bad("chunk B-tree larger than the file"), node.address);
      budget -= node_size;
      auto bytes = fetch(node.address, node_size, "chunk B-tree node");
      if (!bytes) return bytes.error();
      Cursor n(*bytes);
      if (!n.signature("TREE") || n.u8() != 1) return fail(bad("chunk B-tree node signature or type"), node.address);
      const int level = n.u8();
      const uint64_t entries = n.u(2);
      if ((node.level >= 0 && level != node.level) || entries > two_k)
        return fail(bad("chunk B-tree node level or entry count"), node.address);
      n.take(2 * O);
      std::vector<uint64_t> children;
      for (uint64_t e = 0; e < entries; ++e) {
        const uint64_t size = n.u(4);
        const uint32_t mask = uint32_t(n.u(4));
        const uint64_t offset = n.u(8), element = n.u(8);
        const uint64_t child = n.address(O);
        if (level > 0) children.push_back(child);
        else if (element != 0) return fail(bad("chunk B-tree key"), node.address);
        else out.chunks.push_back({offset, child, size, mask});
      }
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back({*it, level - 1});
    }
  }
  if (Problem p = check_chunks(out, end_)) return fail(p, index_address);
  return out;
}

Status Hdf5Scan::list_chunks(H5DatasetScan& d, hid_t dataset, const std::string& link) const {
  const std::string where = "dataset '" + link + "': ";
  // Counting is one pass over the index; then each expected chunk is looked up by its
  // offset (listing by position would walk the index again for every chunk).
  hsize_t count = 0;
  const hid_t space = H5Dget_space(dataset);
  const bool counted = space >= 0 && H5Dget_num_chunks(dataset, space, &count) >= 0;
  if (space >= 0) H5Sclose(space);
  if (!counted) return make_error(Errc::parse_error, name_ + ": " + where + "libhdf5 cannot count its chunks");
  if (count < d.chunks_expected)  // HDF5 would read the missing ones as fill values
    return make_error(Errc::parse_error, name_ + ": " + where.substr(0, where.size() - 2) + " stores " +
                                             std::to_string(count) + " of its " +
                                             std::to_string(d.chunks_expected) + " chunks");
  if (count > d.chunks_expected) return corrupt(where + "more chunks than its dataspace holds", d.header);
  for (uint64_t k = 0; k < d.chunks_expected; ++k) {
    const hsize_t offset[1] = {k * d.chunk};
    haddr_t address = HADDR_UNDEF;
    hsize_t size = 0;
    unsigned mask = 0;
    if (H5Dget_chunk_info_by_coord(dataset, offset, &mask, &address, &size) < 0 || address == HADDR_UNDEF)
      return corrupt(where + "a chunk libhdf5 counts but cannot find", d.header);
    d.chunks.push_back({offset[0], uint64_t(address), size, uint32_t(mask)});
  }
  d.chunks_listed = true;
  if (Problem p = check_chunks(d, end_)) return corrupt(where + p.what, d.header);
  return {};
}

Status Hdf5Scan::read_elements(const H5DatasetScan& d, std::span<uint8_t> out, const std::string& link) const {
  const std::string where = "dataset '" + link + "': ";
  switch (d.storage) {
    case H5DatasetScan::Storage::none: break;
    case H5DatasetScan::Storage::compact: std::memcpy(out.data(), d.compact.data(), out.size()); break;
    case H5DatasetScan::Storage::contiguous:
      if (!source_->read(base_ + d.address, out.size(), out.data()))
        return make_error(Errc::io_error, name_ + ": read failed");
      break;
    case H5DatasetScan::Storage::chunked: {
      const uint64_t chunk_bytes = d.chunk * d.type.size;
      std::vector<uint8_t> raw;
      for (const H5Chunk& c : d.chunks) {
        auto bytes = fetch(c.address, c.size, "chunk");
        if (!bytes) return bytes.error();
        raw = std::move(*bytes);
        const uint64_t at = c.offset * d.type.size;
        const bool partial = at + chunk_bytes > out.size();
        if (!(partial && d.unfiltered_edges))
          if (Problem p = unfilter(raw, d.filters, c.filter_mask, d.type.size, chunk_bytes))
            return corrupt(where + p.what, c.address);
        if (raw.size() != chunk_bytes)
          return corrupt(where + "a chunk of " + std::to_string(raw.size()) + " bytes, expected " +
                             std::to_string(chunk_bytes),
                         c.address);
        std::memcpy(out.data() + at, raw.data(), size_t(std::min<uint64_t>(chunk_bytes, out.size() - at)));
      }
      break;
    }
  }
  // Elements in the machine's byte order.
  if (d.type.big_endian != (std::endian::native == std::endian::big) && d.type.size > 1)
    for (size_t k = 0; k + d.type.size <= out.size(); k += d.type.size) std::reverse(&out[k], &out[k] + d.type.size);
  return {};
}

}  // namespace vkprim::sparse::detail
