#!/bin/sh
# Writes the DNA sequence data sets of the localized-MKL experiments from Debian's R packages as
# labelled sequences ("LABEL<TAB>SEQUENCE", one per line; docs/kernels.md "Sequence data") under DIR:
#   dna.seq        r-cran-mlbench DNA (splice junctions), 3186 sequences of 60 nucleotides decoded from
#                  the 180 binary indicator columns (nucleotide k in columns 3k-2..3k: A = 100,
#                  C = 010, G = 001, T = 000); label ei (donor) = 1, ie (acceptor) = 2, n = 3
#   dna-bin.seq    the same rows, label ei or ie (a splice junction) = +1, n = -1
#   promoters.seq  r-cran-kernlab promotergene (E. coli promoters), 106 sequences of 57 nucleotides in
#                  upper case; label + = +1, - = -1
# Rows keep the packages' order. Needs Rscript (r-base-core) and r-cran-mlbench, r-cran-kernlab.
# Usage: scripts/export-r-sequences.sh DIR
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
    library(kernlab)
})
write_sequences <- function(labels, sequences, name) {
    writeLines(paste(labels, sequences, sep = "\t"), file.path(dir, name))
    cat(sprintf("%s: %d sequences of length %d\n", name, length(sequences), nchar(sequences[1])))
}

data(DNA)
bits <- as.matrix(as.data.frame(lapply(DNA[, setdiff(names(DNA), "Class")], function(v) as.numeric(as.character(v)))))
codes <- bits[, seq(1, 180, 3)] * 4 + bits[, seq(2, 180, 3)] * 2 + bits[, seq(3, 180, 3)]
letters <- matrix(c(T = "T", G = "G", C = "C", X = "?", A = "A")[codes + 1], nrow = nrow(codes))
if (any(letters == "?", na.rm = TRUE) || anyNA(letters)) stop("DNA: an indicator triple is not 100, 010, 001 or 000")
dna <- apply(letters, 1, paste, collapse = "")
class <- as.character(DNA$Class)
write_sequences(c(ei = "1", ie = "2", n = "3")[class], dna, "dna.seq")
write_sequences(ifelse(class == "n", "-1", "+1"), dna, "dna-bin.seq")

data(promotergene)
nucleotides <- as.matrix(promotergene[, setdiff(names(promotergene), "Class")])
promoters <- toupper(apply(nucleotides, 1, paste, collapse = ""))
write_sequences(ifelse(as.character(promotergene$Class) == "+", "+1", "-1"), promoters, "promoters.seq")
R
for f in dna dna-bin promoters; do
    [ -s "$1/$f.seq" ] || { echo "$0: $1/$f.seq was not written" >&2; exit 1; }
done
