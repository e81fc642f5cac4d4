# Helpers of the command-line scripts (run_cli.cmake, run_cli_device.cmake); expects VKPRIM
# (the vkprim binary) and WORK (a scratch directory, emptied here).
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# run(<expected exit code> <args...>): runs vkprim in WORK, under the command prefix in the list
# `run_with` when set (e.g. `sh -c "ulimit -f 1; exec \"$0\" \"$@\""`, or `cmake -E env X=Y`),
# and fails the test on another exit code; stdout and stderr are left in `out` and `err`.
function(run expected)
  execute_process(COMMAND ${run_with} "${VKPRIM}" ${ARGN} WORKING_DIRECTORY "${WORK}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  if(NOT rc EQUAL expected)
    message(FATAL_ERROR "vkprim ${ARGN} (${run_with}): exit ${rc}, expected ${expected}\n${stdout}\n${stderr}")
  endif()
  set(out "${stdout}" PARENT_SCOPE)
  set(err "${stderr}" PARENT_SCOPE)
endfunction()

# expect_err(<regex>): the last run's stderr matches.
function(expect_err regex)
  if(NOT err MATCHES "${regex}")
    message(FATAL_ERROR "stderr does not match '${regex}':\n${err}")
  endif()
endfunction()

# expect_err_text(<text>): the last run's stderr contains <text> literally.
function(expect_err_text text)
  string(FIND "${err}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "stderr does not contain \"${text}\":\n${err}")
  endif()
endfunction()

# same_bytes(<file> <reference> <what>): the two files (in WORK) are byte-identical.
function(same_bytes file reference what)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${WORK}/${file}" "${WORK}/${reference}"
                  RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "${what}: ${file} is not byte-identical to ${reference}")
  endif()
endfunction()

# no_temporaries(<what>): no `.<name>.XXXXXX` file of an unfinished output is left in WORK.
function(no_temporaries what)
  file(GLOB left LIST_DIRECTORIES false "${WORK}/.*")
  if(left)
    message(FATAL_ERROR "${what}: temporaries left behind: ${left}")
  endif()
endfunction()
