# End-to-end checks of the vkprim commands that open a Vulkan device (lavapipe where there is
# no GPU), kept small: output that cannot be written is an error (exit 1 with a message),
# --json files are replaced only once complete, spmv's check of non-finite values, and solve
# against Eigen, its breakdowns and its Jacobi refusal, bench and spmv --back-to-back (ctest:
# sparse_io.cli_device).
# -D VKPRIM=<vkprim binary> -D WORK=<scratch dir>
include(${CMAKE_CURRENT_LIST_DIR}/cli_run.cmake)

set(bench bench copy fill -n 1024 --runs 1 --warmup 0)  # JSON beyond 512 bytes
set(spmv spmv --generate poisson2d:4 --runs 1)
set(solve solve --generate poisson2d:4)

# Standard output or a --json file that cannot be written.
set(run_with sh -c "exec \"$0\" \"$@\" > /dev/full")
run(1 devices)
expect_err("vkprim: writing to standard output failed: No space left on device")
run(1 devices --json)
expect_err("writing to standard output failed")
run(1 ${bench} --json -)
expect_err("writing to standard output failed")
run(1 ${spmv} --json -)
expect_err("writing to standard output failed")
set(run_with)
run(1 ${bench} --json /dev/full)
expect_err("vkprim: /dev/full: write failed \\(No space left on device\\)")
run(1 ${spmv} --json /dev/full)
expect_err("vkprim: /dev/full: write failed \\(No space left on device\\)")

# --json FILE: replaced once complete; on a full file system (a 512-byte file-size limit) the
# previous file stays byte-identical and no temporary is left.
# --json naming an input matrix is refused (exit 2), the matrix untouched.
file(WRITE "${WORK}/in.mtx" "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n")
file(COPY_FILE "${WORK}/in.mtx" "${WORK}/in.ref")
run(2 spmv in.mtx --runs 1 --json in.mtx)
expect_err("are the same file")
same_bytes(in.mtx in.ref "spmv in.mtx --json in.mtx")

foreach(command bench spmv solve)
  file(WRITE "${WORK}/${command}.json" "previous\n")
  file(COPY_FILE "${WORK}/${command}.json" "${WORK}/ref")
  set(run_with sh -c "ulimit -f 1 && exec \"$0\" \"$@\"")
  run(1 ${${command}} --json ${command}.json)
  set(run_with)
  expect_err("vkprim: ${command}.json: write failed \\(File too large\\)")
  same_bytes(${command}.json ref "${command} --json on a full file system")
  no_temporaries("${command} --json on a full file system")
  run(0 ${${command}} --json ${command}.json)
  file(READ "${WORK}/${command}.json" json)
  if(NOT json MATCHES "\"operation\": ?\"(copy|spmv|solve)\"")
    message(FATAL_ERROR "${command} --json wrote:\n${json}")
  endif()
  no_temporaries("${command} --json")
endforeach()

# SpMV on entries that are inf and nan: rows whose reference is not finite match by class (the
# same infinity, nan for nan), in every kernel; 1e300 is inf in f32, finite in f64.
file(WRITE "${WORK}/nonfinite.mtx" "%%MatrixMarket matrix coordinate real general
6 4 10
1 1 1.5
2 2 inf
3 3 nan
3 1 2
4 4 -inf
4 1 1
5 1 1e300
5 2 -inf
5 4 inf
6 2 0.25
")
run(0 spmv nonfinite.mtx --runs 1 --values f32 --kernel auto,merge,rows,stream,split,nnz)
run(0 spmv nonfinite.mtx --runs 1 --values f64)

# solve: Jacobi CG on an SPD matrix and BiCGSTAB (f32) on a nonsymmetric one match Eigen's
# solvers (exit 0); CG on [[0, 1], [1, 0]] with b = (1, 0) breaks down (p.Ap = 0) and Jacobi
# refuses its missing diagonal, naming the row (exit 1).
run(0 solve --generate poisson3d:5 --precond jacobi --rhs random --json solve.json)
file(READ "${WORK}/solve.json" json)
if(NOT json MATCHES "\"stop_reason\": ?\"converged\"" OR NOT json MATCHES "\"verified\": ?true")
  message(FATAL_ERROR "solve --json wrote:\n${json}")
endif()
run(0 solve --generate convdiff:8 --method bicgstab --values f32)
# --no-check (benchmarks): no Eigen solve; an iteration limit still exits 0 with the true
# residual recomputed, a breakdown exits 1.
run(0 solve --generate poisson2d:16 --no-check --max-iterations 3 --json nocheck.json)
file(READ "${WORK}/nocheck.json" json)
if(NOT json MATCHES "\"stop_reason\": ?\"iteration_limit\"" OR NOT json MATCHES "\"checked\": ?false"
   OR NOT json MATCHES "\"iteration_bytes\": ?[1-9]" OR json MATCHES "eigen_iterations")
  message(FATAL_ERROR "solve --no-check --json wrote:\n${json}")
endif()
file(WRITE "${WORK}/swap.mtx" "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 1 1\n")
file(WRITE "${WORK}/b.mtx" "%%MatrixMarket matrix array real general\n2 1\n1\n0\n")
run(1 solve swap.mtx --rhs b.mtx)
expect_err("did not converge: breakdown \\(p.Ap\\)")
run(1 solve swap.mtx --rhs b.mtx --no-check)
expect_err("the GPU solve stopped: breakdown \\(p.Ap\\)")
run(1 solve swap.mtx --precond jacobi)
expect_err("row 0 has no diagonal entry")

# Complex matrices: hermitian storage expanded by conjugation, complex64 and complex128, every
# kernel with a complex build (stream and split are refused, reported, and the rest still runs).
file(WRITE "${WORK}/herm.mtx" "%%MatrixMarket matrix coordinate complex hermitian
4 4 5
1 1 2 0
3 1 1.5 -0.5
4 2 -1 2
4 4 0.25 0
2 2 1e300 0
")
run(0 spmv herm.mtx --runs 1 --values f32 --kernel auto,rows,merge,nnz)
if(NOT out MATCHES "herm.mtx +4 +4 +7 c64")
  message(FATAL_ERROR "spmv herm.mtx: no complex64 row of 7 entries:\n${out}")
endif()
run(0 spmv herm.mtx --runs 1 --values f64)
if(NOT out MATCHES "c128")
  message(FATAL_ERROR "spmv herm.mtx --values f64: no complex128 row:\n${out}")
endif()
run(1 spmv herm.mtx --runs 1 --kernel rows,stream)
expect_err("vkprim: herm.mtx: Spmv: the stream kernel takes real values only")
if(NOT out MATCHES "herm.mtx .* rows/L")
  message(FATAL_ERROR "spmv herm.mtx --kernel rows,stream: the row kernel's result is missing:\n${out}")
endif()

# A batch goes on past a file it cannot read: the error names the file and the line, the other
# matrices run, and the exit status is 1.
file(WRITE "${WORK}/short.mtx" "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 3\n")
run(1 spmv in.mtx short.mtx herm.mtx --runs 1)
expect_err("vkprim: short.mtx:3: expected the imaginary part of a complex value, found end of line")
expect_err("vkprim: failed: short.mtx")
if(NOT out MATCHES "in.mtx .*herm.mtx")
  message(FATAL_ERROR "spmv in.mtx short.mtx herm.mtx: the readable matrices did not run:\n${out}")
endif()

# The solvers are real: a complex matrix is refused by name.
run(1 solve herm.mtx)
expect_err("herm.mtx: a complex matrix; the solvers take real ones")

# bench --back-to-back K: every record says K and is verified.
run(0 bench copy scan -n 1000 --runs 2 --warmup 0 --back-to-back 3 --json b2b.jsonl)
file(STRINGS "${WORK}/b2b.jsonl" records)
list(LENGTH records count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "bench --back-to-back 3 wrote ${count} records:\n${records}")
endif()
foreach(record IN LISTS records)
  if(NOT record MATCHES "\"back_to_back\":3" OR NOT record MATCHES "\"verified\":true")
    message(FATAL_ERROR "bench --back-to-back 3 wrote:\n${record}")
  endif()
endforeach()
run(2 bench copy -n 1000 --back-to-back 0)
# spmv --back-to-back K: the record says K, and y (checked against Eigen after the K products)
# is still right.
run(0 spmv --generate powerlaw:2000 --runs 2 --back-to-back 3 --json spmv_b2b.json)
file(READ "${WORK}/spmv_b2b.json" json)
if(NOT json MATCHES "\"back_to_back\": ?3" OR NOT json MATCHES "\"verified\": ?true")
  message(FATAL_ERROR "spmv --back-to-back 3 wrote:\n${json}")
endif()
run(2 spmv --generate poisson2d:4 --back-to-back 0)
