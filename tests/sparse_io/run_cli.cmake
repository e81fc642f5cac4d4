# End-to-end checks of `vkprim convert`, `info` and `spy`, of the file-output guarantees and of
# argument checking (ctest: sparse_io.cli; CPU only: every command here fails or finishes
# before a Vulkan device is opened).
# -D VKPRIM=<vkprim binary> -D WORK=<scratch dir>
include(${CMAKE_CURRENT_LIST_DIR}/cli_run.cmake)

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

# ---- Output is replaced only by a complete file -------------------------------------------------
# A matrix whose outputs exceed 512 bytes in every format (2000 distinct values).
set(text "%%MatrixMarket matrix coordinate real general\n2000 2000 2000\n")
foreach(i RANGE 1 2000)
  math(EXPR j "(${i} * 7) % 2000 + 1")
  string(APPEND text "${i} ${j} 0.${i}7\n")
endforeach()
file(WRITE "${WORK}/m.mtx" "${text}")

# A full file system: a file-size limit of one 512-byte block (RLIMIT_FSIZE; vkprim ignores
# SIGXFSZ, so the write fails with EFBIG). The previous output stays byte-identical, no
# temporary is left, and the exit code is 1 with the reason.
set(limited sh -c "ulimit -f 1 && exec \"$0\" \"$@\"")
foreach(target prev.mtx prev.mtx.gz prev.bsp.h5)
  run(0 convert a.mtx ${target})
  file(COPY_FILE "${WORK}/${target}" "${WORK}/ref")
  set(run_with ${limited})
  run(1 convert m.mtx ${target})
  set(run_with)
  expect_err("vkprim: ${target}: write failed \\(File too large\\)")
  same_bytes(${target} ref "convert to ${target} on a full file system")
  no_temporaries("convert to ${target} on a full file system")
endforeach()
run(0 spy a.mtx prev.png --size=16)
file(COPY_FILE "${WORK}/prev.png" "${WORK}/ref")
set(run_with ${limited})
run(1 spy m.mtx prev.png)
set(run_with)
expect_err("vkprim: prev.png: writing the PNG failed \\(File too large\\)")
same_bytes(prev.png ref "spy on a full file system")
no_temporaries("spy on a full file system")
# The same conversions without the limit replace the output.
run(0 convert m.mtx prev.mtx)
same_bytes(prev.mtx m.mtx "convert m.mtx prev.mtx")

# A device that fails every write (/dev/full, named through a link with a matrix file's name)
# is written in place and the failure reported.
file(CREATE_LINK /dev/full "${WORK}/full.mtx" SYMBOLIC)
file(CREATE_LINK /dev/full "${WORK}/full.png" SYMBOLIC)
run(1 convert a.mtx full.mtx)
expect_err("vkprim: full.mtx: write failed \\(No space left on device\\)")
run(1 spy a.mtx full.png)
expect_err("vkprim: full.png: write failed \\(No space left on device\\)")

# Standard output that cannot be written: exit 1 with a message, whatever wrote to it.
set(run_with sh -c "exec \"$0\" \"$@\" > /dev/full")
run(1 info a.mtx)
expect_err("vkprim: writing to standard output failed: No space left on device")
run(1 info a.mtx --json)
expect_err("writing to standard output failed")
run(1 convert a.mtx -)
expect_err("writing to standard output failed")
run(1 convert --help)
expect_err("writing to standard output failed")
set(run_with)

# Permissions: a replaced file keeps its mode; a new one gets 0666 less the umask.
file(CHMOD "${WORK}/prev.mtx" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)
run(0 convert a.mtx prev.mtx)
execute_process(COMMAND stat -c %a "${WORK}/prev.mtx" OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT mode STREQUAL "640")
  message(FATAL_ERROR "a replaced file's mode changed: ${mode}, expected 640")
endif()
set(run_with sh -c "umask 027 && exec \"$0\" \"$@\"")
run(0 convert a.mtx new.mtx)
set(run_with)
execute_process(COMMAND stat -c %a "${WORK}/new.mtx" OUTPUT_VARIABLE mode OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT mode STREQUAL "640")
  message(FATAL_ERROR "a new file's mode under umask 027: ${mode}, expected 640")
endif()

# An output that is a link to another file: the file it names is replaced, the link stays.
run(0 convert a.mtx target.mtx)
file(CREATE_LINK target.mtx "${WORK}/link.mtx" SYMBOLIC)
run(0 convert m.mtx link.mtx)
same_bytes(target.mtx m.mtx "convert through a link")
if(NOT IS_SYMLINK "${WORK}/link.mtx")
  message(FATAL_ERROR "converting onto a link replaced the link itself")
endif()

# The output naming the input (same path, a symbolic link, a hard link) is refused as bad usage
# and the input is left byte-identical.
file(COPY_FILE "${WORK}/a.mtx" "${WORK}/a.ref")
file(CREATE_LINK a.mtx "${WORK}/a-link.mtx" SYMBOLIC)
file(CREATE_LINK "${WORK}/a.mtx" "${WORK}/a-hard.mtx")
foreach(target a.mtx ./a.mtx a-link.mtx a-hard.mtx)
  run(2 convert a.mtx ${target} --sum-duplicates)
  expect_err("are the same file")
  same_bytes(a.mtx a.ref "convert a.mtx ${target}")
endforeach()
run(2 convert a-link.mtx a.mtx)
run(2 spy a.mtx a-link.mtx)
same_bytes(a.mtx a.ref "spy a.mtx a-link.mtx")
no_temporaries("the conversions above")

# ---- Numbers on the command line: exit 2 with a message naming the value ------------------------
foreach(n abc 2^ -1 2^63 2^40000 0 3B 1.5G 99999999999999999999 17179869184GiB)
  run(2 bench copy -n ${n} --runs 1)
  expect_err_text("'${n}': ")
endforeach()
# 2^40 u32 (4 TiB) exceeds any test machine's memory: refused before anything is allocated.
run(2 bench copy -n 2^40 --runs 1)
expect_err("do not fit this machine's .* of memory")
foreach(option --runs=0 --runs=-1 --runs=0x10 --runs=abc --warmup=4294967296 --range-groups=-1)
  run(2 bench copy -n 1024 ${option})
endforeach()
foreach(option --size=-1 --size=4294967297 --size=+5 --size=)
  run(2 spy a.mtx x.png ${option})
endforeach()
foreach(option --runs=-1 --items=17 --row-lanes=1000 --column-blocks=-1
               --generate=band:10:-1 --generate=powerlaw:99999999999999999999
               --generate=band:4294967295:4294967295 "--generate=poisson2d: 5")
  run(2 spmv ${option})
  if(err MATCHES "bad_alloc|stoul|stoll")
    message(FATAL_ERROR "spmv ${option}: bare library message: ${err}")
  endif()
endforeach()
foreach(option --method=gmres --precond=ilu --values=f16 --tol=-1 --tol=abc --max-iterations=-1
               --generate=poisson3d:0 --generate=convdiff:x)
  run(2 solve --generate=poisson2d:4 ${option})
endforeach()
run(2 solve)
expect_err("give one matrix FILE or --generate")
set(run_with ${CMAKE_COMMAND} -E env VKPRIM_DEVICE=99999999999999999999)
run(2 bench copy -n 1024 --runs 1)
expect_err("VKPRIM_DEVICE=99999999999999999999: not a device index")
run(2 spmv)
expect_err("VKPRIM_DEVICE=99999999999999999999: not a device index")
set(run_with)
