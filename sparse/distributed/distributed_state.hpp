// The state behind DistributedCsr, and the one way the library's files construct its objects.
#pragma once

#include <vkprim/sparse/distributed.hpp>

#include "mpi_support.hpp"

namespace vkprim::sparse::detail {

struct DistributedCsrState {
  OwnedComm comm;
  int rank = 0, ranks = 1;
  int64_t rows = 0, cols = 0, nnz = 0;
  ValueType type = ValueType::f32;
  Partition row_part, col_part;
  DeviceCsr local, ghost;
  HaloPlan halo;
  Buffer send_idx;  // halo.send_indices on the device (at least one word)
  Buffer ghost_rows;  // the ghost block's rows' local indices, u32 (at least one word)
  Runtime* rt = nullptr;
};

struct DistributedAccess {
  // The state of `a`, whose address does not change when `a` is moved.
  static const DistributedCsrState& state(const DistributedCsr& a) { return *a.s_; }
  static DistributedCsr make(std::unique_ptr<DistributedCsrState> s) {
    return DistributedCsr(std::move(s));
  }
  static DistributedSpmv make(std::unique_ptr<DistributedSpmvState> s);  // distributed_spmv.cpp
};

}  // namespace vkprim::sparse::detail
