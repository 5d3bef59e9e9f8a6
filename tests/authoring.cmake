# Tests of plugin authoring (issue: writing a new format plugin):
# - broken_plugins/: plugins broken on purpose and the failures that
#   `spmvlab check` must report for them;
# - authoring.out_of_tree: install spmvlab into a temporary prefix, write a
#   plugin with `spmvlab new-plugin`, build it and examples/band against the
#   installed package, and run the installed `spmvlab check` on both (CPU).
add_subdirectory(broken_plugins)

add_test(NAME authoring.out_of_tree COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_out_of_tree.sh)
set_tests_properties(authoring.out_of_tree PROPERTIES LABELS cpu TIMEOUT 1200
  ENVIRONMENT "SPMVLAB_BUILD_DIR=${PROJECT_BINARY_DIR};SPMVLAB_SOURCE_DIR=${PROJECT_SOURCE_DIR};CMAKE=${CMAKE_COMMAND};CTEST=${CMAKE_CTEST_COMMAND}")
