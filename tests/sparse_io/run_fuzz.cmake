# Runs the Matrix Market fuzzer for a bounded time (ctest: sparse_io.fuzz_matrix_market).
# -D FUZZER=<binary> -D WORK=<dir> -D SEEDS=<shared/matrices/edge, may be absent> -D SECONDS=<n>
# Seeds are copied from the shared data when present (never committed), else generated.
set(corpus "${WORK}/corpus")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${corpus}")
if(IS_DIRECTORY "${SEEDS}")
  file(GLOB_RECURSE seeds "${SEEDS}/*.mtx")
  set(i 0)
  foreach(seed IN LISTS seeds)
    math(EXPR i "${i} + 1")
    file(READ "${seed}" content HEX)
    string(LENGTH "${content}" hex_length)
    if(hex_length LESS 16384)           # the fuzzer's -max_len is 8192 bytes
      configure_file("${seed}" "${corpus}/seed_${i}.mtx" COPYONLY)
    endif()
  endforeach()
  message(STATUS "fuzz seeds: ${i} files from ${SEEDS}")
else()
  message(STATUS "fuzz seeds: ${SEEDS} absent, using generated seeds")
  file(WRITE "${corpus}/coordinate.mtx" "%%MatrixMarket matrix coordinate real general\n% c\n3 4 3\n1 1 1.5\n2 4 -2e3\n3 2 inf\n")
  file(WRITE "${corpus}/integer_skew.mtx" "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 -7\n3 1 9223372036854775807\n")
  file(WRITE "${corpus}/pattern_sym.mtx" "%%MatrixMarket matrix coordinate pattern symmetric\r\n3 3 2\r\n2 1\r\n3 3\r\n")
  file(WRITE "${corpus}/array.mtx" "%%MatrixMarket matrix array real symmetric\r2 2\r1\r2\r3\r")
  file(WRITE "${corpus}/vector.mtx" "%%MatrixMarket vector coordinate integer general\n4 2\n1 5\n4 -1\n")
endif()
execute_process(
  COMMAND "${FUZZER}" "${corpus}" -max_total_time=${SECONDS} -rss_limit_mb=2048 -malloc_limit_mb=1024
          -max_len=8192 -timeout=10 -print_final_stats=1 "-artifact_prefix=${WORK}/"
  WORKING_DIRECTORY "${WORK}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzzer failed (exit ${rc}); reproducer in ${WORK}/")
endif()
