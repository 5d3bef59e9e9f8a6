#!/usr/bin/env bash
# One pass of instances over one part of the corpus (docs/corpus.md, "A
# pass"), resumable: each call generates what the part still lacks, then
# measures the cells not yet in the results, and stops itself before a call
# limit so that a later call with the same arguments continues.
#
#   tools/corpus-pass.sh --part tune|heldout [--dtype f64[,f32,f16]]
#       [-p LIST] [--devices all|LIST|cpu:N] [--call-s S] [--out DIR]
#       [--matrix-set NAME] [--skip REGEX] [--bin PATH] [--dry-run]
#       [-- MORE RUN ARGUMENTS]
#
# --skip leaves out the members whose names match REGEX (awk's extended
# syntax), e.g. a part's largest sizes when a rule moves only small
# matrices: --skip '-(6e6|15e6|3e7)$'. The part's set file is written by
# the first call; later calls with the same DIR reuse it as it is.
#
# Writes DIR/corpus-PART.ini (the part's members as a set file) and
# DIR/PART-DTYPES.csv (the results, merged from every GPU's worker). Exit
# status: 0 the pass is complete, 1 complete with failed cells, 2 bad input,
# 3 stopped at the call limit (call again with the same arguments).
set -uo pipefail

part="" dtype="f64" devices="all" call_s=540 out="corpus-pass" set="corpus" dry=0 skip=""
plugins="cusparse,csr,coo,ell,hyb,jds,sell,csr5,dasp,bcsr,dia,csrdu,merge,bccoo,tilespmv,vbr"
bin=${SPMVLAB:-}
extra=()

# say MESSAGE: one line on stderr, prefixed with the script's name.
say() { printf 'corpus-pass: %s\n' "$*" >&2; }

# need VALUE OPTION: refuse an option given without its value.
need() { [ -n "${1:-}" ] || { say "$2 needs a value."; exit 2; }; }

while [ $# -gt 0 ]; do
    case $1 in
        --part) need "${2:-}" "$1"; part=$2; shift 2 ;;
        --dtype) need "${2:-}" "$1"; dtype=$2; shift 2 ;;
        -p|--plugins) need "${2:-}" "$1"; plugins=$2; shift 2 ;;
        --devices) need "${2:-}" "$1"; devices=$2; shift 2 ;;
        --call-s) need "${2:-}" "$1"; call_s=$2; shift 2 ;;
        --out) need "${2:-}" "$1"; out=$2; shift 2 ;;
        --matrix-set|--set) need "${2:-}" "$1"; set=$2; shift 2 ;;  # --set: the older spelling
        --skip) need "${2:-}" "$1"; skip=$2; shift 2 ;;
        --bin) need "${2:-}" "$1"; bin=$2; shift 2 ;;
        --dry-run) dry=1; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) say "unknown argument '$1' (--help lists them)."; exit 2 ;;
    esac
done
case $part in
    tune|heldout) ;;
    *) say "--part must be tune or heldout."; exit 2 ;;
esac
# The baseline of every speedup is among the instances.
case ",$plugins," in
    *,cusparse,*) ;;
    *) plugins="cusparse,$plugins" ;;
esac
case $call_s in
    ''|*[!0-9]*) say "--call-s takes whole seconds."; exit 2 ;;
esac
if [ -z "$bin" ]; then
    here=$(cd "$(dirname "$0")/.." && pwd)
    for b in "$here/build/host/spmvlab" "$here/.gpu/build/host/spmvlab"; do
        [ -x "$b" ] && { bin=$b; break; }
    done
fi
[ -n "$bin" ] && [ -x "$bin" ] || { say "no spmvlab binary: build first or give --bin PATH (or SPMVLAB=PATH)."; exit 2; }

# The corpus needs more binary cache than the default limit (docs/corpus.md).
export SPMVLAB_CACHE_LIMIT=${SPMVLAB_CACHE_LIMIT:-64G}
mkdir -p "$out" || { say "cannot create the output folder $out."; exit 2; }
start=$(date +%s)
setfile="$out/corpus-$part.ini"
results="$out/$part-${dtype//,/-}.csv"

# 1. The part as a set file: every member `gen --list` puts in the part, its
#    generated section copied from the set, a file member by the path `gen
#    --list` resolved (the set's relative paths would not resolve from DIR).
if [ ! -s "$setfile" ]; then
    list=$("$bin" gen --list "$set" --part "$part") || { say "spmvlab gen --list $set failed."; exit 2; }
    if [ -n "$skip" ]; then
        list=$(printf '%s\n' "$list" | awk -v re="$skip" 'NF && $1 !~ re') ||
            { say "--skip '$skip' is not a regular expression awk takes."; exit 2; }
    fi
    # The set's own file, looked up as spmvlab does (sets/README.md).
    case $set in
        */*|*.ini) src=$set ;;
        *) src="${SPMVLAB_SETS_DIR:-/nonexistent}/$set.ini"
           [ -r "$src" ] || src="$(cd "$(dirname "$0")/.." && pwd)/sets/$set.ini" ;;
    esac
    [ -r "$src" ] || { say "the set file $src cannot be read."; exit 2; }
    printf '%s\n' "$list" | awk -v src="$src" '
        FNR == NR { if (NF) { part[$1] = 1; what[$1] = $3 }; next }
        /^\[/ { name = substr($0, 2, index($0, "]") - 2); keep = (name in part) && name != "set";
                if (keep) { seen[name] = 1; printf "\n" } }
        keep && /^[ \t]*path[ \t]*=/ { printf "path = %s\n", what[name]; next }
        keep && !/^;/ && !/^[ \t]*$/ { print }
        END { for (n in part) if (!(n in seen)) printf "\n[%s]\npath = %s\noptional = true\n", n, what[n] }
    ' - "$src" > "$setfile.tmp" || { say "could not write $setfile."; exit 2; }
    { printf '[set]\ndescription = the %s part of %s (tools/corpus-pass.sh)\n' "$part" "$set"; cat "$setfile.tmp"; } > "$setfile"
    rm -f "$setfile.tmp"
    say "$(printf '%s\n' "$list" | grep -c .) members of the $part part in $setfile"
fi

exec 3>&1 # the script's own stdout, for --dry-run beside redirected steps
# run_step SECONDS COMMAND...: a step under what is left of the call's time;
# SIGINT first (run keeps every finished row), a kill 20 s later.
run_step() {
    local left=$1; shift
    if [ "$dry" = 1 ]; then printf 'would run: %s\n' "$*" >&3; return 0; fi
    timeout -s INT -k 20 "$left" "$@"
}

left=$((call_s - ($(date +%s) - start)))
[ "$left" -gt 0 ] || { say "no time left in this call; call again."; exit 3; }
# 2. Generation: members already in the cache are only checked.
run_step "$left" "$bin" gen --matrix-set "$setfile" > "$out/gen-$part.log"
rc=$?
if [ $rc -eq 124 ] || [ $rc -eq 130 ] || [ $rc -eq 137 ]; then
    say "generation stopped at the call limit; call again."
    exit 3
fi
[ $rc -eq 0 ] || say "generation reported a problem (status $rc; $out/gen-$part.log); the run skips what is missing."

# 3. The run: cells already in the results (or their .parts/) are kept.
left=$((call_s - ($(date +%s) - start)))
[ "$left" -gt 5 ] || { say "no time left in this call; call again."; exit 3; }
run_step "$left" "$bin" run --matrix-set "$setfile" -p "$plugins" --dtype "$dtype" --baseline cusparse \
    --devices "$devices" --reps 10 --warmup 3 --time-budget-ms 30 --resume "$results" "${extra[@]}"
rc=$?
case $rc in
    0|1) [ "$dry" = 1 ] || say "pass complete: $results ($(($(date +%s) - start)) s this call)"; exit $rc ;;
    124|130|137) say "stopped at the call limit after $(($(date +%s) - start)) s; call again to continue."; exit 3 ;;
    *) say "spmvlab run ended with status $rc."; exit 2 ;;
esac
