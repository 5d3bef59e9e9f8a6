# Prints the fields named by `want` (comma list) of a CSV's last row, as
# name=value, splitting quoted fields ("a,b" and "" escapes) as one.
function split_csv(line, out,    n, i, c, f, q) {
    n = 0; f = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { f = f c; i++ } else q = 0 } else f = f c }
        else if (c == "\"") q = 1
        else if (c == ",") { out[++n] = f; f = "" }
        else f = f c
    }
    out[++n] = f
    return n
}
NR == 1 { nh = split_csv($0, head); next }
{ last = $0 }
END {
    split_csv(last, row)
    nw = split(want, w, ",")
    for (k = 1; k <= nw; k++) for (i = 1; i <= nh; i++) if (head[i] == w[k]) printf "%s=%s ", w[k], row[i]
    print ""
}
