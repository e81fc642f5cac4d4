# The SPIR-V variants of radix sort. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Radix sort: keys of 1 or 2 words (signed/float/descending are push-constant flags); the
# downsweep also by value words (0: keys only) and subgroup layer (sg/wg as for scans). The
# upfront pass: the varying key bits and every pass's histogram (onesweep), or the varying
# bits only (radix_varying, reduce-then-scan: one read of the keys, no atomics per key).
# radix_offsets: reduce-then-scan's group counts into offsets, one workgroup per digit.
# *_wide: the reduce-then-scan passes of sorts of 2^32 keys and more (64-bit counts, offsets and
# positions: RADIX_WIDE).
vkprim_shader(radix_offsets_sg SOURCE radix_offsets.comp DEFINES FIXED_ITEMS=8 SUBGROUP=1)
vkprim_shader(radix_offsets_wg SOURCE radix_offsets.comp DEFINES FIXED_ITEMS=8)
vkprim_shader(radix_offsets_sg_wide SOURCE radix_offsets.comp DEFINES FIXED_ITEMS=8 SUBGROUP=1 RADIX_WIDE=1)
vkprim_shader(radix_offsets_wg_wide SOURCE radix_offsets.comp DEFINES FIXED_ITEMS=8 RADIX_WIDE=1)
foreach(kw IN ITEMS 1 2)
  vkprim_shader(radix_histogram_k${kw} SOURCE radix_histogram.comp DEFINES KEY_WORDS=${kw})
  vkprim_shader(radix_varying_k${kw}   SOURCE radix_histogram.comp DEFINES KEY_WORDS=${kw} VARYING_ONLY=1)
  vkprim_shader(radix_upsweep_k${kw}   SOURCE radix_upsweep.comp   DEFINES KEY_WORDS=${kw})
  vkprim_shader(radix_upsweep_k${kw}_wide SOURCE radix_upsweep.comp DEFINES KEY_WORDS=${kw} RADIX_WIDE=1)
  foreach(vw IN ITEMS 0 1 2)
    vkprim_shader(radix_downsweep_k${kw}_v${vw}_sg SOURCE radix_downsweep.comp DEFINES KEY_WORDS=${kw} VALUE_WORDS=${vw} SUBGROUP=1)
    vkprim_shader(radix_downsweep_k${kw}_v${vw}_wg SOURCE radix_downsweep.comp DEFINES KEY_WORDS=${kw} VALUE_WORDS=${vw})
    vkprim_shader(radix_downsweep_k${kw}_v${vw}_sg_wide SOURCE radix_downsweep.comp DEFINES KEY_WORDS=${kw} VALUE_WORDS=${vw} SUBGROUP=1 RADIX_WIDE=1)
    vkprim_shader(radix_downsweep_k${kw}_v${vw}_wg_wide SOURCE radix_downsweep.comp DEFINES KEY_WORDS=${kw} VALUE_WORDS=${vw} RADIX_WIDE=1)
    vkprim_shader(radix_onesweep_k${kw}_v${vw}_sg SOURCE radix_onesweep.comp DEFINES KEY_WORDS=${kw} VALUE_WORDS=${vw} SUBGROUP=1)
    vkprim_shader(radix_onesweep_k${kw}_v${vw}_wg SOURCE radix_onesweep.comp DEFINES KEY_WORDS=${kw} VALUE_WORDS=${vw})
  endforeach()
endforeach()
# Onesweep's large tiles of 32-bit keys alone: early counts, the tile staged in rounds.
vkprim_shader(radix_onesweep_k1_v0_sg_rounds SOURCE radix_onesweep.comp DEFINES KEY_WORDS=1 VALUE_WORDS=0 SUBGROUP=1 ONESWEEP_ROUNDS=1)
