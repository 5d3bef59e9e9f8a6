# Prints the named columns of a results CSV (the header gives the names),
# one line per row, fields joined by '|': the cells and their deterministic
# values, so two result files can be compared with sort and diff.
#   awk -v cols=matrix,instance,dtype,status -f slurm_cells.awk results.csv
# Quoted fields (commas, doubled quotes) are read as csv_write_field writes
# them; a row never spans lines (messages are one line).

function split_csv(line, out,    i, c, field, n, quoted) {
    n = 0; field = ""; quoted = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (quoted) {
            if (c == "\"") {
                if (substr(line, i + 1, 1) == "\"") { field = field c; i++ }
                else quoted = 0
            } else field = field c
        } else if (c == "\"") quoted = 1
        else if (c == ",") { out[++n] = field; field = "" }
        else field = field c
    }
    out[++n] = field
    return n
}

NR == 1 {
    n = split_csv($0, head)
    for (i = 1; i <= n; i++) index_of[head[i]] = i
    nwant = split(cols, want, ",")
    for (k = 1; k <= nwant; k++)
        if (!(want[k] in index_of)) {
            printf "slurm_cells.awk: %s has no column '%s'\n", FILENAME, want[k] > "/dev/stderr"
            exit 2
        }
    next
}

{
    sub(/\r$/, "")
    split_csv($0, f)
    line = ""
    for (k = 1; k <= nwant; k++) line = line (k > 1 ? "|" : "") f[index_of[want[k]]]
    print line
}
