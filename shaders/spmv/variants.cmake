# The SPIR-V variants of spMV. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# spmv_partition: tile boundaries, per row-pointer width (r32: u32, r64: u64): merge-path tiles,
# or fixed nonzero tiles (NNZ_TILES). spmv_tiles: one tile of either per workgroup, per (value
# type, row-pointer width, subgroup layer).
# spmv_fixup: rows crossing tiles, per value type. csr_*: CSR construction from COO.
foreach(rp IN ITEMS r32 r64)
  set(rp_def "")
  if(rp STREQUAL "r64")
    set(rp_def ROWPTR_64=1)
  endif()
  vkprim_shader(spmv_partition_${rp} SOURCE spmv_partition.comp DEFINES ${rp_def})
  vkprim_shader(spmv_partition_nnz_${rp} SOURCE spmv_partition.comp
                DEFINES NNZ_TILES=1 ${rp_def})
  # spmv_stats: row-length statistics (Spmv::analyze); spmv_rows: the row kernel (L lanes per row).
  vkprim_shader(spmv_stats_${rp} SOURCE spmv_stats.comp DEFINES ${rp_def})
  # spmv_list: the split kernel's long and huge rows, listed from the row pointer.
  vkprim_shader(spmv_list_${rp} SOURCE spmv_list.comp DEFINES ${rp_def})
  foreach(t IN ITEMS f32 f64)
    # FIXED_ITEMS: tuning::kSpmvItems (sparse/gpu/spmv_pass.hpp).
    vkprim_shader(spmv_tiles_${t}_${rp}_sg SOURCE spmv_tiles.comp
                  DEFINES VALUE_${t}=1 OP_segsum=1 SUBGROUP=1 FIXED_ITEMS=8 ${rp_def})
    vkprim_shader(spmv_tiles_${t}_${rp}_wg SOURCE spmv_tiles.comp
                  DEFINES VALUE_${t}=1 OP_segsum=1 FIXED_ITEMS=8 ${rp_def})
    vkprim_shader(spmv_rows_${t}_${rp}_sg SOURCE spmv_rows.comp DEFINES VALUE_${t}=1 SUBGROUP=1 ${rp_def})
    vkprim_shader(spmv_rows_${t}_${rp}_wg SOURCE spmv_rows.comp DEFINES VALUE_${t}=1 ${rp_def})
    # spmv_rows_window: the row kernel skipping empty rows (SpmvAnalysis::skip_empty_rows).
    vkprim_shader(spmv_rows_window_${t}_${rp}_sg SOURCE spmv_rows.comp
                  DEFINES VALUE_${t}=1 SUBGROUP=1 WINDOW=1 ${rp_def})
    vkprim_shader(spmv_rows_window_${t}_${rp}_wg SOURCE spmv_rows.comp
                  DEFINES VALUE_${t}=1 WINDOW=1 ${rp_def})
    # spmv_stream: the stream kernel (CSR-Stream), no subgroup operations: one build.
    vkprim_shader(spmv_stream_${t}_${rp} SOURCE spmv_stream.comp DEFINES VALUE_${t}=1 ${rp_def})
    # spmv_long: the split kernel's long and huge rows (workgroup sums, pieces and their sum),
    # no subgroup operations: one build.
    vkprim_shader(spmv_long_${t}_${rp} SOURCE spmv_long.comp DEFINES VALUE_${t}=1 ${rp_def})
  endforeach()
endforeach()
foreach(t IN ITEMS f32 f64)
  vkprim_shader(spmv_fixup_${t} SOURCE spmv_fixup.comp DEFINES VALUE_${t}=1)
endforeach()
