# Install rules and the find_package(vkprim) package (vkprim::vkprim, vkprim::sparse).
include(CMakePackageConfigHelpers)

set(VKPRIM_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/vkprim")
set(vkprim_install_targets vkprim)
if(TARGET vkprim_sparse)
  list(APPEND vkprim_install_targets vkprim_sparse)
endif()
install(TARGETS ${vkprim_install_targets} EXPORT vkprimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/vkprim" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT vkprimTargets NAMESPACE vkprim:: DESTINATION ${VKPRIM_CMAKE_DIR})
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
