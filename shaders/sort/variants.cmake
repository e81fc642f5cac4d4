# The SPIR-V variants of radix sort. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Radix sort: keys of 1 or 2 words (key: k1, k2; signed/float/descending are push-constant
# flags); the ranking passes also by value words (value_words: v0 for keys only, v1, v2) and
# subgroup layer (sg/wg as for scans). The upfront pass: the varying key bits and every pass's
# histogram (radix_histogram, onesweep), or the varying bits only (radix_varying,
# reduce-then-scan: one read of the keys, no atomics per key).
# radix_offsets: reduce-then-scan's group counts into offsets, one workgroup per digit.
# offsets=wide: the reduce-then-scan passes of sorts of 2^32 keys and more (64-bit counts,
# offsets and positions: RADIX_WIDE); narrow: 32-bit ones.
# radix_offsets compiles in its items per invocation (FIXED_ITEMS, which
# tuning::kRadixOffsetsItems static_asserts against).
vkprim_shader_family(radix_offsets SOURCE radix_offsets.comp
                     AXES layer=sg,wg offsets=narrow,wide
                     DEFINES FIXED_ITEMS=8
                     AXIS_DEFINES layer=sg:SUBGROUP=1 offsets=wide:RADIX_WIDE=1)
set(vkprim_radix_key_defines key=k1:KEY_WORDS=1 key=k2:KEY_WORDS=2)
vkprim_shader_family(radix_histogram SOURCE radix_histogram.comp AXES key=k1,k2
                     AXIS_DEFINES ${vkprim_radix_key_defines})
vkprim_shader_family(radix_varying SOURCE radix_histogram.comp AXES key=k1,k2
                     DEFINES VARYING_ONLY=1 AXIS_DEFINES ${vkprim_radix_key_defines})
vkprim_shader_family(radix_upsweep SOURCE radix_upsweep.comp AXES key=k1,k2 offsets=narrow,wide
                     AXIS_DEFINES ${vkprim_radix_key_defines} offsets=wide:RADIX_WIDE=1)
set(vkprim_radix_rank_defines ${vkprim_radix_key_defines}
    value_words=v0:VALUE_WORDS=0 value_words=v1:VALUE_WORDS=1 value_words=v2:VALUE_WORDS=2
    layer=sg:SUBGROUP=1)
vkprim_shader_family(radix_downsweep SOURCE radix_downsweep.comp
                     AXES key=k1,k2 value_words=v0,v1,v2 layer=sg,wg offsets=narrow,wide
                     AXIS_DEFINES ${vkprim_radix_rank_defines} offsets=wide:RADIX_WIDE=1)
vkprim_shader_family(radix_onesweep SOURCE radix_onesweep.comp
                     AXES key=k1,k2 value_words=v0,v1,v2 layer=sg,wg
                     AXIS_DEFINES ${vkprim_radix_rank_defines})
# Onesweep's large tiles of 32-bit keys alone: early counts, the tile staged in rounds.
vkprim_shader(radix_onesweep_k1_v0_sg_rounds SOURCE radix_onesweep.comp DEFINES KEY_WORDS=1 VALUE_WORDS=0 SUBGROUP=1 ONESWEEP_ROUNDS=1)
