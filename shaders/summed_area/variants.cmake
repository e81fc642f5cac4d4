# The SPIR-V variants of the summed-area table. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Row scans and column scans by sums: f32 of f32, u32 of u32 (modulo 2^32), u64 of u32 (wide).
vkprim_shader_family(sat_rows SOURCE sat_rows.comp AXES sums=f32,u32,wide DEFINES SUMS_@sums@=1)
vkprim_shader_family(sat_columns SOURCE sat_columns.comp AXES sums=f32,u32,wide DEFINES SUMS_@sums@=1)
# A u32 image widened to u64 (the one-row and one-column tables with u64 sums).
vkprim_shader(sat_widen SOURCE sat_widen.comp)
