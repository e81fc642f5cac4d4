# The SPIR-V variants of compaction (select, partition, unique). Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Compaction: selection by flags, predicate (compared as T) or run head; the scatter and the
# single-pass select in the two subgroup builds. select_total: the allocation helper's total.
vkprim_shader_family(select_upsweep SOURCE select_upsweep.comp
                     AXES value=${VKPRIM_VALUE_TYPES}
                     DEFINES VALUE_@value@=1)
foreach(pass IN ITEMS select_scatter select_tiles)
  vkprim_shader_family(${pass} SOURCE ${pass}.comp
                       AXES value=${VKPRIM_VALUE_TYPES} layer=sg,wg
                       DEFINES VALUE_@value@=1 AXIS_DEFINES layer=sg:SUBGROUP=1)
endforeach()
vkprim_shader_family(select_tiles_partition SOURCE select_tiles.comp
                     AXES value=${VKPRIM_VALUE_TYPES} layer=sg,wg
                     DEFINES VALUE_@value@=1 PARTITION=1 AXIS_DEFINES layer=sg:SUBGROUP=1)
vkprim_shader(select_total SOURCE select_total.comp)
