#!/bin/sh
# Writes the data sets of the alignment experiments (Rostamizadeh's thesis, Table 3.1) from Debian's R
# packages as LIBSVM-format files under DIR:
#   ionosphere.libsvm  r-cran-mlbench Ionosphere, 351 x 33: constant V2 dropped, V1 as 0/1, raw
#                      features, label good = +1, bad = -1
#   german.libsvm      r-cran-caret GermanCredit, 1000 x 59: zero-variance columns dropped, every
#                      column min-max scaled to [-1, 1], label Good = +1, Bad = -1
#   spam.libsvm        r-cran-kernlab spam: a seeded sample of 1000 of the 4601 rows, raw features,
#                      label spam = +1, nonspam = -1
#   splice.libsvm      r-cran-mlbench DNA: a seeded sample of 1000 of the 3186 rows, 180 binary
#                      features, label ei or ie (a splice junction) = +1, n = -1
# Needs Rscript (r-base-core) and r-cran-mlbench, r-cran-caret, r-cran-kernlab.
# Usage: scripts/export-r-data.sh DIR
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
command -v Rscript >/dev/null 2>&1 || { echo "$0: Rscript not found (Debian: r-base-core)" >&2; exit 1; }
mkdir -p "$1"
Rscript --vanilla - "$1" <<'R' 2>&1 | grep -v -e '^Failed to connect to bus' -e '^System has not been booted' -e 'timedatectl' -e '^Warning message' || true
args <- commandArgs(trailingOnly = TRUE)
dir <- args[length(args)]
suppressMessages({
    library(mlbench)
    library(caret)
    library(kernlab)
})
# LIBSVM lines "label index:value ..." (1-based indices, zeros left out, 15 significant digits)
write_libsvm <- function(x, y, name) {
    x <- as.matrix(x)
    storage.mode(x) <- "double"
    lines <- vapply(seq_len(nrow(x)), function(i) {
        v <- x[i, ]
        nz <- which(v != 0)
        paste(c(format(y[i]), sprintf("%d:%.15g", nz, v[nz])), collapse = " ")
    }, "")
    writeLines(lines, file.path(dir, name))
    cat(sprintf("%s: %d rows, %d features\n", name, nrow(x), ncol(x)))
}
set.seed(20100501)

data(Ionosphere)
x <- Ionosphere[, setdiff(names(Ionosphere), c("V2", "Class"))]
x$V1 <- as.numeric(as.character(x$V1))
write_libsvm(x, ifelse(Ionosphere$Class == "good", 1, -1), "ionosphere.libsvm")

data(GermanCredit)
x <- GermanCredit[, setdiff(names(GermanCredit), "Class")]
x <- x[, vapply(x, function(v) var(v) > 0, TRUE)]
x <- as.data.frame(lapply(x, function(v) 2 * (v - min(v)) / (max(v) - min(v)) - 1))
write_libsvm(x, ifelse(GermanCredit$Class == "Good", 1, -1), "german.libsvm")

data(spam)
rows <- sort(sample(nrow(spam), 1000))
x <- spam[rows, setdiff(names(spam), "type")]
write_libsvm(x, ifelse(spam$type[rows] == "spam", 1, -1), "spam.libsvm")

data(DNA)
rows <- sort(sample(nrow(DNA), 1000))
x <- DNA[rows, setdiff(names(DNA), "Class")]
x <- as.data.frame(lapply(x, function(v) as.numeric(as.character(v))))
write_libsvm(x, ifelse(DNA$Class[rows] == "n", -1, 1), "splice.libsvm")
R
for f in ionosphere german spam splice; do
    [ -s "$1/$f.libsvm" ] || { echo "$0: $1/$f.libsvm was not written" >&2; exit 1; }
done
