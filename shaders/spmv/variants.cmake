# The SPIR-V variants of spMV. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Every family by row-pointer width (row_ptr: r32 for u32, r64 for u64) and, where the pass
# reads values, by value type (real: f32, f64).
# spmv_partition: tile boundaries, merge-path tiles, or fixed nonzero tiles (spmv_partition_nnz).
# spmv_tiles: one tile of either per workgroup, per subgroup layer; its items per invocation are
# compiled in (FIXED_ITEMS), which tuning::kSpmvItems (sparse/spmv/pass.hpp) static_asserts
# against. spmv_fixup: rows crossing tiles, per value type.
vkprim_shader_family(spmv_partition SOURCE spmv_partition.comp AXES row_ptr=r32,r64
                     AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
vkprim_shader_family(spmv_partition_nnz SOURCE spmv_partition.comp AXES row_ptr=r32,r64
                     DEFINES NNZ_TILES=1 AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
# spmv_stats: row-length statistics (Spmv::analyze).
vkprim_shader_family(spmv_stats SOURCE spmv_stats.comp AXES row_ptr=r32,r64
                     AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
# spmv_list: the split kernel's long and huge rows, listed from the row pointer.
vkprim_shader_family(spmv_list SOURCE spmv_list.comp AXES row_ptr=r32,r64
                     AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
vkprim_shader_family(spmv_tiles SOURCE spmv_tiles.comp AXES real=f32,f64 row_ptr=r32,r64 layer=sg,wg
                     DEFINES VALUE_@real@=1 OP_segsum=1 FIXED_ITEMS=8
                     AXIS_DEFINES layer=sg:SUBGROUP=1 row_ptr=r64:ROWPTR_64=1)
# spmv_rows: the row kernel (L lanes per row); spmv_rows_window: the row kernel skipping empty
# rows (SpmvAnalysis::skip_empty_rows).
vkprim_shader_family(spmv_rows SOURCE spmv_rows.comp AXES real=f32,f64 row_ptr=r32,r64 layer=sg,wg
                     DEFINES VALUE_@real@=1
                     AXIS_DEFINES layer=sg:SUBGROUP=1 row_ptr=r64:ROWPTR_64=1)
vkprim_shader_family(spmv_rows_window SOURCE spmv_rows.comp AXES real=f32,f64 row_ptr=r32,r64 layer=sg,wg
                     DEFINES VALUE_@real@=1 WINDOW=1
                     AXIS_DEFINES layer=sg:SUBGROUP=1 row_ptr=r64:ROWPTR_64=1)
# spmv_rows_dot: the row kernel that also writes per-workgroup partial sums of y[row] * x[row]
# (CG's A p with p.Ap, sparse/spmv/dot.hpp).
vkprim_shader_family(spmv_rows_dot SOURCE spmv_rows.comp AXES real=f32,f64 row_ptr=r32,r64 layer=sg,wg
                     DEFINES VALUE_@real@=1 DOT=1
                     AXIS_DEFINES layer=sg:SUBGROUP=1 row_ptr=r64:ROWPTR_64=1)
# spmv_rows_complex, spmv_rows_window_complex: the same for complex values (COMPLEX: two parts
# of the `real` type each, shaders/common/spmv_value.glsl).
vkprim_shader_family(spmv_rows_complex SOURCE spmv_rows.comp AXES real=f32,f64 row_ptr=r32,r64 layer=sg,wg
                     DEFINES VALUE_@real@=1 COMPLEX=1
                     AXIS_DEFINES layer=sg:SUBGROUP=1 row_ptr=r64:ROWPTR_64=1)
vkprim_shader_family(spmv_rows_window_complex SOURCE spmv_rows.comp AXES real=f32,f64 row_ptr=r32,r64 layer=sg,wg
                     DEFINES VALUE_@real@=1 COMPLEX=1 WINDOW=1
                     AXIS_DEFINES layer=sg:SUBGROUP=1 row_ptr=r64:ROWPTR_64=1)
# spmv_stream: the stream kernel (CSR-Stream), no subgroup operations: one build.
vkprim_shader_family(spmv_stream SOURCE spmv_stream.comp AXES real=f32,f64 row_ptr=r32,r64
                     DEFINES VALUE_@real@=1 AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
# spmv_long: the split kernel's long and huge rows (workgroup sums, pieces and their sum), no
# subgroup operations: one build.
vkprim_shader_family(spmv_long SOURCE spmv_long.comp AXES real=f32,f64 row_ptr=r32,r64
                     DEFINES VALUE_@real@=1 AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
vkprim_shader_family(spmv_fixup SOURCE spmv_fixup.comp AXES real=f32,f64 DEFINES VALUE_@real@=1)
# spmv_tiles_complex, spmv_fixup_complex: the merge path and nonzero tiles for complex values
# (COMPLEX: two parts of the `real` type each; carries and heads split by part).
vkprim_shader_family(spmv_tiles_complex SOURCE spmv_tiles.comp AXES real=f32,f64 row_ptr=r32,r64 layer=sg,wg
                     DEFINES VALUE_@real@=1 OP_segsum=1 FIXED_ITEMS=8 COMPLEX=1
                     AXIS_DEFINES layer=sg:SUBGROUP=1 row_ptr=r64:ROWPTR_64=1)
vkprim_shader_family(spmv_fixup_complex SOURCE spmv_fixup.comp AXES real=f32,f64 DEFINES VALUE_@real@=1 COMPLEX=1)
