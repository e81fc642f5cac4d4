# The SPIR-V variants of CSR construction from COO, and column blocks. Included by
# shaders/CMakeLists.txt; SOURCE paths are relative to this folder.

# The keys with the sort's upfront count: onesweep's (histogram) or reduce-then-scan's
# (csr_keys_varying), by key width (key_bits: k32, k64).
vkprim_shader_family(csr_keys SOURCE csr_keys.comp AXES key_bits=k32,k64
                     AXIS_DEFINES key_bits=k64:KEY64=1)
vkprim_shader_family(csr_keys_varying SOURCE csr_keys.comp AXES key_bits=k32,k64
                     DEFINES VARYING_ONLY=1 AXIS_DEFINES key_bits=k64:KEY64=1)
# The compaction, items per invocation compiled in (FIXED_ITEMS: kCompactItems in
# sparse/csr_build/csr_build.cpp static_asserts against it). offsets=wide: builds of more
# entries than one dispatch takes (64-bit output positions, chunks after chunks).
vkprim_shader_family(csr_compact SOURCE csr_compact.comp
                     AXES real=f32,f64 key_bits=k32,k64 offsets=narrow,wide
                     DEFINES VALUE_@real@=1 FIXED_ITEMS=8
                     AXIS_DEFINES key_bits=k64:KEY64=1 offsets=wide:CSR_WIDE=1)
vkprim_shader_family(csr_row_ptr SOURCE csr_row_ptr.comp AXES row_ptr=r32,r64
                     AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
vkprim_shader_family(csr_expand_rows SOURCE csr_expand_rows.comp AXES row_ptr=r32,r64
                     AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
# csr_split: column blocks of a CSR matrix (sparse::split_columns), 4- or 8-byte values.
vkprim_shader_family(csr_split SOURCE csr_split.comp AXES row_ptr=r32,r64 value_size=v4,v8
                     AXIS_DEFINES row_ptr=r64:ROWPTR_64=1 value_size=v4:VALUE_SIZE=4
                                  value_size=v8:VALUE_SIZE=8)
