#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build (sort path), pass 5: compaction and the row pointer. The last element of each run of
// equal keys sums the run serially from its first element (the stable sort kept the run in input
// order, so the sum is Eigen's, bit for bit) and writes (column, sum) at position o = pos[i]
// (exclusive scan of the end flags). It also knows the row of the entry before o (the key just
// before its run), so it writes the row pointer of every row that starts at o: the rows after
// that previous entry's row up to its own (all empty but its own), row_ptr[r] = o. A run of at
// most ROW_GAP_SERIAL such rows is written here; a longer one goes to the gap list for
// csr_row_ptr.comp, which spreads it over a workgroup. The last run also covers the rows after
// its own (= the entry count) and writes the entry count to nnz.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr_build.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_addr, ends_addr, pos_addr, vals_addr, col_out_addr, val_out_addr, row_ptr_addr;
  uint64_t gaps_addr;  // u32 count (zeroed), 3 words, then uvec4 (first row, end row, value, 0)
  uint64_t nnz_addr;
  uint n, col_bits, rows;
  uint row_ptr_64;     // nonzero: u64 row pointer entries
} pc;

#define ROW_GAP_SERIAL 64u  // must match sparse/gpu/csr_build.cpp (kRowGapSerial)

// row_ptr[r] = value for r in [first, end).
void rows_start_at(uint first, uint end, uint value) {
  if (first >= end) return;
  if (end - first > ROW_GAP_SERIAL) {
    const uint slot = atomicAdd(U32Buf(pc.gaps_addr).v[0], 1u);
    U32x4Buf(pc.gaps_addr + 16ul).v[slot] = uvec4(first, end, value, 0u);
    return;
  }
  for (uint r = first; r < end; ++r) {
    if (pc.row_ptr_64 != 0u) U64Buf(pc.row_ptr_addr + uint64_t(r) * 8ul).v[0] = uint64_t(value);
    else u32_store(pc.row_ptr_addr, r, value);
  }
}

void main() {
  FOR_EACH_ITEM(i, pc.n) {
    if (u32_at(pc.ends_addr, i) != 0u) {
      const KEY k = key_at(pc.keys_addr, i);
      uint h = i;
      KEY before = k;  // the key before the run (k itself: none)
      while (h > 0u) {
        before = key_at(pc.keys_addr, h - 1u);
        if (before != k) break;
        --h;
      }
      T sum = TBuf(pc.vals_addr + uint64_t(h) * T_SIZE).v[0];
      for (uint j = h + 1u; j <= i; ++j) sum += TBuf(pc.vals_addr + uint64_t(j) * T_SIZE).v[0];
      const uint o = u32_at(pc.pos_addr, i);
      const KEY mask = pc.col_bits == 0u ? KEY(0) : (KEY(~KEY(0)) >> (KEY_BYTES * 8ul - pc.col_bits));
      u32_store(pc.col_out_addr, o, uint(k & mask));
      TBuf(pc.val_out_addr + uint64_t(o) * T_SIZE).v[0] = sum;
      const uint row = uint(k >> pc.col_bits);
      // Rows (previous entry's row, row] start at o; with no previous entry, rows [0, row].
      rows_start_at(h == 0u ? 0u : uint(before >> pc.col_bits) + 1u, row + 1u, o);
      if (i + 1u == pc.n) {
        rows_start_at(row + 1u, pc.rows + 1u, o + 1u);
        U32Buf(pc.nnz_addr).v[0] = o + 1u;
      }
    }
  }
}
