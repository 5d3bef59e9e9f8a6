# Installation: host, core library, plugins (by spmvlab_add_plugin), public
# headers, plugin .ini and README files, a CMake package and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS spmvlab_headers EXPORT spmvlabTargets)
install(TARGETS spmvlab_core EXPORT spmvlabTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS spmvlab EXPORT spmvlabTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(SPMVLAB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/spmvlab)
install(EXPORT spmvlabTargets NAMESPACE spmvlab:: DESTINATION ${SPMVLAB_CMAKE_DIR})
set_target_properties(spmvlab_headers PROPERTIES EXPORT_NAME headers)
set_target_properties(spmvlab_core PROPERTIES EXPORT_NAME core)

set(SPMVLAB_INSTALL_DATA "${CMAKE_INSTALL_DATADIR}/spmvlab/data")
configure_package_config_file(cmake/spmvlabConfig.cmake.in ${PROJECT_BINARY_DIR}/spmvlabConfig.cmake
  INSTALL_DESTINATION ${SPMVLAB_CMAKE_DIR} PATH_VARS SPMVLAB_INSTALL_PLUGINDIR SPMVLAB_INSTALL_DATA)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/spmvlabConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/spmvlabConfig.cmake ${PROJECT_BINARY_DIR}/spmvlabConfigVersion.cmake
  cmake/SpmvlabPlugin.cmake DESTINATION ${SPMVLAB_CMAKE_DIR})

# The .pc file finds its prefix from its own folder, so a relocated install
# (cmake --install --prefix) works too.
file(RELATIVE_PATH SPMVLAB_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" SPMVLAB_PC_TO_PREFIX "${SPMVLAB_PC_TO_PREFIX}")
configure_file(cmake/spmvlab.pc.in ${PROJECT_BINARY_DIR}/spmvlab.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/spmvlab.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

foreach(plugin ${SPMVLAB_PLUGINS})
  foreach(file ${plugin}.ini README.md)
    if(EXISTS ${PROJECT_SOURCE_DIR}/plugins/${plugin}/${file})
      install(FILES plugins/${plugin}/${file} DESTINATION ${CMAKE_INSTALL_DATADIR}/spmvlab/plugins/${plugin})
    endif()
  endforeach()
endforeach()
install(DIRECTORY data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/spmvlab/data PATTERN "*.csrbin" EXCLUDE)
if(EXISTS ${PROJECT_SOURCE_DIR}/sets)
  install(DIRECTORY sets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/spmvlab/sets)
endif()
