# End-to-end checks of `vkprim convert`, `info` and `spy` (ctest: sparse_io.cli).
# -D VKPRIM=<vkprim binary> -D WORK=<scratch dir>
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# run(<expected exit code> <args...>): runs vkprim, fails the test on another exit code;
# stdout is left in `out`.
function(run expected)
  execute_process(COMMAND "${VKPRIM}" ${ARGN} WORKING_DIRECTORY "${WORK}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL expected)
    message(FATAL_ERROR "vkprim ${ARGN}: exit ${rc}, expected ${expected}\n${stdout}\n${stderr}")
  endif()
  set(out "${stdout}" PARENT_SCOPE)
  set(err "${stderr}" PARENT_SCOPE)
endfunction()

file(WRITE "${WORK}/a.mtx" "%%MatrixMarket matrix coordinate integer symmetric\n% test\n4 4 5\n1 1 7\n3 1 -2\n4 2 5\n4 4 9223372036854775807\n3 1 1\n")

# Matrix Market -> Binsparse (every format, both index types) -> Matrix Market is exact.
foreach(format coo csr csc)
  foreach(index i32 i64)
    run(0 convert a.mtx b.bsp.h5 --format=${format} --index=${index})
    run(0 convert b.bsp.h5 back.mtx --sum-duplicates)
    run(0 convert a.mtx sorted.mtx --sum-duplicates)
    file(READ "${WORK}/back.mtx" back)
    file(READ "${WORK}/sorted.mtx" sorted)
    if(NOT back STREQUAL sorted)
      message(FATAL_ERROR "round trip through ${format}/${index} changed the matrix:\n${back}\nvs\n${sorted}")
    endif()
  endforeach()
endforeach()

# Expansion, value conversion, gzip and stdout.
run(0 convert a.mtx e.mtx.gz --symmetry=expand --values=f32)
run(0 convert e.mtx.gz -)
if(NOT out MATCHES "^%%MatrixMarket matrix coordinate real general\n4 4 8\n")
  message(FATAL_ERROR "expanded f32 output unexpected:\n${out}")
endif()

# info: text and JSON.
run(0 info a.mtx --json)
string(JSON stored GET "${out}" stored_entries)
string(JSON entries GET "${out}" entries)
string(JSON empty GET "${out}" empty_rows)
string(JSON max GET "${out}" row_length max)
if(NOT stored EQUAL 5 OR NOT entries EQUAL 8 OR NOT empty EQUAL 0 OR NOT max EQUAL 3)
  message(FATAL_ERROR "info --json: stored ${stored} entries ${entries} empty ${empty} max ${max}\n${out}")
endif()
run(0 info a.mtx)
if(NOT out MATCHES "shape: +4 x 4")
  message(FATAL_ERROR "info text output unexpected:\n${out}")
endif()

# spy writes a PNG.
run(0 spy a.mtx a.png --size=16)
file(READ "${WORK}/a.png" png HEX LIMIT 8)
if(NOT png STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "spy output is not a PNG: ${png}")
endif()

# Exit codes: 1 for bad input (message names file and line), 2 for bad usage.
file(WRITE "${WORK}/bad.mtx" "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n")
run(1 convert bad.mtx out.mtx)
if(NOT err MATCHES "bad.mtx:3: expected a row index in 1..2")
  message(FATAL_ERROR "bad input message unexpected: ${err}")
endif()
run(1 info missing.mtx)
file(WRITE "${WORK}/both.mtx" "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n1 2 1\n")
run(1 convert both.mtx both.bsp.h5)
run(2 convert a.mtx out.txt)
run(2 convert a.mtx)
run(2 convert a.mtx b.mtx --symmetry=sideways)
run(2 info)
run(2 spy a.mtx a.png --size=0)
