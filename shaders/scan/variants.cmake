# The SPIR-V variants of scan, reduce and segmented scan. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Scan and reduce: every pass for every (operator, value type), in two builds of the subgroup
# layer: "sg" uses subgroup operations (arithmetic intrinsics, or relative shuffles for
# operators without one), "wg" only shared memory (any device). Operators: common/agg.glsl.
# The compensated sum (kahan) exists for f32 and f64 only: a family of its own per pass.
set(VKPRIM_SCAN_PASSES scan_tiles reduce_tiles scan_partials scan_ranges)

# Items per invocation, compiled in (FIXED_ITEMS), by the aggregate's size in 32-bit words
# (registers): 16 for one word, 8 for two, 4 for more; the single pass's subgroup build takes
# twice that for one- and two-word aggregates (32, 16). engine/scan/policy.hpp's scan_items() and
# scan_single_pass_items() hold the same table and static_assert it against every variant's
# FIXED_ITEMS (shader_fixed_items()), so the two cannot drift apart.
function(vkprim_scan_fixed_items out op type pass layer)
  if(type MATCHES "64")
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
    if(pass STREQUAL "scan_tiles" AND layer STREQUAL "sg")
      set(items 32)
    endif()
  elseif(words EQUAL 2)
    set(items 8)
    if(pass STREQUAL "scan_tiles" AND layer STREQUAL "sg")
      set(items 16)
    endif()
  else()
    set(items 4)
  endif()
  set(${out} FIXED_ITEMS=${items} PARENT_SCOPE)
endfunction()
function(vkprim_scan_defines out)  # the families by operator: op, value, layer; pass
  vkprim_scan_fixed_items(d ${op} ${value} ${pass} ${layer})
  set(${out} ${d} PARENT_SCOPE)
endfunction()
function(vkprim_scan_kahan_defines out)  # the compensated sums: real, layer; pass
  vkprim_scan_fixed_items(d kahan ${real} ${pass} ${layer})
  set(${out} ${d} PARENT_SCOPE)
endfunction()

foreach(pass IN LISTS VKPRIM_SCAN_PASSES)
  vkprim_shader_family(${pass} SOURCE ${pass}.comp
                       AXES op=sum,min,max,segsum value=${VKPRIM_VALUE_TYPES} layer=sg,wg
                       DEFINES VALUE_@value@=1 OP_@op@=1 AXIS_DEFINES layer=sg:SUBGROUP=1
                       DEFINES_FOR vkprim_scan_defines)
  vkprim_shader_family(${pass}_kahan SOURCE ${pass}.comp
                       AXES real=f32,f64 layer=sg,wg
                       DEFINES VALUE_@real@=1 OP_kahan=1 AXIS_DEFINES layer=sg:SUBGROUP=1
                       DEFINES_FOR vkprim_scan_kahan_defines)
endforeach()
vkprim_shader(segment_heads SOURCE segment_heads.comp)
