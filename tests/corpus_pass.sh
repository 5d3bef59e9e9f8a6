#!/bin/sh
# tools/corpus-pass.sh on the small set without a GPU (two CPU workers): the
# part's set file holds exactly the members `gen --list --part` names, the
# results hold every member x instance once, a second call resumes and adds
# nothing, --dry-run only prints the steps, a member's relative path still
# resolves from the output folder, --skip leaves the members it matches out,
# and a bad part is one sentence and status 2.
# Arguments: the spmvlab binary, the source tree.
set -eu
host=$1 src=$2
work=$(mktemp -d /tmp/spmvlab-corpus-pass-XXXXXX)
trap 'rm -rf "$work"' EXIT
export SPMVLAB_CACHE_DIR="$work/cache"
pass() { bash "$src/tools/corpus-pass.sh" --bin "$host" --matrix-set small --devices cpu:2 -p csr --out "$work/out" "$@"; }

pass --part tune --dry-run > "$work/dry.txt"
grep -q "^would run: .* gen --matrix-set $work/out/corpus-tune.ini" "$work/dry.txt"
grep -q "^would run: .* run --matrix-set $work/out/corpus-tune.ini -p cusparse,csr .*--devices cpu:2 .*--resume $work/out/tune-f64.csv" "$work/dry.txt"
test ! -e "$work/out/tune-f64.csv"

"$host" gen --list small --part tune | awk '{print $1}' | sort > "$work/want.txt"
members=$(wc -l < "$work/want.txt")
grep '^\[' "$work/out/corpus-tune.ini" | tr -d '[]' | grep -v '^set$' | sort > "$work/got.txt"
cmp "$work/want.txt" "$work/got.txt"

pass --part tune > /dev/null 2> "$work/first.log" || { cat "$work/first.log"; exit 1; }
rows=$(($(wc -l < "$work/out/tune-f64.csv") - 1))
echo "tune part of small: $members members, $rows rows"
test "$rows" -eq $((2 * members))
test "$(cut -d, -f1,6 "$work/out/tune-f64.csv" | sort | uniq -d | wc -l)" -eq 0

pass --part tune > /dev/null 2> "$work/second.log" || { cat "$work/second.log"; exit 1; }
test "$(($(wc -l < "$work/out/tune-f64.csv") - 1))" -eq "$rows"
grep -q "pass complete" "$work/second.log"

# A file member given relative to its set file still resolves from DIR: the
# part's set file holds the path `gen --list` resolved, in both parts.
mkdir -p "$work/sets" "$work/m"
cp "$src/data/1138_bus.mtx.gz" "$work/m/one.mtx.gz"
printf '[set]\n\n[one]\npath = ../m/one.mtx.gz\n\n[two]\npath = ../m/one.mtx.gz\noptional = true\n' > "$work/sets/rel.ini"
for part in tune heldout; do
    bash "$src/tools/corpus-pass.sh" --bin "$host" --matrix-set "$work/sets/rel.ini" --devices cpu:1 -p csr \
        --out "$work/rel" --part $part --dry-run > /dev/null
done
test "$(cat "$work/rel"/corpus-*.ini | grep -c "^path = $work/m/one.mtx.gz$")" -eq 2
test "$(cat "$work/rel"/corpus-*.ini | grep -c '^path')" -eq 2

# --skip leaves the matching names out of the part's set file, the rest in.
first=$(head -1 "$work/want.txt")
bash "$src/tools/corpus-pass.sh" --bin "$host" --matrix-set small --devices cpu:1 -p csr --out "$work/skip" \
    --part tune --skip "^$first\$" --dry-run > /dev/null
grep '^\[' "$work/skip/corpus-tune.ini" | tr -d '[]' | grep -v '^set$' | sort > "$work/skipped.txt"
grep -v "^$first\$" "$work/want.txt" | cmp - "$work/skipped.txt"
test "$(wc -l < "$work/skipped.txt")" -eq $((members - 1))

status=0
pass --part all > /dev/null 2> "$work/bad.log" || status=$?
test "$status" -eq 2
grep -q "^corpus-pass: --part must be tune or heldout\.$" "$work/bad.log"
echo "corpus pass: ok"
