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

// Puts `s` in d.extra_spec (constant ids from 2 on), which then reaches constant id
// VKPRIM_SPEC_GUESS_OFFSET; the ids before VKPRIM_SPEC_SPIN_LIMIT keep their values (0 where
// extra_spec did not reach them: a pass that declares no such constant ignores its entry).
inline void set_look_back_spec(PipelineDesc& d, const LookBackSpec& s) {
  const auto set = [&d](uint32_t id, uint32_t value) {
    if (d.extra_spec.size() < id - 1) d.extra_spec.resize(id - 1, 0u);
    d.extra_spec[id - 2] = value;
  };
  set(VKPRIM_SPEC_SPIN_LIMIT, s.spin_limit);
  set(VKPRIM_SPEC_STALL_PERIOD, s.stall_period);
  set(VKPRIM_SPEC_STALL_COUNTS, s.stall_counts);
  set(VKPRIM_SPEC_GUESS_OFFSET, s.guess_offset);
}

}  // namespace vkprim::detail
