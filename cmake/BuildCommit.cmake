# Writes OUT (a header) with the commit of the source tree SRC as it is
# built: `git rev-parse --short=12 HEAD`, "-dirty" with local changes to
# tracked files, "unknown" outside a git checkout. Run at every build (the
# target spmvlab_build_commit); the file is rewritten only when the text
# changes, so an unchanged tree rebuilds nothing.
#   cmake -DSRC=DIR -DOUT=FILE -P BuildCommit.cmake
set(commit "unknown")
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SRC} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND head)
    set(commit "${head}")
    execute_process(COMMAND ${GIT} -C ${SRC} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes ERROR_QUIET)
    if(changes)
      set(commit "${commit}-dirty")
    endif()
  endif()
endif()
set(text "/* Generated at build time by cmake/BuildCommit.cmake. */\n#define SPMVLAB_BUILD_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
