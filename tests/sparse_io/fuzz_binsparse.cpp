// libFuzzer target for the Binsparse reader: each input is a whole HDF5 file, read from
// memory (parse_binsparse). Besides "no crash, no hang, no huge allocation" (ASan, whose
// interceptors also see libhdf5's copies, UBSan, and libFuzzer's -rss_limit_mb), it checks:
//  - every error names the file;
//  - a matrix that reads is valid (validate());
//  - symmetry expansion and duplicate summation as read options equal the calls.
#include <vkprim/sparse/binsparse.hpp>

#include "fuzz_support.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

using namespace vkprim;
using namespace vkprim::sparse;

namespace {

using fuzz::same;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto image = std::as_bytes(std::span(data, size));
  BinsparseReadOptions options;
  options.max_dense_entries = int64_t(1) << 20;  // inside the fuzzer's memory limit
  auto a = parse_binsparse(image, "fuzz.bsp.h5", options);
  if (!a.ok()) {
    if (a.error().message.rfind("fuzz.bsp.h5: ", 0) != 0) std::abort();
    return 0;
  }
  if (!validate(*a).ok()) std::abort();

  options.expand_symmetry = options.sum_duplicates = true;
  auto direct = parse_binsparse(image, "fuzz.bsp.h5", options);
  CooMatrix m = std::move(*a);
  const bool fits = expand_symmetry(m).ok() && sum_duplicates(m).ok();
  if (fits != direct.ok()) std::abort();
  if (fits && !same(*direct, m)) std::abort();
  return 0;
}
