#!/bin/sh
# The README's tables of options are the output of
# `spmvlab COMMAND --help=markdown` (the one option table, host/options),
# each between "<!-- options: COMMAND -->" and "<!-- end options -->".
#
#   tools/readme-options.sh BIN README.md           rewrites the tables
#   tools/readme-options.sh BIN README.md --check   exit 1 naming the tables that differ
set -u
bin=$1 readme=$2 mode=${3:-write}
new=$(mktemp) || exit 2
trap 'rm -f "$new"' EXIT
awk -v bin="$bin" '
  /^<!-- end options -->$/ { skip = 0 }
  skip { next }
  { print }
  /^<!-- options: [a-z-]+ -->$/ {
    cmd = $3
    fflush()
    if (system("\"" bin "\" " cmd " --help=markdown") != 0) { print "readme-options: " cmd " --help=markdown failed" > "/dev/stderr"; exit 2 }
    skip = 1
  }
' "$readme" > "$new" || exit 2
if [ "$mode" = --check ]; then
    if cmp -s "$readme" "$new"; then
        echo "the option tables of $readme match the option table"
        exit 0
    fi
    echo "FAIL: the option tables of $readme differ from the option table (run tools/readme-options.sh $bin $readme):"
    diff "$readme" "$new" | head -40
    exit 1
fi
cat "$new" > "$readme"
