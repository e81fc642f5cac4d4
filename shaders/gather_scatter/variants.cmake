# The SPIR-V variants of gather and scatter. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Gather / scatter move 32- or 64-bit elements (w1, w2: words) by 32-bit index.
foreach(pass IN ITEMS gather scatter)
  vkprim_shader_family(${pass} SOURCE ${pass}.comp AXES words=w1,w2
                       AXIS_DEFINES words=w1:WORDS=1 words=w2:WORDS=2)
endforeach()
