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
// n >= 1 (the host handles an empty build). Entry indices and output positions are 64-bit: the
// host runs the entries in chunks of at most max_items_per_dispatch (tiles and the look-back's
// counts within a chunk stay 32-bit), each chunk's outputs starting after the run ends of the
// chunks before (base_addr), its own total going to total_addr for the next.
//
// Ranks without subgroup operations (one build for every device): entries are read striped
// (entry e of the tile is item e / WG_SIZE of invocation e % WG_SIZE), run ends set their bit in
// a tile bitmask, invocation i counts the bits of the blocked run [i * ITEMS, (i + 1) * ITEMS),
// and one workgroup exclusive scan of those counts gives every blocked run its offset.
#include "vkprim.glsl"
#include "value_type.glsl"
#include "csr_build.glsl"
#include "counts_scan.glsl"

layout(push_constant) uniform Push {
  uint64_t keys_addr, vals_addr, col_out_addr, val_out_addr, row_ptr_addr;
  uint64_t gaps_addr;   // u32 count, u32 status (both zeroed), 2 words, then uvec4 (first row,
                        // end row, value low and high words)
  uint64_t counts_addr; // out: entry count low word, status, entry count high word (u32 each)
  uint64_t state_addr;  // tile state, zeroed
  uint64_t first;       // this chunk's first entry
  uint64_t n;           // every chunk's entries
  uint64_t base_addr;   // nonzero: the u64 run ends of the chunks before
  uint64_t total_addr;  // nonzero: receives the u64 run ends up to this chunk's end
  uint m, col_bits, rows;  // m: this chunk's entries
  uint row_ptr_64;      // nonzero: u64 row pointer entries
  uint spin_limit;      // look-back re-reads of a stalled predecessor before falling back
  uint stall_period;    // testing: tiles with id % period == period - 1 never publish (0: off)
} pc;

#define ROW_GAP_SERIAL 64u  // must match sparse/gpu/csr_build.cpp (kRowGapSerial)
#define TILE (WG_SIZE * ITEMS)

bool run_ends(uint64_t i) {
  return i + 1ul == pc.n || key_at(pc.keys_addr, i + 1ul) != key_at(pc.keys_addr, i);
}

// Fallback: the run ends in part `part` of `parts` equal slices of tile `tile`.
uint reduce_tile_part(uint tile, uint part, uint parts) {
  const uint len = (TILE + parts - 1u) / parts;
  const uint64_t at = pc.first + uint64_t(tile) * TILE;
  const uint64_t begin = at + uint64_t(part) * len;
  const uint64_t end = min(at + min((part + 1u) * len, TILE), pc.first + pc.m);
  uint c = 0u;
  for (uint64_t i = begin; i < end; ++i) c += run_ends(i) ? 1u : 0u;
  return c;
}
#include "count_state.glsl"
#include "tile_bitmask.glsl"  // bit e: entry e of the tile ends a run
shared uint s_run_offset[WG_SIZE];  // run ends of the tile before blocked run i
shared uint s_tile;

// row_ptr[r] = value for r in [first, end).
void rows_start_at(uint first, uint end, uint64_t value) {
  if (first >= end) return;
  if (end - first > ROW_GAP_SERIAL) {
    const uint slot = atomicAdd(U32Buf(pc.gaps_addr).v[0], 1u);
    U32x4Buf(pc.gaps_addr + 16ul).v[slot] = uvec4(first, end, uint(value), uint(value >> 32));
    return;
  }
  for (uint r = first; r < end; ++r) {
    if (pc.row_ptr_64 != 0u) U64Buf(pc.row_ptr_addr + uint64_t(r) * 8ul).v[0] = value;
    else u32_store(pc.row_ptr_addr, r, uint(value));
  }
}

// Entry i (key k) ends its run; o run ends come before it.
void emit(uint64_t i, KEY k, uint64_t o) {
  // Entry i's value is loaded together with the key before it, not after the walk: most runs
  // are one entry, whose sum it is (H200, generated poisson2d:4096 f64, docs/benchmarks.md
  // session 19: the pass 0.997 -> 0.958 ms).
  const T last = TBuf(pc.vals_addr + i * T_SIZE).v[0];
  uint64_t h = i;
  KEY before = k;  // the key before the run (k itself: none)
  while (h > 0ul) {
    before = key_at(pc.keys_addr, h - 1ul);
    if (before != k) break;
    --h;
  }
  T sum = last;
  if (h < i) {
    sum = TBuf(pc.vals_addr + h * T_SIZE).v[0];
    for (uint64_t j = h + 1ul; j < i; ++j) sum += TBuf(pc.vals_addr + j * T_SIZE).v[0];
    sum += last;
  }
  const KEY mask = pc.col_bits == 0u ? KEY(0) : (KEY(~KEY(0)) >> (KEY_BYTES * 8ul - pc.col_bits));
  u32_store(pc.col_out_addr, o, uint(k & mask));
  TBuf(pc.val_out_addr + o * T_SIZE).v[0] = sum;
  const uint row = uint(k >> pc.col_bits);
  // Rows (previous entry's row, row] start at o; with no previous entry, rows [0, row].
  rows_start_at(h == 0ul ? 0u : uint(before >> pc.col_bits) + 1u, row + 1u, o);
  if (i + 1ul == pc.n) {
    rows_start_at(row + 1u, pc.rows + 1u, o + 1ul);
    U32Buf(pc.counts_addr).v[0] = uint(o + 1ul);
    U32Buf(pc.counts_addr).v[1] = U32Buf(pc.gaps_addr).v[1];
    U32Buf(pc.counts_addr).v[2] = uint((o + 1ul) >> 32);
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  StateBuf st = StateBuf(pc.state_addr);
  const uint tiles = uint((uint64_t(pc.m) + TILE - 1u) / TILE);
  if (lid == 0u) s_tile = atomicAdd(st.w[0], 1u);
  for (uint w = lid; w < TILE / 32u; w += WG_SIZE) s_bits[w] = 0u;
  barrier();
  const uint tile = UNIFORM(s_tile);
  if (tile >= tiles) return;

  const uint64_t first = pc.first + uint64_t(tile) * TILE;
  const uint valid = uint(min(uint64_t(pc.m) - uint64_t(tile) * TILE, uint64_t(TILE)));
  KEY keys[ITEMS];
  uint ends = 0u;  // bit k: item k ends a run
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint e = k * WG_SIZE + lid;
    const uint64_t i = first + e;
    keys[k] = KEY(0);
    if (e < valid) {
      keys[k] = key_at(pc.keys_addr, i);
      if (i + 1ul == pc.n || key_at(pc.keys_addr, i + 1ul) != keys[k]) {
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

  const bool publishes = pc.stall_period == 0u || tile % pc.stall_period != pc.stall_period - 1u;
  const uint prefix = tile_exclusive_prefix(st, tile, tile_count, pc.spin_limit, publishes);
  barrier();  // s_run_offset is visible (the look-back's barriers do not run for tile 0)

  const uint64_t base = pc.base_addr != 0ul ? U64Buf(pc.base_addr).v[0] : 0ul;
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    if ((ends & (1u << k)) != 0u) {
      const uint e = k * WG_SIZE + lid;
      emit(first + e, keys[k], base + prefix + s_run_offset[e / ITEMS] + bits_before_in_run(e, ITEMS));
    }
  }
  if (pc.total_addr != 0ul && tile == tiles - 1u && lid == 0u)
    U64Buf(pc.total_addr).v[0] = base + prefix + tile_count;
}
