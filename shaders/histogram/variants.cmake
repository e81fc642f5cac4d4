# The SPIR-V variants of histogram. Included by shaders/CMakeLists.txt; SOURCE
# paths are relative to this folder.

# Histogram: even bins over u32 or f32 samples, privatized in shared memory or global atomics.
vkprim_shader_family(histogram_even SOURCE histogram_even.comp
                     AXES sample=u32,f32 bins=shared,global
                     DEFINES SAMPLE_@sample@=1 AXIS_DEFINES bins=shared:HIST_SHARED=1)
