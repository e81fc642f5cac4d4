# The SPIR-V variants of compaction (select, partition, unique). Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Compaction: selection by flags, predicate (compared as T) or run head; the scatter and the
# single-pass select in the two subgroup builds. select_total: the allocation helper's total.
foreach(t IN LISTS VKPRIM_VALUE_TYPES)
  vkprim_shader(select_upsweep_${t}     SOURCE select_upsweep.comp DEFINES VALUE_${t}=1)
  vkprim_shader(select_scatter_${t}_sg SOURCE select_scatter.comp DEFINES VALUE_${t}=1 SUBGROUP=1)
  vkprim_shader(select_scatter_${t}_wg SOURCE select_scatter.comp DEFINES VALUE_${t}=1)
  vkprim_shader(select_tiles_${t}_sg   SOURCE select_tiles.comp   DEFINES VALUE_${t}=1 SUBGROUP=1)
  vkprim_shader(select_tiles_${t}_wg   SOURCE select_tiles.comp   DEFINES VALUE_${t}=1)
  vkprim_shader(select_tiles_partition_${t}_sg SOURCE select_tiles.comp DEFINES VALUE_${t}=1 SUBGROUP=1 PARTITION=1)
  vkprim_shader(select_tiles_partition_${t}_wg SOURCE select_tiles.comp DEFINES VALUE_${t}=1 PARTITION=1)
endforeach()
vkprim_shader(select_total SOURCE select_total.comp)
