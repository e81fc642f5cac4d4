# The SPIR-V variants of scan, reduce and segmented scan. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Scan and reduce: every pass for every (operator, value type), in two builds of the subgroup
# layer: "sg" uses subgroup operations (arithmetic intrinsics, or relative shuffles for
# operators without one), "wg" only shared memory (any device). Operators: common/agg.glsl.
set(VKPRIM_SCAN_PASSES scan_tiles reduce_tiles scan_partials scan_ranges)
set(scan_combos "")
foreach(t IN LISTS VKPRIM_VALUE_TYPES)
  list(APPEND scan_combos sum:${t} min:${t} max:${t} segsum:${t})
endforeach()
list(APPEND scan_combos kahan:f32 kahan:f64)
foreach(combo IN LISTS scan_combos)
  string(REPLACE ":" ";" parts ${combo})
  list(GET parts 0 op)
  list(GET parts 1 t)
  # Items per invocation by aggregate size in 32-bit words: must match tuning::scan_items().
  string(REGEX MATCH "64" wide ${t})
  if(wide)
    set(words 2)
  else()
    set(words 1)
  endif()
  if(op STREQUAL "kahan")
    math(EXPR words "${words} * 2")
  elseif(op STREQUAL "segsum")
    math(EXPR words "${words} + 1")
  endif()
  if(words EQUAL 1)
    set(items 16)
  elseif(words EQUAL 2)
    set(items 8)
  else()
    set(items 4)
  endif()
  foreach(pass IN LISTS VKPRIM_SCAN_PASSES)
    # The single pass's subgroup build takes twice the items for one-word aggregates: must
    # match tuning::scan_single_pass_items().
    set(sg_items ${items})
    if(pass STREQUAL "scan_tiles" AND words EQUAL 1)
      set(sg_items 32)
    endif()
    vkprim_shader(${pass}_${op}_${t}_sg SOURCE ${pass}.comp DEFINES VALUE_${t}=1 OP_${op}=1 FIXED_ITEMS=${sg_items} SUBGROUP=1)
    vkprim_shader(${pass}_${op}_${t}_wg SOURCE ${pass}.comp DEFINES VALUE_${t}=1 OP_${op}=1 FIXED_ITEMS=${items})
  endforeach()
endforeach()
vkprim_shader(segment_heads SOURCE segment_heads.comp)
