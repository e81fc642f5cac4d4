// Private: what the readers share beyond text scanning: the last-resort exception barrier of
// the no-throw API, and symmetry expansion and duplicate summation that report, instead of
// wrapping, an integer that does not fit, by the stored entries involved.
#pragma once

#include <vkprim/error.hpp>
#include <vkprim/sparse/coo.hpp>

#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vkprim::sparse::detail {

// Errc::out_of_host_memory naming `name`; never throws (the message is dropped if even
// that allocation fails).
Error out_of_memory(std::string_view name) noexcept;

// Runs f() (returning Result<T> or Status) and turns an exception escaping it into an error
// naming `name`: allocation failures (std::bad_alloc, std::length_error) become
// Errc::out_of_host_memory. Sizes are checked before allocating; this is the backstop, so
// f builds its own strings (a file name view costs nothing here).
template <class F>
auto no_throw(std::string_view name, F&& f) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return out_of_memory(name);
  } catch (const std::length_error&) {
    return out_of_memory(name);
  } catch (...) {
    try {
      return make_error(Errc::invalid_argument, std::string(name) + ": unexpected internal exception");
    } catch (...) {
      return Error{Errc::invalid_argument, VK_SUCCESS, {}};
    }
  }
}

// The first off-diagonal integer entry holding INT64_MIN, whose skew-symmetric mirror
// (its negation) does not fit the signed 64-bit range; -1 when there is none.
int64_t skew_unnegatable_entry(const CooMatrix& m);

// A value the reader options cannot produce exactly, by stored entry (positions in the
// matrix as read, before expansion; `mirror` when the entry's symmetric mirror is meant).
struct EntryOverflow {
  enum class Kind : uint8_t { skew_mirror, sum } kind = Kind::sum;
  int64_t entry = 0, other = 0;  // sum: the run's first entry and the one whose addition overflows
  bool entry_mirror = false, other_mirror = false;
  int64_t row = 0, col = 0;      // the (0-based) position whose value overflows
};

// expand_symmetry() if `expand`, then sum_duplicates() if `sum`; on an integer overflow the
// matrix is left as it was before the failing step and the overflow is returned. May throw
// std::bad_alloc (callers run inside no_throw).
std::optional<EntryOverflow> expand_and_sum(CooMatrix& m, bool expand, bool sum);

// expand_and_sum for a reader without line numbers: errors are Errc::parse_error
// "<name>: ...", naming the entries by position.
Status finish_read(CooMatrix& m, bool expand, bool sum, const std::string& name);

}  // namespace vkprim::sparse::detail
