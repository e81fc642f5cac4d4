// The specialization constants of the passes with a decoupled look-back (the single-pass scan,
// select_tiles, radix_onesweep, the CSR build's compaction): shaders/common/look_back.h names
// their ids and what each does. Production plans set the spin limit alone (their policy's
// value); the testing interface (engine/testing/vkprim/testing.hpp) sets the rest.
#pragma once

#include "core/pipeline.hpp"
#include "../../shaders/common/look_back.h"

#include <cstdint>

namespace vkprim::detail {

struct LookBackSpec {
  uint32_t spin_limit = 0;
  uint32_t stall_period = 0, stall_counts = 0, guess_offset = 0;  // testing: 0 is off
};

// Sets the look-back's constants of `d` to `s`.
inline void set_look_back_spec(PipelineDesc& d, const LookBackSpec& s) {
  d.set_spec(VKPRIM_SPEC_SPIN_LIMIT, s.spin_limit);
  d.set_spec(VKPRIM_SPEC_STALL_PERIOD, s.stall_period);
  d.set_spec(VKPRIM_SPEC_STALL_COUNTS, s.stall_counts);
  d.set_spec(VKPRIM_SPEC_GUESS_OFFSET, s.guess_offset);
}

}  // namespace vkprim::detail
