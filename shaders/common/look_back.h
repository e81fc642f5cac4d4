// The specialization constants of the passes with a decoupled look-back (common/tile_state.glsl:
// scan_tiles, select_tiles, csr_compact; sort/radix_onesweep.comp), by constant id, for the GLSL
// and for the plans that set them (engine/core/look_back.hpp); common/spec_ids.h numbers them.
//   SPIN_LIMIT    re-reads of a predecessor's state that is not ready before the fallback;
//                 every plan sets it (its policy's value, or a test's)
//   STALL_PERIOD  testing: tiles with id % STALL_PERIOD == STALL_PERIOD - 1 never publish, so
//                 their successors must take the fallback path (0: off)
//   STALL_COUNTS  testing, radix_onesweep: those tiles (but tile 0) publish their digit counts,
//                 never their prefixes (0: off)
//   GUESS_OFFSET  testing, radix_onesweep's _sg builds: added to the tile whose keys a workgroup
//                 loads before the counter gives it its own (0: its workgroup id)
// The testing constants are 0 in every pipeline outside the testing interface
// (engine/testing/vkprim/testing.hpp), so their code folds away there (look_back_publishes
// below keeps one run-time comparison, for the reason it gives).
#ifndef VKPRIM_LOOK_BACK_H
#define VKPRIM_LOOK_BACK_H

#include "spec_ids.h"

#ifndef __cplusplus
layout(constant_id = VKPRIM_SPEC_SPIN_LIMIT) const uint SPIN_LIMIT = 0u;
layout(constant_id = VKPRIM_SPEC_STALL_PERIOD) const uint STALL_PERIOD = 0u;
layout(constant_id = VKPRIM_SPEC_STALL_COUNTS) const uint STALL_COUNTS = 0u;
layout(constant_id = VKPRIM_SPEC_GUESS_OFFSET) const uint GUESS_OFFSET = 0u;

// Whether `tile` publishes its state (false only for the tiles STALL_PERIOD stalls). Without
// stalls it is true, but stays a run-time value (gl_NumWorkGroups.y is never 0 in a dispatch):
// with the publications unconditional, NVIDIA's compiler gives the look-back's fallback path more
// registers a thread (the single-pass scan 80 instead of 64, the segmented scan 58 instead of
// 40), which costs the passes occupancy and speed.
bool look_back_publishes(uint tile) {
  return STALL_PERIOD == 0u ? gl_NumWorkGroups.y != 0u : tile % STALL_PERIOD != STALL_PERIOD - 1u;
}

// Whether the tiles look_back_publishes stalls still publish their digit counts (radix_onesweep:
// STALL_COUNTS). False without STALL_COUNTS, again as a run-time value (a dispatch's
// gl_NumWorkGroups.z is 1 in every dispatch vkprim records): folded to a constant, it makes
// onesweep's pairs passes slower on NVIDIA.
bool look_back_stall_counts() { return STALL_COUNTS + gl_NumWorkGroups.z != 1u; }
#endif

#endif
