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

# Outputs that cannot be mixed or lost. Each script runs under sh in a
# folder of its own, with $1 the program and $2 the data folder; it ends
# with "exit status: N" of the command under test.
function(spmvlab_cli_script NAME REGEX SCRIPT)
  file(MAKE_DIRECTORY ${cli_work}/${NAME})
  add_test(NAME cli.${NAME} COMMAND sh -c "rm -rf ./*; ${SCRIPT}" cli $<TARGET_FILE:spmvlab> ${cli_data}
           WORKING_DIRECTORY ${cli_work}/${NAME})
  set_tests_properties(cli.${NAME} PROPERTIES LABELS cpu PASS_REGULAR_EXPRESSION "${REGEX}"
    ENVIRONMENT "SPMVLAB_NO_CACHE=1;SPMVLAB_PLUGIN_PATH=${SPMVLAB_PLUGIN_OUTPUT_DIR}")
endfunction()
set(cli_two_runs "\"$1\" run -p csr -o p0.csv \"$2/lp_e226.mtx.gz\" >/dev/null && \"$1\" run -p csr -o p1.csv \"$2/1138_bus.mtx.gz\" >/dev/null && cp p0.csv before.csv")
spmvlab_cli_script(merge.output_forgotten
  "p0\\.csv already holds 1 cells that none of the parts has \\(matrix lp_e226, instance csr, dtype f64 first\\); it looks like a part named where the output belongs[^\n]*\\.\nexit status: 2\np0\\.csv unchanged"
  "${cli_two_runs} && \"$1\" merge p0.csv p1.csv; echo \"exit status: $?\"; cmp -s p0.csv before.csv && echo p0.csv unchanged")
spmvlab_cli_script(merge.output_is_a_part_by_another_name
  "the output [^ ]*/p1\\.csv is also a part to merge \\(p1\\.csv\\)[^\n]*\nexit status: 2"
  "${cli_two_runs} && \"$1\" merge \"$PWD/p1.csv\" p0.csv p1.csv; echo \"exit status: $?\"")
spmvlab_cli_script(merge.new_output_named_as_a_part
  "the output new\\.csv is also a part to merge \\(\\./new\\.csv\\)[^\n]*\nexit status: 2"
  "${cli_two_runs} && \"$1\" merge new.csv p0.csv ./new.csv; echo \"exit status: $?\"")
spmvlab_cli_script(resume.another_commit
  "r\\.csv holds results of spmvlab [^ ]+ at commit aaaa, but this run is spmvlab [^ ]+ at commit bbbb; results of one build only\\.\nexit status: 2"
  "SPMVLAB_COMMIT=aaaa \"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && SPMVLAB_COMMIT=bbbb \"$1\" run -p csr --resume r.csv \"$2/lp_e226.mtx.gz\" \"$2/1138_bus.mtx.gz\"; echo \"exit status: $?\"")
spmvlab_cli_script(resume.another_device
  "r\\.csv holds results measured on Tesla X, but this run on cpu; results of one device only\\.\nexit status: 2"
  "\"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && sed -i '2s/,cpu,/,Tesla X,/' r.csv && \"$1\" run -p csr --resume r.csv \"$2/1138_bus.mtx.gz\"; echo \"exit status: $?\"")
spmvlab_cli_script(resume.another_dtype_set
  "r\\.csv holds f64 results, but this run measures the dtypes f32; one run's dtypes only\\.\nexit status: 2"
  "\"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && \"$1\" run -p csr --dtype f32 --resume r.csv \"$2/lp_e226.mtx.gz\"; echo \"exit status: $?\"")
spmvlab_cli_script(resume.other_options_under_one_label
  "r\\.csv holds instance csr with the options '[^']*kernel=auto[^']*', but this run has csr with '[^']*kernel=scalar[^']*'; one label must name one configuration[^\n]*\\.\nexit status: 2"
  "\"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && \"$1\" run -p csr --set csr.kernel=scalar --resume r.csv \"$2/lp_e226.mtx.gz\"; echo \"exit status: $?\"")
spmvlab_cli_script(run.partial_of_an_interrupted_run
  "r\\.csv\\.partial holds rows of an interrupted run; continue it with --resume r\\.csv, or remove r\\.csv\\.partial to start afresh\\.\nexit status: 2"
  "\"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && cp r.csv r.csv.partial && \"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\"; echo \"exit status: $?\"")
spmvlab_cli_script(report.unknown_baseline
  "baseline 'nope' is not among the instances of the results \\(csr, coo\\)\\.\nexit status: 2"
  "\"$1\" run -p csr,coo -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && \"$1\" report r.csv -o rep --baseline nope; echo \"exit status: $?\"")
