// What the distributed library's collective calls share: exception containment, an owned
// communicator, and messages of any length.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include <vkprim/error.hpp>

namespace vkprim::sparse::detail {

// Runs fn (returning Status or Result<T>) with every exception turned into an Error, so that a
// rank that throws still reaches the agreement that follows its phase (a collective call never
// lets an exception escape: one rank leaving early would leave the others waiting). The public
// calls are wrapped whole as well, so that nothing escapes them either.
template <class Fn>
auto guarded(const char* who, Fn&& fn) noexcept -> decltype(fn()) {
  using R = decltype(fn());
  try {
    return fn();
  } catch (const vkprim::Exception& e) {
    return R(e.error());
  } catch (const std::bad_alloc&) {
    return R(make_error(Errc::out_of_host_memory, std::string(who) + ": out of host memory"));
  } catch (const std::length_error&) {
    return R(make_error(Errc::out_of_host_memory, std::string(who) + ": out of host memory"));
  } catch (const std::exception& e) {
    return R(make_error(Errc::invalid_argument, std::string(who) + ": " + e.what()));
  } catch (...) {
    return R(make_error(Errc::invalid_argument, std::string(who) + ": unknown exception"));
  }
}

// A duplicate of the caller's communicator, freed on destruction (unless MPI is finalized
// already, when nothing can be freed).
class OwnedComm {
 public:
  OwnedComm() = default;
  explicit OwnedComm(MPI_Comm parent) { MPI_Comm_dup(parent, &comm_); }
  OwnedComm(OwnedComm&& o) noexcept : comm_(std::exchange(o.comm_, MPI_COMM_NULL)) {}
  OwnedComm& operator=(OwnedComm&& o) noexcept {
    if (this != &o) {
      reset();
      comm_ = std::exchange(o.comm_, MPI_COMM_NULL);
    }
    return *this;
  }
  ~OwnedComm() { reset(); }
  MPI_Comm get() const { return comm_; }

 private:
  void reset() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
};

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, int64_t>)
    return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return MPI_UINT64_T;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return MPI_UINT32_T;
  else if constexpr (std::is_same_v<T, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, char>)
    return MPI_CHAR;
  else
    static_assert(sizeof(T) == 0, "no MPI datatype");
}

// Messages carry at most 2^30 bytes each (MPI counts are int): longer arrays go as several.
inline constexpr int64_t kMaxMessageBytes = int64_t(1) << 30;

template <class T>
void send_all(const T* data, int64_t n, int dest, int tag, MPI_Comm comm) {
  const int64_t step = kMaxMessageBytes / int64_t(sizeof(T));
  for (int64_t i = 0; i < n; i += step)
    MPI_Send(data + i, int(std::min(step, n - i)), mpi_type<T>(), dest, tag, comm);
}

template <class T>
void recv_all(T* data, int64_t n, int source, int tag, MPI_Comm comm) {
  const int64_t step = kMaxMessageBytes / int64_t(sizeof(T));
  for (int64_t i = 0; i < n; i += step)
    MPI_Recv(data + i, int(std::min(step, n - i)), mpi_type<T>(), source, tag, comm,
             MPI_STATUS_IGNORE);
}

// Broadcasts a vector whose length only `root` knows.
template <class T>
void bcast_vector(std::vector<T>& v, int root, MPI_Comm comm) {
  int64_t n = int64_t(v.size());
  MPI_Bcast(&n, 1, MPI_INT64_T, root, comm);
  v.resize(size_t(n));
  const int64_t step = kMaxMessageBytes / int64_t(sizeof(T));
  for (int64_t i = 0; i < n; i += step)
    MPI_Bcast(v.data() + i, int(std::min(step, n - i)), mpi_type<T>(), root, comm);
}

}  // namespace vkprim::sparse::detail
