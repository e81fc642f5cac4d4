# The SPIR-V variants of cSR construction from COO, and column blocks. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

foreach(kw IN ITEMS 32 64)
  set(key_def "")
  if(kw STREQUAL "64")
    set(key_def KEY64=1)
  endif()
  # The keys with the sort's upfront count: onesweep's (histogram) or reduce-then-scan's.
  vkprim_shader(csr_keys_k${kw} SOURCE csr_keys.comp DEFINES ${key_def})
  vkprim_shader(csr_keys_varying_k${kw} SOURCE csr_keys.comp DEFINES ${key_def} VARYING_ONLY=1)
  foreach(t IN ITEMS f32 f64)
    # FIXED_ITEMS: kCompactItems in sparse/gpu/csr_build.cpp. *_wide: builds of more entries
    # than one dispatch takes (64-bit output positions, chunks after chunks).
    vkprim_shader(csr_compact_${t}_k${kw} SOURCE csr_compact.comp
                  DEFINES VALUE_${t}=1 FIXED_ITEMS=8 ${key_def})
    vkprim_shader(csr_compact_${t}_k${kw}_wide SOURCE csr_compact.comp
                  DEFINES VALUE_${t}=1 FIXED_ITEMS=8 ${key_def} CSR_WIDE=1)
  endforeach()
endforeach()
vkprim_shader(csr_row_ptr_r32 SOURCE csr_row_ptr.comp)
vkprim_shader(csr_row_ptr_r64 SOURCE csr_row_ptr.comp DEFINES ROWPTR_64=1)
vkprim_shader(csr_expand_rows_r32 SOURCE csr_expand_rows.comp)
vkprim_shader(csr_expand_rows_r64 SOURCE csr_expand_rows.comp DEFINES ROWPTR_64=1)
# csr_split: column blocks of a CSR matrix (sparse::split_columns), 4- or 8-byte values.
foreach(v IN ITEMS 4 8)
  vkprim_shader(csr_split_r32_v${v} SOURCE csr_split.comp DEFINES VALUE_SIZE=${v})
  vkprim_shader(csr_split_r64_v${v} SOURCE csr_split.comp DEFINES VALUE_SIZE=${v} ROWPTR_64=1)
endforeach()
