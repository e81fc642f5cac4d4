// Private: the HDF5 structures and data the Binsparse reader needs, read with bounds checks.
//
// libhdf5 1.10 decodes several structures without checking them against their own sizes
// (attribute, link and heap names, message fields, a chunk that inflates short), so a
// corrupt file can make it read outside its buffers. Hdf5Scan reads, with bounds checks of
// its own and against the file's end-of-file address, everything the reader needs: the
// superblock, the root group's object header (its attributes and links, or its symbol
// table: B-tree nodes, symbol nodes, local heap), and per dataset the object header with its
// dataspace, datatype, fill value, filter pipeline and layout, the chunk B-tree, and the
// elements themselves (contiguous, compact, or chunks undone through deflate, shuffle and
// fletcher32). Version 2 checksums are verified. libhdf5 is left only the chunk indexes of
// the HDF5 1.10 format (fixed and extensible arrays, version 2 B-trees, all checksummed),
// whose chunks it lists through the checked driver of hdf5_source.hpp. Structures outside
// what Binsparse files use (superblock extensions, dense link or attribute storage, shared
// messages, external or virtual storage, other filters, integers with padding bits,
// non-IEEE floats) are refused with Errc::unsupported.
#pragma once

#include "hdf5_source.hpp"

#include <vkprim/error.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace vkprim::sparse::detail {

// A dataset's stored element type, as the reader accepts them: two's-complement integers of
// 1, 2, 4 or 8 bytes and IEEE binary32/binary64, either byte order.
struct H5Number {
  enum class Kind : uint8_t { signed_int, unsigned_int, ieee_float };
  Kind kind = Kind::signed_int;
  unsigned size = 0;  // bytes
  bool big_endian = false;
  // The Binsparse spelling: "int8" .. "uint64", "float32", "float64".
  std::string name() const;
};

// One stored chunk of a one-dimensional dataset.
struct H5Chunk {
  uint64_t offset = 0;   // its first element
  uint64_t address = 0;  // relative to the superblock
  uint64_t size = 0;     // stored bytes
  uint32_t filter_mask = 0;  // bit i set: filter i of the pipeline was not applied
};

struct H5DatasetScan {
  uint64_t header = 0;  // object header address, relative to the superblock
  H5Number type;
  std::vector<uint64_t> dims;
  // Where the elements are: nowhere (never written), in the layout message, in one block
  // (contiguous, or unfiltered chunks one after the other: an implicit chunk index), or in
  // chunks of `chunk` elements through `filters` (pipeline order: 1 deflate, 2 shuffle,
  // 3 fletcher32; partial edge chunks unfiltered when `unfiltered_edges`).
  enum class Storage : uint8_t { none, compact, contiguous, chunked } storage = Storage::none;
  std::vector<uint8_t> compact;
  uint64_t address = 0;
  uint64_t chunk = 0;
  std::vector<unsigned> filters;
  bool unfiltered_edges = false;
  // The stored chunks of a one-dimensional dataset, in order, and how many cover its
  // dataspace (HDF5 reads a missing one as the fill value). Chunk indexes of the HDF5 1.10
  // format (fixed and extensible arrays, version 2 B-trees) are left to libhdf5, which
  // checks their checksums: then chunks_listed is false until Hdf5Scan::list_chunks.
  std::vector<H5Chunk> chunks;
  uint64_t chunks_expected = 0;
  bool chunks_listed = true;
  // Upper bound on element bytes per stored byte: 1, or zlib's 1032 with the deflate filter.
  uint64_t expansion = 1;

  // Bytes of the file that hold the elements.
  uint64_t stored_bytes() const;
};

class Hdf5Scan {
 public:
  // Reads and checks the superblock and the root group. Errors name `name`:
  // Errc::parse_error for a corrupt or non-HDF5 file, Errc::unsupported as above.
  static Result<Hdf5Scan> open(const ByteSource& source, const std::string& name);

  // The value of the root group's string attribute `attribute` (fixed- or variable-length);
  // Errc::parse_error when the root group has none.
  Result<std::string> root_string_attribute(const std::string& attribute) const;

  // Checks the dataset the root group links as `link` (Errc::parse_error when missing).
  Result<H5DatasetScan> dataset(const std::string& link) const;

  // Lists the chunks of `d` (!d.chunks_listed) from libhdf5's index of `dataset`, the
  // dataset opened at d.header: counted, then each looked up by its offset (time linear in
  // the chunks), and checked as dataset() checks the ones it lists. Errc::parse_error
  // "dataset '<link>' stores N of its M chunks" when some are missing.
  Status list_chunks(H5DatasetScan& d, hid_t dataset, const std::string& link) const;

  // The elements of one-dimensional `d`, in the machine's byte order, into `out` (exactly
  // their bytes): stored data copied, chunks undone through their filters here (fletcher32
  // verified, deflate, shuffle), each of which must give exactly a chunk's bytes.
  Status read_elements(const H5DatasetScan& d, std::span<uint8_t> out, const std::string& link) const;

 private:
  struct Message {
    uint16_t type = 0;
    uint8_t flags = 0;
    uint64_t at = 0;  // file address of the message data, for error messages
    std::vector<uint8_t> data;
  };

  Hdf5Scan(const ByteSource& source, std::string name) : source_(&source), name_(std::move(name)) {}

  Error corrupt(const std::string& what, uint64_t at) const;
  Error unsupported(const std::string& what) const;
  // The bytes [address, address + n) relative to the superblock, or an error when they do
  // not lie inside the file's end-of-file address.
  Result<std::vector<uint8_t>> fetch(uint64_t address, uint64_t n, const char* what) const;
  Result<std::vector<Message>> object_header(uint64_t address) const;
  Status read_symbol_table(const Message& stab);
  Status read_link(const Message& link);
  Result<std::string> global_heap_string(uint64_t collection, uint64_t index, uint64_t length) const;

  const ByteSource* source_;
  std::string name_;
  uint64_t base_ = 0;  // absolute offset of the superblock: addresses are relative to it
  uint64_t end_ = 0;   // relative end-of-file address: no structure reaches past it
  unsigned offset_size_ = 8, length_size_ = 8;
  unsigned group_leaf_k_ = 4, group_internal_k_ = 16, chunk_k_ = 32;
  std::vector<Message> root_;                  // the root group's object header messages
  std::map<std::string, uint64_t> links_;      // the root group's hard links
};

}  // namespace vkprim::sparse::detail
