# The primitive families a build holds (VKPRIM_PRIMITIVES), with what each needs, in one place:
# shaders/CMakeLists.txt compiles the chosen families' shader variants and engine/ their plans.
# A family left out costs nothing: its SPIR-V is not embedded, and a call to it fails to link.
set(VKPRIM_ENGINE_FAMILIES elementwise gather_scatter scan sort compaction histogram summed_area)
# family -> the families it records through (elementwise: every build; the core's copy and fill)
set(VKPRIM_NEEDS_gather_scatter elementwise)
set(VKPRIM_NEEDS_scan elementwise)
set(VKPRIM_NEEDS_sort elementwise)
set(VKPRIM_NEEDS_compaction scan elementwise)
set(VKPRIM_NEEDS_histogram elementwise)
set(VKPRIM_NEEDS_summed_area scan elementwise)
# The sparse library's GPU side (csr_build, spmv, solvers) records sorts, scans and compactions.
set(VKPRIM_SPARSE_NEEDS sort scan compaction)

if(VKPRIM_PRIMITIVES STREQUAL "all")
  set(VKPRIM_FAMILIES ${VKPRIM_ENGINE_FAMILIES})
else()
  if(VKPRIM_BUILD_TESTS OR VKPRIM_BUILD_TOOLS OR VKPRIM_BUILD_EXAMPLES)
    message(FATAL_ERROR "VKPRIM_PRIMITIVES=${VKPRIM_PRIMITIVES}: the tests, the command line and the "
                        "examples use every family; build them with VKPRIM_PRIMITIVES=all, or turn "
                        "VKPRIM_BUILD_TESTS, VKPRIM_BUILD_TOOLS and VKPRIM_BUILD_EXAMPLES off")
  endif()
  set(wanted ${VKPRIM_PRIMITIVES} elementwise)
  if(VKPRIM_BUILD_SPARSE)
    list(APPEND wanted ${VKPRIM_SPARSE_NEEDS})
  endif()
  set(VKPRIM_FAMILIES "")
  while(wanted)
    list(POP_FRONT wanted family)
    if(NOT family IN_LIST VKPRIM_ENGINE_FAMILIES)
      message(FATAL_ERROR "VKPRIM_PRIMITIVES: '${family}' is not one of ${VKPRIM_ENGINE_FAMILIES}")
    endif()
    if(NOT family IN_LIST VKPRIM_FAMILIES)
      list(APPEND VKPRIM_FAMILIES ${family})
      list(APPEND wanted ${VKPRIM_NEEDS_${family}})
    endif()
  endwhile()
  message(STATUS "vkprim: primitive families ${VKPRIM_FAMILIES}")
endif()
