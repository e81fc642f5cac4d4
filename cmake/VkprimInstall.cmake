# Install rules and the find_package(vkprim) package, in components:
#   find_package(vkprim)                                  vkprim::vkprim (Vulkan headers only)
#   find_package(vkprim COMPONENTS sparse)                also vkprim::sparse: DeviceCsr, CSR
#                                                         construction, SpMV (nothing more)
#   find_package(vkprim COMPONENTS matrix_files)          also vkprim::matrix_files (and
#                                                         vkprim::sparse): Matrix Market and
#                                                         Binsparse files, spy (zlib, libpng and
#                                                         HDF5's libraries, linked by path)
#   find_package(vkprim COMPONENTS distributed)           also vkprim::distributed (and
#                                                         vkprim::matrix_files): distributed
#                                                         CSR and SpMV over MPI, where vkprim
#                                                         was built with MPI
# A C++-only project (project(x CXX)) can use each of them.
include(CMakePackageConfigHelpers)

set(VKPRIM_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/vkprim")
install(TARGETS vkprim EXPORT vkprimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT vkprimTargets NAMESPACE vkprim:: DESTINATION ${VKPRIM_CMAKE_DIR})
set(VKPRIM_HAS_SPARSE OFF)
if(TARGET vkprim_sparse)
  set(VKPRIM_HAS_SPARSE ON)
  install(TARGETS vkprim_sparse EXPORT vkprimSparseTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT vkprimSparseTargets NAMESPACE vkprim:: DESTINATION ${VKPRIM_CMAKE_DIR})
  install(TARGETS vkprim_matrix_files EXPORT vkprimMatrixFilesTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT vkprimMatrixFilesTargets NAMESPACE vkprim:: DESTINATION ${VKPRIM_CMAKE_DIR})
endif()
set(VKPRIM_HAS_DISTRIBUTED OFF)
if(TARGET vkprim_distributed)
  set(VKPRIM_HAS_DISTRIBUTED ON)
  install(TARGETS vkprim_distributed EXPORT vkprimDistributedTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT vkprimDistributedTargets NAMESPACE vkprim:: DESTINATION ${VKPRIM_CMAKE_DIR})
endif()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/vkprim" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/vkprimConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/vkprimConfig.cmake" INSTALL_DESTINATION ${VKPRIM_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/vkprimConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/vkprimConfig.cmake"
              "${PROJECT_BINARY_DIR}/vkprimConfigVersion.cmake"
        DESTINATION ${VKPRIM_CMAKE_DIR})
if(TARGET vkprim_cli)
  install(TARGETS vkprim_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET vkprim_mpi)
  install(TARGETS vkprim_mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
