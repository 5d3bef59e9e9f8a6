# spmvlab_add_plugin(NAME SOURCES file.c file.cu ... [LIBRARIES lib ...])
#
# Builds libspmvlab_<NAME>.so the way the registry expects it: hidden
# visibility (only spmvlab_plugin_entry is exported), the CUDA architectures
# spmvlab was built for (override with SPMVLAB_CUDA_ARCHITECTURES), the
# plugin header, and installation into the plugin folder. Used in-tree and,
# through find_package(spmvlab), out of tree.
function(spmvlab_add_plugin NAME)
  cmake_parse_arguments(P "" "" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT NAME MATCHES "^[a-z0-9_]+$")
    message(FATAL_ERROR "spmvlab plugin name '${NAME}' must match [a-z0-9_]+")
  endif()
  set(target spmvlab_${NAME})
  add_library(${target} MODULE ${P_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME "spmvlab_${NAME}"
    C_STANDARD 11
    C_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON
    CUDA_RUNTIME_LIBRARY Shared)
  if(SPMVLAB_CUDA_ARCHITECTURES)
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${SPMVLAB_CUDA_ARCHITECTURES}")
  endif()
  if(SPMVLAB_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${SPMVLAB_PLUGIN_OUTPUT_DIR}")
  endif()
  target_link_libraries(${target} PRIVATE spmvlab::headers CUDA::cudart ${P_LIBRARIES})
  if(SPMVLAB_INSTALL_PLUGINDIR)
    install(TARGETS ${target} LIBRARY DESTINATION "${SPMVLAB_INSTALL_PLUGINDIR}")
  endif()
endfunction()
