# The SPIR-V variants of element-wise passes: copy, fill and map. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Element-wise: copy and fill move raw words, 4 per invocation-item when aligned to 16 bytes.
vkprim_shader(copy_u32   SOURCE copy.comp DEFINES WORD=uint WORD_SIZE=4)
vkprim_shader(copy_u32x4 SOURCE copy.comp DEFINES WORD=uvec4 WORD_SIZE=16)
vkprim_shader(fill_u32   SOURCE fill.comp DEFINES WORD=uint WORD_SIZE=4)
vkprim_shader(fill_u32x2 SOURCE fill.comp DEFINES WORD=uvec2 WORD_SIZE=8)
vkprim_shader(fill_u32x4 SOURCE fill.comp DEFINES WORD=uvec4 WORD_SIZE=16)

# Element-wise maps: one variant per (operation, value type).
vkprim_shader_family(map SOURCE map.comp
                     AXES map_op=affine,abs,axpby value=${VKPRIM_VALUE_TYPES}
                     DEFINES VALUE_@value@=1 OP_@map_op@=1)
