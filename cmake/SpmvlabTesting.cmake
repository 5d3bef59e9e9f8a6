# Test registration shared by the in-tree plugins.
#
# spmvlab_check_test(<plugin> <variant> [spmvlab check arguments...])
#   <plugin>.check.<variant>: `spmvlab check` on the CPU (spmv_host) over the
#     built-in edge cases and the bundled matrices in data/.
#   <plugin>.shared.<variant>: the same over ../shared/matrices; skipped
#     (exit 77) when that folder does not exist, as in a user's clone.
#   <plugin>.gpu.<variant>: the GPU path (label gpu); skipped without a GPU.
set(SPMVLAB_SHARED_MATRICES "${PROJECT_SOURCE_DIR}/../shared/matrices"
    CACHE PATH "Folder of extra real matrices used by the CPU tests when present")
set(SPMVLAB_SHARED_MAX_NNZ 2000000 CACHE STRING
    "Largest matrix (non-zeros) of the shared folder that the CPU tests use")

function(spmvlab_check_test PLUGIN VARIANT)
  if(NOT SPMVLAB_BUILD_TESTS)
    return()
  endif()
  set(check $<TARGET_FILE:spmvlab> check ${PLUGIN} --plugin-dir ${SPMVLAB_PLUGIN_OUTPUT_DIR})
  add_test(NAME ${PLUGIN}.check.${VARIANT}
           COMMAND ${check} --matrix-dir ${PROJECT_SOURCE_DIR}/data ${ARGN})
  set_tests_properties(${PLUGIN}.check.${VARIANT} PROPERTIES LABELS "cpu;check")
  add_test(NAME ${PLUGIN}.shared.${VARIANT}
           COMMAND ${check} --no-edge-cases --matrix-dir ${SPMVLAB_SHARED_MATRICES}
                   --max-nnz ${SPMVLAB_SHARED_MAX_NNZ} --skip-missing ${ARGN})
  set_tests_properties(${PLUGIN}.shared.${VARIANT} PROPERTIES LABELS "cpu;shared" SKIP_RETURN_CODE 77)
  add_test(NAME ${PLUGIN}.gpu.${VARIANT}
           COMMAND ${check} --gpu --matrix-dir ${PROJECT_SOURCE_DIR}/data ${ARGN})
  set_tests_properties(${PLUGIN}.gpu.${VARIANT} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
endfunction()

# spmvlab_plugin_unit_test(<plugin> <name> <source.c>): a C test program of a
# plugin, linked with the core and the test helpers (tests/testlib.h and the
# convert-and-verify scaffolding of tests/testlib_plugin.h).
function(spmvlab_plugin_unit_test PLUGIN NAME SOURCE)
  if(NOT SPMVLAB_BUILD_TESTS)
    return()
  endif()
  add_executable(test_${PLUGIN}_${NAME} ${SOURCE})
  target_link_libraries(test_${PLUGIN}_${NAME} PRIVATE spmvlab_testlib_plugin)
  add_dependencies(test_${PLUGIN}_${NAME} spmvlab_${PLUGIN}) # loaded at run time
  add_test(NAME ${PLUGIN}.unit.${NAME} COMMAND test_${PLUGIN}_${NAME})
  set_tests_properties(${PLUGIN}.unit.${NAME} PROPERTIES LABELS cpu
    ENVIRONMENT "SPMVLAB_PLUGIN_PATH=${SPMVLAB_PLUGIN_OUTPUT_DIR};SPMVLAB_DATA_DIR=${PROJECT_SOURCE_DIR}/data")
endfunction()

# spmvlab_gen_matrix(<plugin> <name> <fixture> <file var> <spmvlab gen arguments...>)
#   <plugin>.gen.<name>: `spmvlab gen <arguments>` into <name>.mtx of the
#   build folder (label cpu), a setup of <fixture>; <file var> is set to that
#   file for the tests that use it (spmvlab_check_tests_need).
function(spmvlab_gen_matrix PLUGIN NAME FIXTURE FILE_VAR)
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${NAME}.mtx)
  set(${FILE_VAR} ${file} PARENT_SCOPE)
  if(NOT SPMVLAB_BUILD_TESTS)
    return()
  endif()
  add_test(NAME ${PLUGIN}.gen.${NAME} COMMAND $<TARGET_FILE:spmvlab> gen ${ARGN} -o ${file})
  set_tests_properties(${PLUGIN}.gen.${NAME} PROPERTIES LABELS cpu FIXTURES_SETUP ${FIXTURE})
endfunction()

# spmvlab_check_tests_need(<fixture> <plugin> <variant>...): the check,
# shared and gpu tests of those variants (spmvlab_check_test) run after the
# setup of <fixture>, which makes their matrices.
function(spmvlab_check_tests_need FIXTURE PLUGIN)
  if(NOT SPMVLAB_BUILD_TESTS)
    return()
  endif()
  foreach(v ${ARGN})
    set_tests_properties(${PLUGIN}.check.${v} ${PLUGIN}.shared.${v} ${PLUGIN}.gpu.${v}
                         PROPERTIES FIXTURES_REQUIRED ${FIXTURE})
  endforeach()
endfunction()
