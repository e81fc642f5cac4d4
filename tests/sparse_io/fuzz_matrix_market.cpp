// libFuzzer target for the Matrix Market reader. Besides "no crash, no hang, no huge
// allocation" (ASan, UBSan and libFuzzer's -rss_limit_mb), it checks three properties:
//  - the result does not depend on chunking or threads (a tiny chunk size vs the default);
//  - a matrix that parses writes out and parses back identically;
//  - symmetry expansion and duplicate summation as read options equal the calls.
#include <vkprim/sparse/matrix_market.hpp>

#include "fuzz_support.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>

using namespace vkprim::sparse;

namespace {

using fuzz::same;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  MatrixMarketReadOptions whole;
  whole.threads = 1;
  MatrixMarketReadOptions chunked;
  chunked.threads = 2;
  chunked.chunk_bytes = 1 + size % 7;
  auto a = parse_matrix_market(text, "fuzz.mtx", whole);
  auto b = parse_matrix_market(text, "fuzz.mtx", chunked);
  if (a.ok() != b.ok()) std::abort();
  if (!a.ok()) {
    if (a.error().message != b.error().message) std::abort();
    return 0;
  }
  if (!same(*a, *b)) std::abort();

  std::ostringstream out;
  if (!write_matrix_market(*a, out).ok()) std::abort();
  auto back = parse_matrix_market(out.str(), "written.mtx", whole);
  if (!back.ok() || !same(*back, *a)) std::abort();

  // Expansion and summation as read options equal the calls, refusals included (an
  // integer that does not fit int64 is an error, never a wrapped value).
  MatrixMarketReadOptions both = whole;
  both.expand_symmetry = both.sum_duplicates = true;
  auto direct = parse_matrix_market(text, "fuzz.mtx", both);
  CooMatrix m = std::move(*a);
  const bool fits = expand_symmetry(m).ok() && sum_duplicates(m).ok();
  if (fits != direct.ok()) std::abort();
  if (!fits) return 0;
  if (!same(*direct, m)) std::abort();
  if (m.rows <= (1 << 20)) {
    auto csr = to_csr(m, false);
    if (!csr.ok() || csr->nnz() != m.nnz()) std::abort();
  }
  return 0;
}
