#version 460
#extension GL_GOOGLE_include_directive : require
// Radix sort, once per sort, before the digit passes: the key bits that vary, and (full build)
// the global histogram of every digit pass.
//   varying words: OR(t), then OR(~t), over the transformed keys t (KEY_WORDS words each, low
//     word first); their AND is the bits in which keys differ. A pass none of whose bits is
//     among them gives every key the same digit and becomes a copy (sort/radix_pass.glsl),
//     decided on the GPU with no host round trip.
//   hist[pass * 256 + d] (radix_histogram_k*, for onesweep): the keys whose digit of that pass
//     is d, Onesweep's upfront histogram (Adinets & Merrill 2022), whose exclusive scan gives
//     the global digit offsets.
// VARYING_ONLY (radix_varying_k*, for reduce-then-scan, which needs no counts) keeps no bins, so
// it reads the keys once at bandwidth where the bins cost a shared-memory atomic per key and
// pass. It stops reading once every bit of the window varies, as no pass can be trivial then
// (its words are exact only inside the window): a workgroup after a probe of one key per
// invocation, where those keys differ in every bit already (as random keys do), else an
// invocation once its own keys do. (Without the probe every invocation would read ITEMS keys
// before its own test could stop it.)
// Tiles are visited grid-stride; the counting is common/radix_upfront.glsl's (shared with the
// CSR build's keys pass).
#include "vkprim.glsl"
#include "radix.glsl"
#include "radix_upfront.glsl"

#define PUSH_RADIX_HISTOGRAM  // pc: push.h's RadixHistogramPush
#include "push.h"

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint n = dispatch_count(pc.count_addr, pc.count_first, pc.n);
#if defined(VARYING_ONLY)
  const uint width = pc.end_bit - pc.begin_bit;  // >= 1: the plan dispatches no pass otherwise
  const Key window = (width >= 32u * KEY_WORDS ? ~Key(0) : (Key(1) << width) - Key(1)) << pc.begin_bit;
#endif
  Upfront u = upfront_begin(pc.passes);
  const uint tile_items = WG_SIZE * ITEMS;
  const uint tiles = uint((uint64_t(n) + tile_items - 1u) / tile_items);
  bool done = false;
#if defined(VARYING_ONLY)
  const uint64_t probe = uint64_t(gl_WorkGroupID.x) * tile_items + lid;  // in the first tile
  if (probe < n)
    upfront_count(u, radix_transform(KeyBuf(ELEM_ADDR(pc.keys_addr, probe, KEY_SIZE)).v[0], RADIX_FLAGS),
                  pc.begin_bit, pc.end_bit, pc.passes);
  done = upfront_varies(u, window);
#endif
  if (!done) FOR_EACH_TILE(tile, tiles) {
    const uint64_t base = uint64_t(tile) * tile_items + lid;
    KeyBuf keys = KeyBuf(ELEM_ADDR(pc.keys_addr, uint64_t(tile) * tile_items, KEY_SIZE));  // the tile's
    Key key[ITEMS];  // every load of the tile in flight before the first use
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k)
      key[k] = base + k * WG_SIZE < n ? keys.v[lid + k * WG_SIZE] : Key(0);
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k)
      if (base + k * WG_SIZE < n)
        upfront_count(u, radix_transform(key[k], RADIX_FLAGS), pc.begin_bit, pc.end_bit, pc.passes);
#if defined(VARYING_ONLY)
    if ((u.ones & u.zeros & window) == window) break;
#endif
  }
  upfront_end(u, pc.passes, pc.hist_addr, pc.varying_addr);
}
