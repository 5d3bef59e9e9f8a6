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
  "spmvlab info: matrix file or folder missing\\.mtx does not exist\\.\nexit status: 2"
  info missing.mtx)
spmvlab_cli_test(info.above_diagonal
  "above\\.mtx line 3: entry \\(1, 2\\) lies above the diagonal of a symmetric file[^\n]*\\.\nexit status: 2"
  info ${cli_corpus}/mtx/above.mtx)
# A well-formed file of a kind spmvlab does not handle is skipped with its
# reason and counted, as run counts it: not an error (exit 0).
spmvlab_cli_test(info.array_skipped
  "skipping [^\n]*array\\.mtx: [^\n]*array\\.mtx line 1: dense 'array' files are not supported[^\n]*\n(.*\n)?inputs not run: 1 skipped[^\n]*\nexit status: 0"
  info ${cli_corpus}/mtx/array.mtx)
spmvlab_cli_test(info.complex_skipped
  "skipping [^\n]*complex\\.mtx: [^\n]*complex\\.mtx line 1: complex matrices are not supported[^\n]*\n(.*\n)?inputs not run: 1 skipped[^\n]*\nexit status: 0"
  info ${cli_corpus}/mtx/complex.mtx)
spmvlab_cli_test(info.skipped_beside_a_matrix
  "\n1138_bus +1138 [^\n]*\n(.*\n)?inputs not run: 1 skipped[^\n]*\nexit status: 0"
  info ${cli_data}/1138_bus.mtx.gz ${cli_corpus}/mtx/complex.mtx)
spmvlab_cli_test(info.beyond_32bit
  "huge\\.mtx line 2: size 3000000000 x 2 exceeds the 32-bit index limit[^\n]*\nexit status: 2"
  info ${cli_corpus}/mtx/huge.mtx)
add_test(NAME cli.info.truncated_gzip
  COMMAND sh -c "head -c 20000 \"$1\" > truncated.mtx.gz && \"$0\" info truncated.mtx.gz; echo \"exit status: $?\""
          $<TARGET_FILE:spmvlab> ${cli_data}/bcsstk16.mtx.gz
  WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.truncated_gzip PROPERTIES LABELS cpu ENVIRONMENT SPMVLAB_NO_CACHE=1
  PASS_REGULAR_EXPRESSION "truncated\\.mtx\\.gz line [0-9]+: the gzip stream is truncated[^\n]*\nexit status: 2")
# The device ceilings and orderings (info --ceilings, info --reorder).
add_test(NAME cli.info.device_without_gpu COMMAND sh -c "\"$@\"; echo \"exit status: $?\"" cli
         $<TARGET_FILE:spmvlab> info --ceilings WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.device_without_gpu PROPERTIES LABELS cpu ENVIRONMENT "CUDA_VISIBLE_DEVICES="
  PASS_REGULAR_EXPRESSION "^spmvlab info: no GPU: device ceilings need a CUDA device\\.\nexit status: 77\n$")
# GPU tests skip (77) without a GPU, as every other: info --ceilings exits
# 77 there; a run says "no CUDA device found" on stderr.
add_test(NAME cli.info.device_ceilings COMMAND $<TARGET_FILE:spmvlab> info --ceilings WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.device_ceilings PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "dram +[0-9.]+ GB/s.*gather l2 +[0-9.]+ G loads/s.*gather dram +[0-9.]+ G loads/s.*replay +[0-9.]+ us")
set(cli_gpu_run "\"$0\" run -p csr --reps 10 \"$@\" > /dev/null 2> gpu_run.err; rc=$?; if grep -q 'no CUDA device found' gpu_run.err; then echo 'no GPU: skipped'; exit 77; fi; [ $rc -eq 0 ] || { cat gpu_run.err; exit $rc; }")
# On a GPU every timed row carries its bound, read by the header's names
# (csv_field.awk splits quoted fields), so added columns never shift it.
add_test(NAME cli.run.bound_columns
  COMMAND sh -c "${cli_gpu_run}; awk -v want=bound_kind,bound_frac -f ${CMAKE_CURRENT_SOURCE_DIR}/csv_field.awk bound.csv"
          $<TARGET_FILE:spmvlab> -o bound.csv ${cli_data}/bcsstk16.mtx.gz
  WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.run.bound_columns PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "bound_kind=(dram|l2|gather|launch) bound_frac=[0-9]")
# The GPU test's column reader itself: a quoted field with commas and an
# escaped quote stays one field.
add_test(NAME cli.csv_field_awk
  COMMAND awk -v want=msg,bound_kind,bound_frac -f ${CMAKE_CURRENT_SOURCE_DIR}/csv_field.awk
          ${CMAKE_CURRENT_SOURCE_DIR}/report/quoted_fields.csv)
set_tests_properties(cli.csv_field_awk PROPERTIES LABELS cpu
  PASS_REGULAR_EXPRESSION "msg=x, \"y\", z bound_kind=dram bound_frac=0.5")
# On a GPU the per-call permutation (gather, spmv, scatter) is verified and
# timed as one call, captured in the same graph as a plain call.
add_test(NAME cli.run.reorder_per_call
  COMMAND sh -c "${cli_gpu_run}; awk -F, 'NR > 1 {print $1, $11, $22}' per_call.csv"
          $<TARGET_FILE:spmvlab> --reorder rcm,rcm+call -o per_call.csv ${cli_data}/bcsstk16.mtx.gz
  WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.run.reorder_per_call PROPERTIES LABELS gpu SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION "bcsstk16@rcm ok graph\nbcsstk16@rcm\\+call ok graph")
# The three above, run by ctest with the device hidden: skipped, not failed
# (their own folder's ctest, so its log is not the outer run's).
add_test(NAME cli.gpu_tests_skip_without_gpu
  COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${CMAKE_CURRENT_BINARY_DIR}
          -R "^cli\\.(info\\.device_ceilings|run\\.bound_columns|run\\.reorder_per_call)$")
set_tests_properties(cli.gpu_tests_skip_without_gpu PROPERTIES LABELS cpu
  ENVIRONMENT "CUDA_VISIBLE_DEVICES=;SPMVLAB_NO_CACHE=1;SPMVLAB_PLUGIN_PATH=${SPMVLAB_PLUGIN_OUTPUT_DIR}"
  PASS_REGULAR_EXPRESSION "100% tests passed, 0 tests failed out of 3.*cli\\.info\\.device_ceilings \\(Skipped\\).*cli\\.run\\.bound_columns \\(Skipped\\).*cli\\.run\\.reorder_per_call \\(Skipped\\)")
spmvlab_cli_test(info.reorder_unknown
  "spmvlab info: unknown ordering \"metis\" \\(choose none, rcm or degree\\)\\.\nexit status: 2"
  info --reorder rcm,metis ${cli_data}/1138_bus.mtx.gz)
spmvlab_cli_test(info.reorder_rectangular
  "spmvlab info: lp_e226: reverse Cuthill-McKee needs a square matrix, not 223 x 472\\.\n(matrix [^\n]*\n)?exit status: 2"
  info --reorder rcm ${cli_data}/lp_e226.mtx.gz)
# info --reorder takes the inputs of info and run: folders and list files.
add_test(NAME cli.info.reorder_folder_and_list
  COMMAND sh -c "rm -rf reorder_in && mkdir reorder_in && cp \"$1\" reorder_in/ && echo \"$PWD/reorder_in/1138_bus.mtx.gz\" > reorder.txt && \"$0\" info --reorder rcm reorder_in reorder.txt; echo \"exit status: $?\""
          $<TARGET_FILE:spmvlab> ${cli_data}/1138_bus.mtx.gz
  WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.reorder_folder_and_list PROPERTIES LABELS cpu ENVIRONMENT SPMVLAB_NO_CACHE=1
  PASS_REGULAR_EXPRESSION "matrix +ordering[^\n]*\n1138_bus +rcm [^\n]*\n1138_bus +rcm [^\n]*\nexit status: 0")
spmvlab_cli_test(info.reorder_table
  "matrix +ordering +bandwidth +sectors_f64 +sectors_f32 +order_ms\n1138_bus +none [^\n]*\n1138_bus +rcm [^\n]*\n1138_bus +degree [^\n]*\nexit status: 0"
  info --reorder none,rcm,degree ${cli_data}/1138_bus.mtx.gz)
spmvlab_cli_test(run.reorder_unknown
  "spmvlab run: --reorder: unknown ordering \"metis\" \\(choose none, rcm or degree\\)\\.\nexit status: 2"
  run -p csr --reorder rcm,metis ${cli_data}/1138_bus.mtx.gz)
spmvlab_cli_test(run.reorder_bad_suffix
  "spmvlab run: --reorder: \"rcm\\+calls\": the only suffix of an ordering is \\+call \\(rcm\\+call, degree\\+call\\)\\.\nexit status: 2"
  run -p csr --reorder none,rcm+calls ${cli_data}/1138_bus.mtx.gz)
spmvlab_cli_test(run.reorder_none_per_call
  "spmvlab run: --reorder: \"none\\+call\": the file's order has no permutation to keep inside the call[^\n]*\\.\nexit status: 2"
  run -p csr --reorder none+call ${cli_data}/1138_bus.mtx.gz)
spmvlab_cli_test(run.missing_matrix "matrix file or folder missing\\.mtx does not exist\\.\nexit status: 2"
  run -p csr missing.mtx)
spmvlab_cli_test(run.malformed_matrix
  "above\\.mtx line 3: entry \\(1, 2\\) lies above the diagonal[^\n]*\n.*inputs not run \\(f64\\): 0 skipped, 1 unreadable[^\n]*\nexit status: 2"
  run -p csr ${cli_corpus}/mtx/above.mtx)

# Plugins.
spmvlab_cli_test(run.unknown_plugin
  "spmvlab run: unknown plugin 'nosuchplugin': no libspmvlab_nosuchplugin\\.so on the search path[^\n]*\nexit status: 2"
  run -p nosuchplugin ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.abi_mismatch
  "libspmvlab_bad_abi_major\\.so was built for plugin ABI 2\\.[0-9]+, but this spmvlab loads ABI 1\\.0 to 1\\.[0-9]+\\.\nexit status: 2"
  run -p bad_abi_major --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.misnamed_plugin
  "declares the name 'bad_other' but its file is named for 'bad_misnamed'[^\n]*\nexit status: 2"
  run -p bad_misnamed --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(check.unknown_plugin
  "spmvlab check: unknown plugin 'nosuchplugin': no libspmvlab_nosuchplugin\\.so on the search path[^\n]*\nexit status: 2"
  check nosuchplugin)
spmvlab_cli_test(check.missing_plugin_file "spmvlab check: plugin file \\./libspmvlab_gone\\.so does not exist\\.\nexit status: 2"
  check ./libspmvlab_gone.so)
spmvlab_cli_test(check.plugin_refused_by_loader_fails
  "FAIL +load: [^\n]*built for plugin ABI 2\\.[0-9]+[^\n]*\nexit status: 1"
  check bad_abi_major --plugin-dir ${cli_plugins})
spmvlab_cli_test(list.reports_refusals
  "lacks the required member 'convert'.*exit status: 1\n" list --plugin-dir ${cli_plugins})
# Options: choice rows under their enum, expert options only with --all.
spmvlab_cli_test(list.choices_and_expert_count
  "    empty_rows +enum +default auto +auto\\|list\\|bitmap\\|memset\\|stage[^\n]*\n        auto +stage, bitmap[^\n]*\n.*    \\(13 expert options: spmvlab list -v --all\\)\n.*exit status: 0"
  list -v)
spmvlab_cli_test(list.all_shows_expert
  "    rpw_rule +enum +default length +count\\|length +\\(expert\\) [^\n]*\n        count +by the medium-row count.*exit status: 0"
  list -v --all)

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
  run -p csr --option csr.kernel=bogus ${cli_data}/lp_e226.mtx.gz)

# "Did you mean" for sections, plugins, flags and options.
spmvlab_cli_test(run.ini_section_typo
  "section_typo\\.ini:2: section \\[rnu\\] \\(did you mean \\[run\\]\\?\\) is neither \\[run\\] nor an instance: no plugin is called 'rnu' and it has no plugin = key\\.\nexit status: 2"
  run -c ${cli_corpus}/ini/section_typo.ini -p csr ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.ini_section_typo_holding_matrices
  "section_typo_matrices\\.ini:2: section \\[rnu\\] \\(did you mean \\[run\\]\\?\\) is neither \\[run\\] nor an instance: its 'matrices =' is a key of \\[run\\]\\.\nexit status: 2"
  run -c ${cli_corpus}/ini/section_typo_matrices.ini -p csr)
spmvlab_cli_test(run.unknown_plugin_typo "unknown plugin 'csrr' \\(did you mean 'csr'\\?\\): no libspmvlab_csrr\\.so on the search path[^\n]*\nexit status: 2"
  run -p csrr ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(run.unknown_flag_typo "unknown option '--rep' \\(did you mean '--reps'\\?\\); see spmvlab run --help\\.\nexit status: 2"
  run -p csr --rep 3 ${cli_data}/lp_e226.mtx.gz)
# ... and in every other command, from one helper (spmvlab_did_you_mean).
spmvlab_cli_test(typo.command "spmvlab: unknown command 'rnu' \\(did you mean 'run'\\?\\)[^\n]*\nexit status: 2\n$" rnu)
spmvlab_cli_test(typo.check_flag
  "spmvlab check: unknown option '--seeed' \\(did you mean '--seed'\\?\\); see spmvlab check --help\\.\nexit status: 2\n$"
  check csr --seeed 3)
spmvlab_cli_test(typo.check_plugin
  "spmvlab check: unknown plugin 'cssr' \\(did you mean 'csr'\\?\\): no libspmvlab_cssr\\.so[^\n]*\nexit status: 2\n$"
  check cssr)
spmvlab_cli_test(typo.report_flag
  "spmvlab report: unknown option '--baselin' \\(did you mean '--baseline'\\?\\)[^\n]*\nexit status: 2\n$"
  report r.csv --baselin csr)
spmvlab_cli_test(typo.info_flag
  "spmvlab info: unknown option '--ceilngs' \\(did you mean '--ceilings'\\?\\)[^\n]*\nexit status: 2\n$"
  info --ceilngs)
spmvlab_cli_test(typo.select_flag
  "spmvlab select: unknown option '--reslts' \\(did you mean '--results'\\?\\)[^\n]*\nexit status: 2\n$"
  select --reslts r.csv ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(typo.set_name "no set 'smal' \\(did you mean 'small'\\?\\) \\(looked for smal\\.ini[^\n]*\nexit status: 2\n$"
  run -p csr --matrix-set smal)
spmvlab_cli_test(typo.cache_action
  "spmvlab cache: unknown action 'claer' \\(did you mean 'clear'\\?\\)[^\n]*\nexit status: 2\n$" cache claer)
spmvlab_cli_test(typo.gen_kind "unknown generator 'stencl2d5' \\(did you mean 'stencil2d5'\\?\\)[^\n]*\nexit status: 2\n$"
  gen stencl2d5)
spmvlab_cli_test(run.set_key_typo
  "command line: \\[csr\\] plugin csr has no option 'kernal' \\(did you mean 'kernel'\\?\\); its options are: [^\n]*\nexit status: 2"
  run -p csr --option csr.kernal=scalar ${cli_data}/lp_e226.mtx.gz)

# The option table of every command (host/options): the README's tables
# are its Markdown, tune takes run's options, --help is the table's rows,
# and every old spelling still works with a one-line note.
add_test(NAME cli.options.readme_tables
  COMMAND sh ${PROJECT_SOURCE_DIR}/tools/readme-options.sh $<TARGET_FILE:spmvlab> ${PROJECT_SOURCE_DIR}/README.md --check)
set_tests_properties(cli.options.readme_tables PROPERTIES LABELS cpu
  PASS_REGULAR_EXPRESSION "^the option tables of [^\n]*README\\.md match the option table\n$")
add_test(NAME cli.options.tune_takes_the_options_of_run
  COMMAND sh -c "\"$0\" run --help=markdown > run.md && \"$0\" tune --help=markdown > tune.md && cmp run.md tune.md && grep -c '^| `' run.md"
          $<TARGET_FILE:spmvlab> WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.options.tune_takes_the_options_of_run PROPERTIES LABELS cpu PASS_REGULAR_EXPRESSION "^2[0-9]\n$")
spmvlab_cli_test(options.help_is_the_table
  "\n  --check-timeout SECONDS +seconds one check may take in its child process \\(0: none\\) \\(0\\.\\.1000000000.\n +default 60\\)\n(.*\n)*exit status: 0"
  check --help)
spmvlab_cli_test(options.value_after_equals
  "spmvlab report: --font-size '3' is invalid: expected a number from 4 to 72\\.\nexit status: 2" report --font-size=3 r.csv)
spmvlab_cli_test(options.old_set_is_option
  "^spmvlab run: note: --set is now spelled --option here. the old spelling still works\\.\n[^\n]*option csr\\.kernel = 'bogus' is invalid[^\n]*\nexit status: 2\n$"
  run -p csr --set csr.kernel=bogus ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(options.old_set_is_matrix_set
  "^spmvlab run: note: --set is now spelled --matrix-set here. the old spelling still works\\.\n[^\n]*no set 'smal' [^\n]*\nexit status: 2\n$"
  run -p csr --set smal)
spmvlab_cli_test(options.old_gen_set
  "^spmvlab gen: note: --set is now spelled --matrix-set here[^\n]*\n[^\n]*no set 'nosuch'[^\n]*\nexit status: 2\n$"
  gen --set nosuch)
spmvlab_cli_test(options.old_select_set
  "^spmvlab select: note: --set is now spelled --families here[^\n]*\nspmvlab select: --families gives families to --evaluate, which is not given\\.\nexit status: 2\n$"
  select --set f.ini --results r.csv ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(options.old_check_spellings
  "^spmvlab check: note: --timeout is now spelled --check-timeout here. the old spelling still works\\.\nspmvlab check: note: --dtype is now spelled --check-dtype here. the old spelling still works\\.\n(.*\n)*PASS +f32 +lp_e226 [^\n]*\nPASSED: 1 passed[^\n]*\nexit status: 0\n$"
  check csr --timeout 30 --dtype f32 --no-edge-cases --matrix ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(options.old_info_device
  "^spmvlab info: note: --device is now spelled --ceilings here[^\n]*\n(.*\n)*exit status: (0|77)\n$"
  info --device)

# The suites that run broken plugins under a sanitizer need real signals
# (not the sanitizer's report and exit), NULL from failed allocations, and
# a cap that refuses bad_oom's blocks early (ASan would otherwise map and,
# on free, poison the shadow of every gigabyte it hands out).
set_property(TEST core.test_registry core.test_isolation core.test_sandbox APPEND PROPERTY ENVIRONMENT
  "ASAN_OPTIONS=handle_segv=0:handle_abort=0:allocator_may_return_null=1:max_allocation_size_mb=2048")
set_property(TEST core.test_isolation core.test_resume core.test_reorder_run APPEND PROPERTY ENVIRONMENT "SPMVLAB_NO_CACHE=1")
set_property(TEST core.test_isolation core.test_resume PROPERTY TIMEOUT 300)

# Info takes what run takes: a folder, a SuiteSparse archive, a list file.
add_test(NAME cli.info.folder_archive_and_list
  COMMAND sh -c "rm -rf info_in && mkdir -p info_in/folder info_in/pack/1138_bus &&
                 cp \"$1/lp_e226.mtx.gz\" info_in/folder/ &&
                 gzip -dc \"$1/1138_bus.mtx.gz\" > info_in/pack/1138_bus/1138_bus.mtx &&
                 tar czf info_in/1138_bus.tar.gz -C info_in/pack 1138_bus &&
                 printf '# one matrix a line\\n%s\\n' \"$1/bcspwr10\" > info_in/list.txt &&
                 \"$0\" info info_in/folder info_in/1138_bus.tar.gz info_in/list.txt; echo \"exit status: $?\""
          $<TARGET_FILE:spmvlab> ${cli_data}
  WORKING_DIRECTORY ${cli_work})
set_tests_properties(cli.info.folder_archive_and_list PROPERTIES LABELS cpu ENVIRONMENT SPMVLAB_NO_CACHE=1
  PASS_REGULAR_EXPRESSION "\nlp_e226 +223 +472 [^\n]*\n1138_bus +1138 +1138 [^\n]*\nbcspwr10 +5300 +5300 [^\n]*\nexit status: 0\n")
file(MAKE_DIRECTORY ${cli_work}/info_empty)
spmvlab_cli_test(info.empty_folder "spmvlab info: info_empty holds no \\.mtx, \\.mtx\\.gz or \\.tar\\.gz files\\.\nexit status: 2"
  info info_empty)

# Exit codes (README.md, "Exit codes"): 0 every cell ok or refused, 1 a cell
# wrong or failed, 2 bad usage or input; merge and report give their rows' code.
spmvlab_cli_test(exit.ok_cells_give_0 "exit status: 0\n$" run -p csr ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(exit.refusal_is_not_a_failure
  "\n[^\n]*dia[^\n]* limit [^\n]*\n.*exit status: 0\n$" run -p csr,dia ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(exit.wrong_cell_gives_1 "\n[^\n]*bad_wrong[^\n]* wrong [^\n]*\n.*exit status: 1\n$"
  run -p csr,bad_wrong --plugin-dir ${cli_plugins} ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(exit.failed_check_gives_1 "FAILED: [^\n]*\nexit status: 1\n$"
  check bad_wrong --plugin-dir ${cli_plugins} --no-edge-cases --matrix ${cli_data}/lp_e226.mtx.gz)
foreach(verdict ok wrong)
  set(plugins csr)
  set(code 0)
  if(verdict STREQUAL wrong)
    set(plugins csr,bad_wrong)
    set(code 1)
  endif()
  add_test(NAME cli.exit.merge_and_report_of_${verdict}_cells
    COMMAND sh -c "rm -f exit_${verdict}*.csv && \"$0\" run -p ${plugins} --plugin-dir \"$1\" -o exit_${verdict}.csv \"$2\" > /dev/null 2>&1;
                   \"$0\" merge exit_${verdict}_merged.csv exit_${verdict}.csv > /dev/null; echo \"merge exit status: $?\";
                   \"$0\" report exit_${verdict}_merged.csv > /dev/null; echo \"report exit status: $?\""
            $<TARGET_FILE:spmvlab> ${cli_plugins} ${cli_data}/lp_e226.mtx.gz
    WORKING_DIRECTORY ${cli_work})
  set_tests_properties(cli.exit.merge_and_report_of_${verdict}_cells PROPERTIES LABELS cpu
    ENVIRONMENT "SPMVLAB_NO_CACHE=1;SPMVLAB_PLUGIN_PATH=${SPMVLAB_PLUGIN_OUTPUT_DIR}"
    PASS_REGULAR_EXPRESSION "^merge exit status: ${code}\nreport exit status: ${code}\n$")
endforeach()
# Every command refuses an option it does not know with a sentence and 2.
foreach(command run tune check merge report info gen cache list new-plugin)
  spmvlab_cli_test(exit.${command}_unknown_option_gives_2 "spmvlab[^\n]*\n(.*\n)?exit status: 2\n$"
    ${command} --no-such-option x.csv y.csv)
endforeach()
spmvlab_cli_test(exit.unknown_command_gives_2 "spmvlab: unknown command 'nosuch'[^\n]*\nexit status: 2\n$" nosuch)

# Sets: the split, and the selector.
set(cli_select ${CMAKE_CURRENT_SOURCE_DIR}/select)
spmvlab_cli_test(gen.list_shows_the_part
  "stencil2d5-s +heldout +stencil2d5 n=100[^\n]*\nstencil3d7-s +tune .*exit status: 0"
  gen --list small)
spmvlab_cli_test(gen.list_one_part
  "^stencil2d5-s +heldout[^\n]*\nrmat-s +heldout.*exit status: 0"
  gen --list small --part heldout)
spmvlab_cli_test(gen.bad_part
  "spmvlab gen: part 'held' is not tune or heldout\\.\nexit status: 2"
  gen --list small --part held)
# (No ";" in a pass expression: CMake would split it into a list of alternatives.)
spmvlab_cli_test(select.picks_from_the_nearest
  "query-band\\.gen: dia \\(plugin dia. max_fill=3\\)\n  predicted 1\\.48x the baseline cusparse \\(geomean over 3 of 3 neighbours\\)[^\n]*\n[^\n]*\n  band-b .*exit status: 0"
  select --k 3 --results ${cli_select}/results.csv ${cli_select}/query-band.gen)
# The corpus's preparation (its features computed here) is timed and stated
# once, with the baseline the speedups are over; a folder given as DIR/
# prints its files as DIR/NAME.
spmvlab_cli_test(select.states_the_corpus_cost
  "^corpus [^\n]*results\\.csv: 6 matrices, 4 instances \\(f64\\), speedups over the baseline cusparse. prepared in [0-9.]+ ms \\(features of 6 matrices computed, 0 read from --features\\)\n.*exit status: 0"
  select --k 3 --results ${cli_select}/results.csv ${cli_select}/query-band.gen)
spmvlab_cli_test(select.folder_paths_have_one_slash
  "\n[^\n]*/data/1138_bus\\.mtx\\.gz: [^\n]*\n.*exit status: 0"
  select --k 3 --results ${cli_select}/results.csv ${cli_data}/)
set_tests_properties(cli.select.folder_paths_have_one_slash PROPERTIES FAIL_REGULAR_EXPRESSION "//")
spmvlab_cli_test(select.skips_a_complex_matrix
  "spmvlab select: skipping [^\n]*complex\\.mtx: [^\n]*complex matrices are not supported[^\n]*\n(.*\n)?exit status: 0\n$"
  select --k 3 --results ${cli_select}/results.csv ${cli_corpus}/mtx/complex.mtx ${cli_select}/query-band.gen)
spmvlab_cli_test(select.no_results
  "spmvlab select: no results file \\(--results FILE\\.csv\\)\\.\nexit status: 2"
  select ${cli_select}/query-band.gen)
spmvlab_cli_test(select.missing_results
  "spmvlab select: cannot open missing\\.csv: No such file or directory\\.\nexit status: 2"
  select --results missing.csv ${cli_select}/query-band.gen)
spmvlab_cli_test(select.no_rows_of_the_dtype
  "spmvlab select: no ok row of dtype f16 has a speedup over a baseline\\.\nexit status: 2"
  select --dtype f16 --results ${cli_select}/results.csv ${cli_select}/query-band.gen)
spmvlab_cli_test(select.bad_k
  "spmvlab select: --k '0' is invalid: expected an integer from 1 to 32\\.\nexit status: 2"
  select --k 0 --results ${cli_select}/results.csv ${cli_select}/query-band.gen)
# A selector instance of run ([auto] plugin = select): its settings are
# checked and its corpus opened before anything is measured.
spmvlab_cli_test(run.selector_missing_results
  "^spmvlab run: selector instance auto: cannot open no-such-results\\.csv: No such file or directory\\.\nexit status: 2\n$"
  run -c ${cli_select}/missing-results.ini -p auto ${cli_select}/query-band.gen)
spmvlab_cli_test(run.selector_needs_results
  "no-results\\.ini:2: \\[auto\\] a selector instance needs results = FILE \\(the corpus's results CSV\\)\\.\nexit status: 2"
  run -c ${cli_select}/no-results.ini -p auto ${cli_select}/query-band.gen)
spmvlab_cli_test(run.selector_refuses_plugin_options
  "plugin-option\\.ini:6: \\[auto\\] a selector instance \\(plugin = select\\) takes results, features, k and part, not 'sigma'\\.\nexit status: 2"
  run -c ${cli_select}/plugin-option.ini -p auto ${cli_select}/query-band.gen)
# select --evaluate on tests/select/evaluate.csv: the numbers worked by hand
# in tests/test_select.c, and one note for the rows it leaves out.
spmvlab_cli_test(select.evaluate_by_hand
  "\\(a\\)[^\n]*\n[^\n]*\n  selector +1\\.000 +2 of 2 [^\n]*\n[^\n]*\n  always the baseline +0\\.408 +0 of 2 [^\n]*\n  always dia +0\\.707 +1 of 2 [^\n]*\n  cost of the choice: 1\\.50 candidates built per matrix;[^\n]*\n\n\\(b\\)[^\n]*\n[^\n]*\n  selector +0\\.447 +0 of 6 "
  select --evaluate ${cli_select}/evaluate.csv --features ${cli_select}/evaluate.feat)
spmvlab_cli_test(select.evaluate_leaves_out_skipped_rows_with_one_note
  "spmvlab select: 1 corpus member left out, no matrix to compute features from \\(ghost-2e4: [^\n]*\\); 2 input rows no instance ran on \\(skipped or unreadable\\) left out\\.\n"
  select --evaluate ${cli_select}/evaluate.csv --features ${cli_select}/evaluate.feat)
# family = NAME in a set: band-2e4 alone in its family, so the other bands
# keep it as evidence (dia, 1.0 on band-2e4 and band-6e4; (0.4 x 0.5^3)^(1/6) in all)
spmvlab_cli_test(select.evaluate_families_from_a_set
  "\\(b\\)[^\n]*\n[^\n]*\n  selector +0\\.607 +2 of 6 "
  select --evaluate ${cli_select}/evaluate.csv --features ${cli_select}/evaluate.feat --families ${cli_select}/families.ini)
spmvlab_cli_test(select.family_key_is_a_name
  "bad-family\\.ini:3: family = 'a b' is not a name \\[A-Za-z0-9_\\.\\+-\\]\\+ \\(or given twice\\)\\.\nexit status: 2"
  gen --list ${cli_select}/bad-family.ini)
spmvlab_cli_test(select.evaluate_not_with_matrices
  "spmvlab select: --evaluate takes results files \\(after it\\), not --results or matrices\\.\nexit status: 2"
  select --results ${cli_select}/results.csv --evaluate ${cli_select}/evaluate.csv)
# run --part keeps one part of a set, and needs a set.
spmvlab_cli_test(run.part_needs_a_set
  "spmvlab run: --part tune keeps members of a matrix set, and no set is named \\(--matrix-set NAME\\)\\.\nexit status: 2"
  run -p csr --part tune ${cli_data}/lp_e226.mtx.gz)
spmvlab_cli_test(select.missing_matrix
  "spmvlab select: matrix file or folder missing\\.mtx does not exist\\.\nexit status: 2"
  select --results ${cli_select}/results.csv ${cli_select}/query-band.gen missing.mtx)

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
  "\"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && \"$1\" run -p csr --option csr.kernel=scalar --resume r.csv \"$2/lp_e226.mtx.gz\"; echo \"exit status: $?\"")
spmvlab_cli_script(run.partial_of_an_interrupted_run
  "r\\.csv\\.partial holds rows of an interrupted run; continue it with --resume r\\.csv, or remove r\\.csv\\.partial to start afresh\\.\nexit status: 2"
  "\"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && cp r.csv r.csv.partial && \"$1\" run -p csr -o r.csv \"$2/lp_e226.mtx.gz\"; echo \"exit status: $?\"")
spmvlab_cli_script(report.baseline_typo
  "baseline 'cooo' \\(did you mean 'coo'\\?\\) is not among the instances of the results \\(csr, coo\\)\\.\nexit status: 2"
  "\"$1\" run -p csr,coo -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && \"$1\" report r.csv -o rep --baseline cooo; echo \"exit status: $?\"")
spmvlab_cli_script(report.unknown_baseline
  "baseline 'nope' is not among the instances of the results \\(csr, coo\\)\\.\nexit status: 2"
  "\"$1\" run -p csr,coo -o r.csv \"$2/lp_e226.mtx.gz\" >/dev/null && \"$1\" report r.csv -o rep --baseline nope; echo \"exit status: $?\"")
# run --part keeps one part of a set.
spmvlab_cli_script(run.part_keeps_one_part_of_a_set
  "^PGPgiantcompo delaunay_n16 matrix powerlaw-s rmat-s stencil2d5-s \nexit status: 0"
  "\"$1\" run -p csr --matrix-set small --part heldout -o r.csv >/dev/null 2>&1; s=$?; cut -d, -f1 r.csv | sort -u | tr '\\n' ' '; echo; echo \"exit status: $s\"")
# A selector instance of run leaves out the corpus rows it cannot use with one note.
spmvlab_cli_script(run.selector_leaves_out_skipped_rows_with_one_note
  "spmvlab run: selector instance auto: 1 corpus member left out, no matrix to compute features from \\(ghost-2e4: [^\n]*\\); 2 input rows no instance ran on \\(skipped or unreadable\\) left out\\.\n(.*\n)*exit status: 0"
  "printf '[auto]\\nplugin = select\\nresults = ${cli_select}/evaluate.csv\\nfeatures = ${cli_select}/evaluate.feat\\n' > auto.ini && \"$1\" run -c auto.ini -p auto ${cli_select}/query-band.gen 2>&1; echo \"exit status: $?\"")
# An old key of [run], as an old flag, works with a one-line note.
spmvlab_cli_script(options.old_ini_key
  "^spmvlab run: note: s\\.ini:2: \\[run\\] set = is now matrix_set =. the old key still works\\.\n[^\n]*no set 'nosuch'[^\n]*\nexit status: 2\n$"
  "printf '[run]\\nset = nosuch\\n[csr]\\n' > s.ini && \"$1\" run -c s.ini 2>&1; echo \"exit status: $?\"")
