# The SPIR-V variants of histogram. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Histogram: even bins over u32 or f32 samples, privatized in shared memory or global atomics.
foreach(s IN ITEMS u32 f32)
  vkprim_shader(histogram_even_${s}_shared SOURCE histogram_even.comp DEFINES SAMPLE_${s}=1 HIST_SHARED=1)
  vkprim_shader(histogram_even_${s}_global SOURCE histogram_even.comp DEFINES SAMPLE_${s}=1)
endforeach()
