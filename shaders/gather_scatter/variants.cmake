# The SPIR-V variants of gather and scatter. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Gather / scatter move 32- or 64-bit elements by 32-bit index.
foreach(w IN ITEMS 1 2)
  vkprim_shader(gather_w${w}  SOURCE gather.comp  DEFINES WORDS=${w})
  vkprim_shader(scatter_w${w} SOURCE scatter.comp DEFINES WORDS=${w})
endforeach()
