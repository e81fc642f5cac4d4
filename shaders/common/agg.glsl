// The aggregate a scan or reduction carries: a monoid (identity + associative combine) over
// values of T, chosen by one -DOP_<op> define. Adding an operator = adding a block here:
//   Agg agg_identity()              neutral element
//   Agg agg_combine(Agg a, Agg b)   associative; a is the earlier (left) operand
//   Agg agg_of(T x, uint head)      one element (head: segment-start flag, segmented ops only)
//   T   agg_value(Agg a)            the element-type result
//   T   agg_exclusive_value(Agg before, Agg item)   an exclusive scan's output for `item`
//   AGG_WORDS, agg_word, agg_from_words: the aggregate as 32-bit words (tile state)
// Optionally AGG_SUBGROUP_{INCLUSIVE,EXCLUSIVE,REDUCE}(a): subgroup intrinsics, used when the
// pass is compiled with SUBGROUP_ARITH (the device has subgroup arithmetic for T).
// Optionally AGG_COMMUTATIVE: the operator's result does not depend on the operands' order.
#ifndef VKPRIM_AGG_GLSL
#define VKPRIM_AGG_GLSL

#if defined(OP_sum) || defined(OP_min) || defined(OP_max)
#define Agg T
#define AGG_WORDS T_WORDS
// agg_combine(a, b) == agg_combine(b, a) (for floats up to rounding): a pass may combine
// elements in any order where only the whole matters (scan_tiles.comp's early aggregate).
#define AGG_COMMUTATIVE 1
#if defined(OP_sum)
Agg agg_identity() { return T(0); }
Agg agg_combine(Agg a, Agg b) { return a + b; }
#define AGG_SUBGROUP_INCLUSIVE subgroupInclusiveAdd
#define AGG_SUBGROUP_EXCLUSIVE subgroupExclusiveAdd
#define AGG_SUBGROUP_REDUCE subgroupAdd
#elif defined(OP_min)
Agg agg_identity() { return T_MAX; }
Agg agg_combine(Agg a, Agg b) { return min(a, b); }
#define AGG_SUBGROUP_INCLUSIVE subgroupInclusiveMin
#define AGG_SUBGROUP_EXCLUSIVE subgroupExclusiveMin
#define AGG_SUBGROUP_REDUCE subgroupMin
#else
Agg agg_identity() { return T_LOWEST; }
Agg agg_combine(Agg a, Agg b) { return max(a, b); }
#define AGG_SUBGROUP_INCLUSIVE subgroupInclusiveMax
#define AGG_SUBGROUP_EXCLUSIVE subgroupExclusiveMax
#define AGG_SUBGROUP_REDUCE subgroupMax
#endif
Agg agg_of(T x, uint head) { return x; }
T agg_value(Agg a) { return a; }
uint agg_word(Agg a, uint i) { return t_word(a, i); }
Agg agg_from_words(uint w[4]) { return t_from_words(w[0], w[1]); }

#elif defined(OP_kahan)
// Compensated sum (Kahan-Babuska / Neumaier): the running sum and the rounding error it lost.
// `precise` keeps the compiler from fusing or reassociating the error terms.
struct Agg { T s; T c; };
#define AGG_WORDS (2 * T_WORDS)
Agg agg_identity() { return Agg(T(0), T(0)); }
Agg agg_combine(Agg a, Agg b) {
  precise T s = a.s + b.s;
  precise T e = abs(a.s) >= abs(b.s) ? (a.s - s) + b.s : (b.s - s) + a.s;
  precise T c = (a.c + b.c) + e;
  return Agg(s, c);
}
Agg agg_of(T x, uint head) { return Agg(x, T(0)); }
T agg_value(Agg a) {
  precise T r = a.s + a.c;
  return r;
}
uint agg_word(Agg a, uint i) { return i < T_WORDS ? t_word(a.s, i) : t_word(a.c, i - T_WORDS); }
Agg agg_from_words(uint w[4]) {
  return Agg(t_from_words(w[0], w[1]), t_from_words(w[T_WORDS], w[T_WORDS + 1]));
}

#elif defined(OP_segsum)
// Segmented sum: (value, head) pairs; a head restarts the sum (Blelloch's segmented operator).
struct Agg { T v; uint head; };
#define AGG_WORDS (T_WORDS + 1)
Agg agg_identity() { return Agg(T(0), 0u); }
Agg agg_combine(Agg a, Agg b) { return Agg(b.head != 0u ? b.v : a.v + b.v, a.head | b.head); }
Agg agg_of(T x, uint head) { return Agg(x, head); }
T agg_value(Agg a) { return a.v; }
uint agg_word(Agg a, uint i) { return i < T_WORDS ? t_word(a.v, i) : a.head; }
Agg agg_from_words(uint w[4]) { return Agg(t_from_words(w[0], w[1]), w[T_WORDS]); }

#else
#error "define one of OP_sum OP_min OP_max OP_kahan OP_segsum"
#endif

// An exclusive scan outputs what came before the item; a segmented one restarts at heads.
T agg_exclusive_value(Agg before, Agg item) {
#if defined(OP_segsum)
  return item.head != 0u ? T(0) : before.v;
#else
  return agg_value(before);
#endif
}

#endif
