#version 460
#extension GL_GOOGLE_include_directive : require
// CSR build (sort path), the pass after the sort: compaction and the row pointer in one pass.
// An entry i of the sorted keys ends a run of equal keys (duplicates) when i is the last entry
// or key i + 1 differs. The run ends are counted per tile of WG_SIZE x ITEMS entries and ranked
// by the single-pass protocol of the compactions (common/count_state.glsl: decoupled look-back
// with decoupled fallback, tile ids from a counter), so the run end's output position o is the
// number of run ends before it, with no flag array and no separate scan.
//
// The run end sums its run serially from the run's first entry (the stable sort kept the run in
// input order, so the sum is Eigen's, bit for bit) and writes (column, sum) at o. It also knows
// the row of the entry before o (the key just before its run), so it writes the row pointer of
// every row that starts at o: the rows after that previous entry's row up to its own (all empty
// but its own), row_ptr[r] = o. A run of at most ROW_GAP_SERIAL such rows is written here; a
// longer one goes to the gap list for csr_row_ptr.comp, which spreads it over a workgroup. The
// last run also covers the rows after its own (= the entry count) and writes the build's counts:
// the entry count and the keys pass's status word (kept in the gap list's header, which the
// host zeroed with the rest of the temporary storage, so the caller's counts need no fill).
// n >= 1 (the host handles an empty build). Entry counts and output positions may pass 2^32: the
// host runs the entries in chunks of at most max_items_per_dispatch (2^31), each chunk's outputs
// starting after the run ends of the chunks before (base_addr), its own total going to
// total_addr for the next: the CSR_WIDE build. Within a chunk, entries are indexed by 32-bit
// positions from the chunk's own addresses (the host passes them); only the walk back over a run
// of duplicates, which may start in an earlier chunk, and the output positions (IDX) are 64-bit.
// The build without CSR_WIDE takes one chunk (first = 0, no base or total): every index 32-bit,
// since 64-bit indices throughout cost the pass registers (40 to 58 a thread on NVIDIA) and speed.
//
// Ranks without subgroup operations (one build for every device): entries are read striped
// (entry e of the tile is item e / WG_SIZE of invocation e % WG_SIZE), run ends set their bit in
// a tile bitmask, invocation i counts the bits of the blocked run [i * ITEMS, (i + 1) * ITEMS),
// and one workgroup exclusive scan of those counts gives every blocked run its offset.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr_build.glsl"
#include "counts_scan.glsl"

#define PUSH_CSR_COMPACT  // pc: push.h's CompactPush
#include "push.h"

#define ROW_GAP_SERIAL 64u  // must match sparse/csr_build/csr_build.cpp (kRowGapSerial)
#define TILE (WG_SIZE * ITEMS)

#ifdef CSR_WIDE
#define IDX uint64_t
#define CHUNK_FIRST pc.first
#else
#define IDX uint
#define CHUNK_FIRST 0u
#endif

KEY chunk_key(uint li) { return KeyBuf(pc.keys_addr + uint64_t(li) * KEY_BYTES).v[0]; }
bool run_ends(uint li) { return li + 1u == pc.stop || chunk_key(li + 1u) != chunk_key(li); }

// Fallback: the run ends in part `part` of `parts` equal slices of tile `tile`.
uint reduce_tile_part(uint tile, uint part, uint parts) {
  const uint len = (TILE + parts - 1u) / parts;
  const uint begin = tile * TILE + part * len;
  const uint end = min(tile * TILE + min((part + 1u) * len, TILE), pc.m);
  uint c = 0u;
  for (uint i = begin; i < end; ++i) c += run_ends(i) ? 1u : 0u;
  return c;
}
#include "count_state.glsl"
#include "tile_bitmask.glsl"  // bit e: entry e of the tile ends a run
shared uint s_run_offset[WG_SIZE];  // run ends of the tile before blocked run i
shared uint s_tile;

// row_ptr[r] = value for r in [first, end).
uint high_word(IDX v) {
#ifdef CSR_WIDE
  return uint(v >> 32);
#else
  return 0u;
#endif
}

void rows_start_at(uint first, uint end, IDX value) {
  if (first >= end) return;
  if (end - first > ROW_GAP_SERIAL) {
    const uint slot = atomicAdd(U32Buf(pc.gaps_addr).v[0], 1u);
    U32x4Buf(pc.gaps_addr + 16ul).v[slot] = uvec4(first, end, uint(value), high_word(value));
    return;
  }
  for (uint r = first; r < end; ++r) {
    if (pc.row_ptr_64 != 0u) U64Buf(pc.row_ptr_addr + uint64_t(r) * 8ul).v[0] = uint64_t(value);
    else u32_store(pc.row_ptr_addr, r, uint(value));
  }
}

// Entry li of the chunk (key k) ends its run; `base` run ends of the earlier chunks and o of
// this one come before it.
void emit(uint li, KEY k, IDX base, uint o) {
  // Entry li's value is loaded together with the key before it, not after the walk: most runs
  // are one entry, whose sum it is, so its load overlaps the key's instead of following it.
  const T last = TBuf(pc.vals_addr + uint64_t(li) * T_SIZE).v[0];
  bool first_entry = li == 0u && CHUNK_FIRST == IDX(0);  // the run starts at the build's first entry
  KEY before = k;  // the key before the run (k itself: none)
  T sum = last;
  if (!first_entry) {
    before = KeyBuf(pc.keys_addr + uint64_t(li) * KEY_BYTES - KEY_BYTES).v[0];
    if (before == k) {
      // A run of duplicates (rare): walked back in global indices, as it may start in an
      // earlier chunk.
      const uint64_t keys = pc.keys_addr - uint64_t(CHUNK_FIRST) * KEY_BYTES;
      const uint64_t vals = pc.vals_addr - uint64_t(CHUNK_FIRST) * T_SIZE;
      const IDX i = CHUNK_FIRST + li;
      IDX h = i - IDX(1);
      while (h > IDX(0)) {
        before = key_at(keys, h - IDX(1));
        if (before != k) break;
        --h;
      }
      first_entry = h == IDX(0);
      sum = TBuf(vals + uint64_t(h) * T_SIZE).v[0];
      for (IDX j = h + IDX(1); j < i; ++j) sum += TBuf(vals + uint64_t(j) * T_SIZE).v[0];
      sum += last;
    }
  }
  const KEY mask = pc.col_bits == 0u ? KEY(0) : (KEY(~KEY(0)) >> (KEY_BYTES * 8ul - pc.col_bits));
  const IDX at = base + o;  // the entry's position in the CSR
  u32_store(pc.col_out_addr, at, uint(k & mask));
  TBuf(pc.val_out_addr + uint64_t(at) * T_SIZE).v[0] = sum;
  const uint row = uint(k >> pc.col_bits);
  // Rows (previous entry's row, row] start at it; with no previous entry, rows [0, row].
  rows_start_at(first_entry ? 0u : uint(before >> pc.col_bits) + 1u, row + 1u, at);
  if (li + 1u == pc.stop) {
    const IDX count = at + IDX(1);
    rows_start_at(row + 1u, pc.rows + 1u, count);
    U32Buf(pc.counts_addr).v[0] = uint(count);
    U32Buf(pc.counts_addr).v[1] = U32Buf(pc.gaps_addr).v[1];
    U32Buf(pc.counts_addr).v[2] = high_word(count);
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  StateBuf st = StateBuf(pc.state_addr);
  const uint tiles = (pc.m + TILE - 1u) / TILE;
  if (lid == 0u) s_tile = atomicAdd(st.w[0], 1u);
  for (uint w = lid; w < TILE / 32u; w += WG_SIZE) s_bits[w] = 0u;
  barrier();
  const uint tile = UNIFORM(s_tile);
  if (tile >= tiles) return;

  const uint t0 = tile * TILE;  // < m <= 2^31
  const uint valid = min(pc.m - t0, TILE);
  KEY keys[ITEMS];
  uint ends = 0u;  // bit k: item k ends a run
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint e = k * WG_SIZE + lid;
    const uint li = t0 + e;
    keys[k] = KEY(0);
    if (e < valid) {
      keys[k] = chunk_key(li);
      if (li + 1u == pc.stop || chunk_key(li + 1u) != keys[k]) {
        ends |= 1u << k;
        atomicOr(s_bits[e >> 5u], 1u << (e & 31u));
      }
    }
  }
  barrier();
  const uint run_count = bits_in_run(lid * ITEMS, ITEMS);
  uvec2 tile_total;
  s_run_offset[lid] = counts_exclusive_scan(uvec2(run_count, 0u), tile_total).x;
  const uint tile_count = tile_total.x;

  const bool publishes = look_back_publishes(tile);
  const uint prefix = tile_exclusive_prefix(st, tile, tile_count, SPIN_LIMIT, publishes);
  barrier();  // s_run_offset is visible (the look-back's barriers do not run for tile 0)

#ifdef CSR_WIDE
  const IDX base = pc.base_addr != 0ul ? U64Buf(pc.base_addr).v[0] : 0ul;
#else
  const IDX base = 0u;
#endif
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    if ((ends & (1u << k)) != 0u) {
      const uint e = k * WG_SIZE + lid;
      emit(t0 + e, keys[k], base, prefix + s_run_offset[e / ITEMS] + bits_before_in_run(e, ITEMS));
    }
  }
#ifdef CSR_WIDE
  if (pc.total_addr != 0ul && tile == tiles - 1u && lid == 0u)
    U64Buf(pc.total_addr).v[0] = base + prefix + tile_count;
#endif
}
