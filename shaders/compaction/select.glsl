// Compaction (shaders/select_*.comp): which elements are selected (i: a 64-bit element index).
//   mode 0, flagged:   flags[i] != 0 (u32 flags)
//   mode 1, predicate: op(x[i]) with operands a, b (raw bit patterns of T):
//       0 x < a   1 x <= a   2 x > a   3 x >= a   4 x == a   5 x != a
//       6 (bits(x) & a) == b   7 a <= x < b
//     compared as T (floats as floats: NaN satisfies only !=).
//   mode 2, unique:    i == 0 or bits(x[i]) != bits(x[i - 1]) (the first of each run of
//                      bit-identical elements); a chunk after the first (g_select_continued)
//                      compares its element 0 with the element before its start too
#ifndef VKPRIM_SELECT_GLSL
#define VKPRIM_SELECT_GLSL

#define SELECT_FLAGGED 0u
#define SELECT_PREDICATE 1u
#define SELECT_UNIQUE 2u

bool g_select_continued = false;  // unique: in_addr is not the array's start (set by main)

#if T_SIZE == 4
#define TBits uint
#else
#define TBits uint64_t
#endif

bool select_predicate(T x, uint op, uint64_t a_bits, uint64_t b_bits) {
  const T a = T_FROM_BITS(a_bits), b = T_FROM_BITS(b_bits);
  switch (op) {
    case 0u: return x < a;
    case 1u: return x <= a;
    case 2u: return x > a;
    case 3u: return x >= a;
    case 4u: return x == a;
    case 5u: return x != a;
    case 6u: return (T_BITS(x) & TBits(a_bits)) == TBits(b_bits);
    default: return a <= x && x < b;
  }
}

// Whether element i, whose value x the caller has already loaded, is selected.
bool select_test_value(T x, uint64_t in_addr, uint64_t flags_addr, uint64_t i, uint mode, uint op, uint64_t a, uint64_t b) {
  if (mode == SELECT_FLAGGED) return U32Buf(ELEM_ADDR(flags_addr, i, 4)).v[0] != 0u;
  if (mode == SELECT_PREDICATE) return select_predicate(x, op, a, b);
  if (i == 0ul && !g_select_continued) return true;
  return T_BITS(x) != T_BITS(TBuf(ELEM_ADDR(in_addr, i, T_SIZE) - uint64_t(T_SIZE)).v[0]);
}

bool select_test(uint64_t in_addr, uint64_t flags_addr, uint64_t i, uint mode, uint op, uint64_t a, uint64_t b) {
  const T x = mode == SELECT_FLAGGED ? T(0) : TBuf(ELEM_ADDR(in_addr, i, T_SIZE)).v[0];
  return select_test_value(x, in_addr, flags_addr, i, mode, op, a, b);
}

#endif
