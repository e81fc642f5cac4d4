// Column blocks of a CSR matrix on the GPU (include/vkprim/sparse/csr_build.hpp, split_columns;
// shaders/csr_build/csr_split.comp): per block, flag its entries, scan the flags into output positions
// (vkprim::Scan, exclusive, in place; u32 or u64 positions, as wide as the row pointer), read
// the block's entry count back, allocate, scatter the entries and gather the row pointer.
#include <algorithm>
#include <string>
#include <vector>
#include <vkprim/scan.hpp>
#include <vkprim/sparse/csr_build.hpp>

#include "core/pipeline.hpp"
#include "csr_build/pass.hpp"

namespace vkprim::sparse {
namespace {

using vkprim::detail::compute_to_compute_barrier;
using vkprim::detail::grid_groups;
using vkprim::detail::Pipeline;
using detail::SplitPush;

constexpr uint32_t kSplitWorkgroup = 256, kSplitItems = 4;

Status check_view(const CsrView& a) {
  const auto bad = [](const std::string& m) {
    return make_error(Errc::invalid_argument, "split_columns: " + m);
  };
  if (a.value_type != ValueType::f32 && a.value_type != ValueType::f64)
    return bad(std::string("values must be f32 or f64, not ") + to_string(a.value_type));
  if (a.complex)
    return make_error(Errc::unsupported,
                      "split_columns: complex matrices are not supported (real values only)");
  if (a.rows >= (uint64_t(1) << 32) || a.cols >= (uint64_t(1) << 32))
    return bad("rows and cols must be < 2^32");
  const uint64_t rp = a.row_ptr_64 ? 8 : 4, esz = size_of(a.value_type);
  if (!a.row_ptr_64 && a.nnz > 0xFFFFFFFFull)
    return bad("a 32-bit row pointer cannot index " + std::to_string(a.nnz) + " entries");
  if (a.row_ptr.size < (a.rows + 1) * rp || a.row_ptr.address == 0 || a.row_ptr.address % rp)
    return bad("row_ptr must hold rows + 1 aligned " + std::to_string(rp * 8) + "-bit entries");
  if (a.nnz && (a.col_idx.size < a.nnz * 4 || a.col_idx.address == 0 || a.col_idx.address % 4))
    return bad("col_idx must hold nnz aligned u32");
  if (a.nnz && (a.values.size < a.nnz * esz || a.values.address == 0 || a.values.address % esz))
    return bad("values must hold nnz aligned elements");
  return {};
}

}  // namespace

Result<std::vector<DeviceCsr>> split_columns(Runtime& rt, const CsrView& a, uint32_t blocks) {
  VKPRIM_TRY(check_view(a));
  if (blocks == 0 || blocks > kMaxColumnBlocks || blocks > std::max<uint64_t>(a.cols, 1))
    return make_error(Errc::invalid_argument,
                      "split_columns: blocks must lie in [1, min(cols, " +
                          std::to_string(kMaxColumnBlocks) + ")], not " + std::to_string(blocks));
  const auto& ctx = rt.context().impl();
  const int w = a.row_ptr_64 ? 1 : 0;
  const uint32_t esz = uint32_t(size_of(a.value_type));
  namespace variants = vkprim::detail::variants;
  const auto value_size = esz == 8 ? variants::ValueSize::v8 : variants::ValueSize::v4;
  auto split = Pipeline::create(ctx, variants::csr_split(variants::row_ptr_axis(w == 1), value_size),
                                detail::kSplitPushBytes, kSplitWorkgroup, kSplitItems);
  if (!split) return split.error();
  // Output positions as wide as the row pointer: u64 where nnz may reach 2^32.
  const uint64_t pw = a.row_ptr_64 ? 8 : 4;
  auto scan = Scan::create(rt.context(), a.row_ptr_64 ? ValueType::u64 : ValueType::u32);
  if (!scan) return scan.error();
  VKPRIM_TRY(scan->reserve(a.nnz + 1));
  auto pos = rt.alloc((a.nnz + 1) * pw);
  if (!pos) return pos.error();
  const uint32_t groups =
      grid_groups(ctx, std::max(a.nnz, a.rows) + 1, split->tile_items());

  DeviceCsrOptions o;
  o.values = a.value_type;
  o.force_row_ptr_64 = a.row_ptr_64;
  std::vector<DeviceCsr> out;
  out.reserve(blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    SplitPush p{a.row_ptr.address, a.col_idx.address, a.values.address, pos->address(), 0, 0, 0,
                a.nnz, uint32_t(a.rows), uint32_t(a.cols * b / blocks),
                uint32_t(a.cols * (b + 1) / blocks), 0u};
    // Flags and their exclusive scan: pos[k] = the block's entries before k, pos[nnz] = all.
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) {
      compute_to_compute_barrier(ctx, cmd);  // the previous block's scatter read pos
      split->dispatch(cmd, &p, groups);
      compute_to_compute_barrier(ctx, cmd);
      return scan->exclusive(cmd, pos->view(), pos->view(), a.nnz + 1);
    }));
    uint64_t count = 0;
    if (a.row_ptr_64) {
      auto c = rt.download<uint64_t>(pos->view().sub(a.nnz * 8, 8), 1);
      if (!c) return c.error();
      count = (*c)[0];
    } else {
      auto c = rt.download<uint32_t>(pos->view().sub(a.nnz * 4, 4), 1);
      if (!c) return c.error();
      count = (*c)[0];
    }
    auto m = DeviceCsr::allocate(rt.context(), a.rows, a.cols, count, o);
    if (!m) return m.error();
    p.out_row_ptr_addr = m->row_ptr_buffer().address();
    p.out_col_addr = m->col_idx_buffer().address();
    p.out_val_addr = m->values_buffer().address();
    p.mode = 1;
    VKPRIM_TRY(rt.submit([&](VkCommandBuffer cmd) {
      compute_to_compute_barrier(ctx, cmd);
      split->dispatch(cmd, &p, groups);
      return Status{};
    }));
    out.push_back(std::move(*m));
  }
  return out;
}

}  // namespace vkprim::sparse
