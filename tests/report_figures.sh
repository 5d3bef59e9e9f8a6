#!/bin/sh
# spmvlab report on the committed result files tests/report/before.csv and
# after.csv (6 matrices; csr, sell, coo in f64 and sell-f32 storing f32
# values; after.csv: sell twice as fast on five matrices, 1.25 x slower on
# the sixth). Usage: report_figures.sh SPMVLAB DATA_DIR WORK_DIR data|images
#   data:   scripts, data files, tables, filters, --compare (no gnuplot needed)
#   images: every plot drawn as SVG, PNG and PDF; exit 77 (skip) without
#           gnuplot or without its cairo terminals
set -u
spmvlab=$1 data=$2 work=$3 mode=$4
fails=0
check() { # check DESCRIPTION COMMAND...: one line per failed check
    desc=$1
    shift
    if ! "$@"; then
        echo "FAIL: $desc"
        fails=$((fails + 1))
    fi
}
has() { grep -q -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

if [ "$mode" = images ]; then
    gp=${SPMVLAB_GNUPLOT:-$(command -v gnuplot)}
    if [ -z "$gp" ]; then
        echo "gnuplot not found: skipped"
        exit 77
    fi
    terms=$("$gp" -e "print GPVAL_TERMINALS" 2>&1)
    case "$terms" in *pngcairo*pdfcairo*|*pdfcairo*pngcairo*) ;; *)
        echo "gnuplot has no pngcairo and pdfcairo terminals: skipped"
        exit 77 ;;
    esac
    check "report draws" "$spmvlab" report "$data/before.csv" -o rep --font-size 9 --size 800,500 >out.txt
    check "42 images said" has out.txt "42 images"
    for g in f64 f64-f32; do
        for p in profile gflops sorted boxes speedup heatmap bound; do
            for e in svg png pdf; do
                check "$p-$g.$e drawn" test -s "rep/$p-$g.$e"
            done
        done
    done
    check "PNG at --size" sh -c "file rep/gflops-f64.png 2>/dev/null | grep -q '800 x 500' || ! command -v file >/dev/null"
    check "SVG at --size" has rep/gflops-f64.svg 'width="800" height="500"'
    # the folder moved, the script run from elsewhere: it still finds its data
    mv rep moved && rm moved/*.png
    check "moved script runs" "$gp" moved/plots-f64.gp
    check "moved script draws beside itself" test -s moved/profile-f64.png
    echo "$fails failed"
    [ "$fails" = 0 ]
    exit
fi

SPMVLAB_GNUPLOT=/nonexistent/gnuplot "$spmvlab" report "$data/before.csv" -o rep --table tex >out.txt 2>err.txt
check "report exits 0" test $? = 0
gp=rep/plots-f64.gp
# the scatter: points only, never joined by lines
check "scatter drawn" has "$gp" "gflops-f64.dat' index 0 using 1:2 with points"
check "scatter has no lines" sh -c "! sed -n '/GFLOP\/s against non-zeros/,/unset output/p' $gp | grep -q 'with lines\|linespoints'"
# sorted speedups with the 1.0 line; box plots; a profile with highlighted and grey instances
check "S-curve" has "$gp" "sorted-f64.dat' index 1 using 1:2 with lines"
check "1.0 line" has "$gp" "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead"
check "box plots" has "$gp" "with boxplot"
check "box of sell with its count" has "$gp" "'sell (6)'"
check "baseline highlighted first" has "$gp" "using 1:2 with steps lt 1 title 'csr'"
check "ticks as fractions" has "$gp" "'1/2' 0.5"
# per matrix: 6 matrices are named, in non-zero order
check "per-matrix labels" has "$gp" "xtic(2)"
check "per-matrix order said" has "$gp" "by non-zeros (fewest left)"
check "speedup data in nnz order" sh -c "sed -n 2p rep/speedup-f64.dat | grep -q band-1k && sed -n 7p rep/speedup-f64.dat | grep -q stencil-10m"
# the bound plot: the limits present only, markers per instance
check "limit launch listed" has "$gp" "title 'limit: launch'"
check "limit dram listed" has "$gp" "title 'limit: dram'"
check "absent limit gather not listed" hasnt "$gp" "limit: gather"
check "absent limit l2 not listed" hasnt "$gp" "limit: l2"
# self-contained: no folder in any data or output name; PDF beside SVG and PNG
check "script moves to its folder" has "$gp" "cd d\[1:i\]"
check "no folder in file names" hasnt "$gp" "rep/"
check "PDF output" has "$gp" "set output 'profile-f64.pdf'"
# one value storage per comparison: sell-f32 (fastest everywhere) is never best in f64
check "f32 storage apart" test -f rep/plots-f64-f32.gp
check "f64 best is sell" sh -c "grep -A7 '^best per matrix (f64):' out.txt | tail -6 | awk '{print \$2}' | sort -u | grep -qx sell"
check "sell-f32 in its own group" has out.txt "summary (f64/f32, 6 matrices"
check "f64 profile without sell-f32" hasnt rep/profile-f64.dat "sell-f32"
# tables
check "LaTeX table" has rep/summary.tex '\\toprule'
check "LaTeX names escaped" has rep/summary.tex 'pl\\_e100k'
check "LaTeX summary row" has rep/summary.tex '\\texttt{sell} & 6/6 & 1.250'
"$spmvlab" report "$data/before.csv" -o rep --table md >/dev/null 2>&1
check "Markdown table" has rep/summary.md '| `sell` | 6/6 | 1.250 |'
check "Markdown best per matrix" has rep/summary.md '| `stencil-10m` | 10000000 | `sell` |'
check "Markdown floor table, none below" has rep/summary.md '^No instance has a matrix below 0.8x the baseline.$'
# against sell, csr falls below 0.8 on every matrix but stencil-10m: one line per bound kind
"$spmvlab" report "$data/after.csv" -o rebased --baseline sell --table md >/dev/null 2>&1
check "floor table by bound, dram" has rebased/summary.md \
    '| `csr` | dram | 3 | 0.50 | 0.50 | - | `pl_e100k`, `rand-3m`, `rand-1m` |'
check "floor table by bound, launch" has rebased/summary.md '| `csr` | launch | 2 | 0.50 | 0.50 | - | `band-10k`, `band-1k` |'

# filters
SPMVLAB_GNUPLOT=/nonexistent/gnuplot "$spmvlab" report "$data/before.csv" -o filt --instances 'csr,sell*' \
    --matrices 'rand-*' >out.txt 2>&1
check "filtered exits 0" test $? = 0
check "filter keeps sell" has filt/profile-f64.dat "sell"
check "filter drops coo" hasnt filt/profile-f64.dat "coo"
check "filter keeps 2 matrices" has out.txt "summary (f64, 2 matrices"
check "filter drops band-1k" hasnt filt/speedup-f64.dat "band-1k"
"$spmvlab" report "$data/before.csv" -o filt --instances nope >out.txt 2>&1
check "unknown filter refused" test $? = 2
check "unknown filter said" has out.txt "\-\-instances: 'nope' matches no instance of these rows."
"$spmvlab" report "$data/before.csv" -o filt --highlight csr,nope >out.txt 2>&1
check "unknown highlight refused" has out.txt "\-\-highlight names 'nope', which is no instance of these rows."
"$spmvlab" report "$data/before.csv" -o filt --table html >out.txt 2>&1
check "bad table refused" has out.txt "\-\-table 'html' is invalid: expected one of md|tex."

# --compare on the hand-made pair: sell 2 x on five matrices, 0.8 on the sixth
"$spmvlab" report --compare "$data/before.csv" "$data/after.csv" -o cmp >out.txt 2>&1
check "compare exits 0" test $? = 0
check "sell geomean (2^5 x 0.8)^(1/6) = 1.717, 5 wins 1 loss" sh -c "grep -E '^sell +6 +1\.717 .* 5 +1 +0$' out.txt >/dev/null"
check "coo unchanged: ties" sh -c "grep -E '^coo +6 +1\.000 .* 0 +0 +6$' out.txt >/dev/null"
check "cell ratio and range" has cmp/compare.csv "f64,sell,band-1k,1000,0.004008,0.002004,2,1.92157,2.08163,win"
check "cell loss" has cmp/compare.csv "f64,sell,stencil-10m,10000000,0.084,0.105,0.8,0.768627,0.832653,loss"
check "f32 storage compared apart" has cmp/compare.csv "f64/f32,sell-f32,"
sed 's/Test GPU/Other GPU/' "$data/after.csv" >other.csv
"$spmvlab" report --compare "$data/before.csv" other.csv -o cmp2 >out.txt 2>&1
check "other device refused" test $? = 2
check "other device said" has out.txt "were measured differently (devices differ (Test GPU, Other GPU))"
"$spmvlab" report --compare "$data/before.csv" other.csv -o cmp2 --allow-different >out.txt 2>&1
check "allowed, said plainly" has out.txt "^NOTE: .* were measured differently"
"$spmvlab" report --compare "$data/before.csv" >out.txt 2>&1
check "compare needs two files" has out.txt "\-\-compare takes two result files"

# the structure features are columns of every row
"$spmvlab" run --columns >cols.txt 2>&1
for c in row_mean row_cv row_max empty_share bandwidth locality block_fill; do
    check "column $c listed" has cols.txt "^$c "
done
echo "$fails failed"
[ "$fails" = 0 ]
