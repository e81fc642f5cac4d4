# The SPIR-V variants of the Krylov solvers (sparse/solvers/). Included by
# shaders/CMakeLists.txt; SOURCE paths are relative to this folder. No subgroup operations:
# every reduction is a shared-memory tree (common/workgroup_sum.glsl), one build per value type.

# solver_vector: the element-wise updates fused with their dot products' partial sums.
vkprim_shader_family(solver_vector SOURCE solver_vector.comp AXES real=f32,f64
                     DEFINES VALUE_@real@=1)
# solver_scalar: alpha, beta, omega and the stop test from the partial sums (one workgroup).
vkprim_shader_family(solver_scalar SOURCE solver_scalar.comp AXES real=f32,f64
                     DEFINES VALUE_@real@=1)
# solver_diagonal: the Jacobi preconditioner's inverse diagonal, by row-pointer width.
vkprim_shader_family(solver_diagonal SOURCE solver_diagonal.comp AXES real=f32,f64 row_ptr=r32,r64
                     DEFINES VALUE_@real@=1 AXIS_DEFINES row_ptr=r64:ROWPTR_64=1)
