# Command-line cases (label cpu): every bad input ends with one sentence
# naming the cause and a non-zero exit status, never a crash. Each case runs
# under sh, which appends "exit status: N" to the output, so that one
# regular expression asserts the sentence and the status together.
# Included by tests/CMakeLists.txt.
set(cli_data ${PROJECT_SOURCE_DIR}/data)
set(cli_corpus ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus)
set(cli_plugins ${CMAKE_CURRENT_BINARY_DIR}/bad_plugins)
set(cli_work ${CMAKE_CURRENT_BINARY_DIR}/cli)
file(MAKE_DIRECTORY ${cli_work})

# spmvlab_cli_test(<name> <regex> <spmvlab arguments...>)
function(spmvlab_cli_test NAME REGEX)
  add_test(NAME cli.${NAME}
           COMMAND sh -c "\"$@\"; echo \"exit status: $?\"" cli $<TARGET_FILE:spmvlab> ${ARGN}
           WORKING_DIRECTORY ${cli_work})
  set_tests_properties(cli.${NAME} PROPERTIES LABELS cpu PASS_REGULAR_EXPRESSION "${REGEX}"
    ENVIRONMENT "SPMVLAB_NO_CACHE=1;SPMVLAB_PLUGIN_PATH=${SPMVLAB_PLUGIN_OUTPUT_DIR}")
endfunction()

# Matrices.
spmvlab_cli_test(info.missing_file
  "spmvlab info: cannot open matrix file missing\\.mtx: No such file or directory\\.\nexit status: 2"
  info missing.mtx)
spmvlab_cli_test(info.above_diagonal
  "above\\.mtx line 3: entry \\(1, 2\\) lies above the diagonal of a symmetric file[^\n]*\\.\nexit status: 2"
  info ${cli_corpus}/mtx/above.mtx)
spmvlab_cli_test(info.array_unsupported
  "array\\.mtx line 1: dense 'array' files are not supported[^\n]*\nexit status: 2"
  info ${cli_corpus}/mtx/array.mtx)
spmvlab_cli_test(info.complex_unsupported
  "complex\\.mtx line 1: complex matrices are not supported[^\n]*\nexit status: 2"
  info ${cli_corpus}/mtx/complex.mtx)
spmvlab_cli_test(info.beyond_32bit
  "huge\\.mtx line 2: size 3000000000 x 2 exceeds the 32-bit index limit[^\n]*\nexit status: 2"
  info ${cli_corpus}/mtx/huge.mtx)
add_test(NAME cli.info.truncated_gzip
  COMMAND sh -c "head -c 20000 \"$1\" > truncated.mtx.gz && \"$0\" info truncated.mtx.gz; echo \"exit status: $?\""
          $<TARGET_FILE:spmvlab> ${cli_data}/bcsstk16.mtx.gz
  WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.truncated_gzip PROPERTIES LABELS cpu ENVIRONMENT SPMVLAB_NO_CACHE=1
  PASS_REGULAR_EXPRESSION "truncated\\.mtx\\.gz line [0-9]+: the gzip stream is truncated[^\n]*\nexit status: 2")
# The device ceilings and orderings (info --device, info --reorder).
add_test(NAME cli.info.device_without_gpu COMMAND sh -c "\"$@\"; echo \"exit status: $?\"" cli
         $<TARGET_FILE:spmvlab> info --device WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.device_without_gpu PROPERTIES LABELS cpu ENVIRONMENT "CUDA_VISIBLE_DEVICES="
  PASS_REGULAR_EXPRESSION "^spmvlab info: no GPU: device ceilings need a CUDA device\\.\nexit status: 77\n$")
add_test(NAME cli.info.device_ceilings COMMAND $<TARGET_FILE:spmvlab> info --device WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.device_ceilings PROPERTIES LABELS gpu
  PASS_REGULAR_EXPRESSION "dram +[0-9.]+ GB/s.*gather l2 +[0-9.]+ G loads/s.*gather dram +[0-9.]+ G loads/s.*replay +[0-9.]+ us")
# On a GPU every timed row carries its bound (the last three columns).
add_test(NAME cli.run.bound_columns
  COMMAND sh -c "\"$0\" run -p csr --reps 10 -o bound.csv \"$1\" > /dev/null && tail -n 1 bound.csv | awk -F, '{print \"kind=\" $(NF-1) \" frac=\" $NF}'"
          $<TARGET_FILE:spmvlab> ${cli_data}/bcsstk16.mtx.gz
  WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.run.bound_columns PROPERTIES LABELS gpu
  PASS_REGULAR_EXPRESSION "kind=(dram|l2|gather|launch) frac=[0-9]")
spmvlab_cli_test(info.reorder_unknown
  "spmvlab info: unknown ordering \"metis\" \\(choose none, rcm or degree\\)\\.\nexit status: 2"
  info --reorder rcm,metis ${cli_data}/1138_bus.mtx.gz)
spmvlab_cli_test(info.reorder_rectangular
  "spmvlab info: lp_e226: reverse Cuthill-McKee needs a square matrix, not 223 x 472\\.\n(matrix [^\n]*\n)?exit status: 2"
  info --reorder rcm ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(info.reorder_table
  "matrix +ordering +bandwidth +sectors_f64 +sectors_f32 +order_ms\n1138_bus +none [^\n]*\n1138_bus +rcm [^\n]*\n1138_bus +degree [^\n]*\nexit status: 0"
  info --reorder none,rcm,degree ${cli_data}/1138_bus.mtx.gz)
spmvlab_cli_test(run.missing_matrix "matrix file or folder missing\\.mtx does not exist\\.\nexit status: 2"
  run -p csr missing.mtx)
spmvlab_cli_test(run.malformed_matrix
  "above\\.mtx line 3: entry \\(1, 2\\) lies above the diagonal[^\n]*\nexit status: 2"
  run -p csr ${cli_corpus}/mtx/above.mtx)

# Plugins.
spmvlab_cli_test(run.unknown_plugin
  "spmvlab run: unknown plugin 'nosuchplugin': no libspmvlab_nosuchplugin\\.so on the search path[^\n]*\nexit status: 2"
  run -p nosuchplugin ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.abi_mismatch
  "libspmvlab_bad_abi_major\\.so was built for plugin ABI 2\\.1, but this spmvlab loads ABI 1\\.0 to 1\\.1\\.\nexit status: 2"
  run -p bad_abi_major --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.misnamed_plugin
  "declares the name 'bad_other' but its file is named for 'bad_misnamed'[^\n]*\nexit status: 2"
  run -p bad_misnamed --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(check.unknown_plugin "unknown plugin 'nosuchplugin'.*exit status: [12]\n" check nosuchplugin)
spmvlab_cli_test(list.reports_refusals
  "lacks the required member 'convert'.*exit status: 1\n" list --plugin-dir ${cli_plugins})

# Configuration.
spmvlab_cli_test(run.ini_syntax
  "syntax\\.ini:1: 'x' comes before any \\[section\\]\\.\nexit status: 2"
  run -c ${cli_corpus}/ini/syntax.ini -p probe --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.ini_unknown_key
  "unknown_key\\.ini:3: \\[p\\] plugin probe has no option 'nosuch'; its options are: count, ratio[^\n]*\nexit status: 2"
  run -c ${cli_corpus}/ini/unknown_key.ini -p p --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.ini_empty_sweep_item
  "empty_item\\.ini:3: \\[p\\] count = '1,,2' has an empty item in its value list\\.\nexit status: 2"
  run -c ${cli_corpus}/ini/empty_item.ini -p p --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.ini_cross_check
  "cross_check\\.ini:1: \\[p\\] probe option width = 16 exceeds count = 4\\.\nexit status: 2"
  run -c ${cli_corpus}/ini/cross_check.ini -p p --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.set_bad_value
  "command line: \\[csr\\] option csr\\.kernel = 'bogus' is invalid: expected one of auto\\|scalar\\|vector\\|adaptive\\.\nexit status: 2"
  run -p csr --set csr.kernel=bogus ${cli_data}/lp_e226.mtx.gz)

# The suites that run broken plugins under a sanitizer need real signals
# (not the sanitizer's report and exit), NULL from failed allocations, and
# a cap that refuses bad_oom's blocks early (ASan would otherwise map and,
# on free, poison the shadow of every gigabyte it hands out).
set_property(TEST core.test_registry core.test_isolation core.test_sandbox APPEND PROPERTY ENVIRONMENT
  "ASAN_OPTIONS=handle_segv=0:handle_abort=0:allocator_may_return_null=1:max_allocation_size_mb=2048")
set_property(TEST core.test_isolation core.test_resume APPEND PROPERTY ENVIRONMENT "SPMVLAB_NO_CACHE=1")
set_property(TEST core.test_isolation core.test_resume PROPERTY TIMEOUT 300)
