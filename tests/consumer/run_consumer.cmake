# Builds and runs a consumer project: cmake -DMODE=subdir|installed|sparse|matrix_files -DSRC=... -DBIN=... -P
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
file(REMOVE_RECURSE "${BIN}")
if(MODE STREQUAL "subdir" OR MODE STREQUAL "subset")
  run(${CMAKE_COMMAND} -S "${SRC}/${MODE}" -B "${BIN}/build" -G Ninja
      "-DVKPRIM_SOURCE_DIR=${VKPRIM_SOURCE_DIR}" -DVKPRIM_BUILD_SPARSE=OFF -DCMAKE_BUILD_TYPE=Release)
else()  # installed, sparse, matrix_files: the installed package
  run(${CMAKE_COMMAND} --install "${VKPRIM_BINARY_DIR}" --prefix "${BIN}/prefix")
  # The testing interfaces and the command line's test build stay out of the package.
  file(GLOB_RECURSE leaked "${BIN}/prefix/*testing.hpp" "${BIN}/prefix/*vkprim_test_cli*")
  if(leaked)
    message(FATAL_ERROR "the package installs test-only files: ${leaked}")
  endif()
  run(${CMAKE_COMMAND} -S "${SRC}/${MODE}" -B "${BIN}/build" -G Ninja
      "-DCMAKE_PREFIX_PATH=${BIN}/prefix" -DCMAKE_BUILD_TYPE=Release)
endif()
run(${CMAKE_COMMAND} --build "${BIN}/build")
run("${BIN}/build/consumer")
if(MODE STREQUAL "subset")  # only the chosen families' SPIR-V was compiled (and embedded)
  file(GLOB_RECURSE spirv "${BIN}/build/*.spv")
  file(GLOB_RECURSE other "${BIN}/build/*radix_*.spv" "${BIN}/build/*select_*.spv"
       "${BIN}/build/*histogram*.spv" "${BIN}/build/*gather*.spv" "${BIN}/build/*spmv*.spv")
  list(LENGTH spirv built)
  if(built EQUAL 0 OR other)
    message(FATAL_ERROR "VKPRIM_PRIMITIVES=scan built ${built} SPIR-V files, of other families: ${other}")
  endif()
endif()
