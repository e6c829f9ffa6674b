# Labelled sequences through the CLI: formats by name and by --format, the alphabet check (one line
# naming file, line, column and character; exit 2; no output), string kernels in train, predict, info
# and kernel, and their values against hand-counted ones.
. "$(dirname "$0")/lib.sh" "$@"

# a motif GATTACA at position 6 marks class +1
printf '+1\tACGTCGATTACAGT\n-1\tACGTCGTTAGCAGT\n+1\tTTGACGATTACACC\n-1\tTTGACGGATCCACC\n+1\tCAGGTGATTACAGA\n-1\tCAGGTGCTTAGAGA\n' >"$WORK/train.seq"
printf '>+1 first\nACGTCGAT\nTACAGT\n>-1\nACGTCGTTAGCAGT\n' >"$WORK/test.fa"

expect_status 0 "$KM" train -q --kernel 'wd:degree=4:norm=spherical' --kernel 'spectrum:k=3' "$WORK/train.seq" \
    "$WORK/wd.model" || fail "train on LABEL<TAB>SEQUENCE lines"
expect_status 0 "$KM" predict "$WORK/test.fa" "$WORK/wd.model" "$WORK/test.pred" || fail "predict on FASTA"
[ "$(tr '\n' ' ' <"$WORK/test.pred")" = "1 -1 " ] || fail "predictions $(cat "$WORK/test.pred") (expected 1 -1)"
grep -q '^storage strings$' "$WORK/wd.model" || fail "the model does not store string rows"
grep -q '"ACGTCGATTACAGT"$' "$WORK/wd.model" || fail "the model does not store the support vector strings"
expect_status 0 "$KM" info "$WORK/wd.model" && grep -q 'spectrum:k=3' "$WORK/out" || fail "info names spectrum:k=3"

# kernel values: ACGTCGATTACAGT and ACGTCGTTAGCAGT agree at positions 1-6, 8 and 11-14: runs of 6, 1
# and 4 give 5 + 0 + 3 = 8 matching 2-mers at equal positions (positional, degree 2); the 2-mers of
# the first, AC CG GT TC CG GA AT TT TA AC CA AG GT, are AC, CG, GT twice and 7 others once, so the
# spectrum k=2 of the first with itself is 3 * 4 + 7 = 19
head -2 "$WORK/train.seq" >"$WORK/two.seq"
expect_status 0 "$KM" kernel --text --kernel 'pos:degree=2' --kernel 'spectrum:k=2' "$WORK/two.seq" "$WORK/K.txt" ||
    fail "kernel matrices of string kernels"
[ "$(sed -n 1p "$WORK/K.1.txt" | cut -d' ' -f4)" = 2:8 ] || fail "positional degree 2: $(cat "$WORK/K.1.txt")"
[ "$(sed -n 1p "$WORK/K.2.txt" | cut -d' ' -f3)" = 1:19 ] || fail "spectrum k=2: $(cat "$WORK/K.2.txt")"

# other names with --format seq; another alphabet
cp "$WORK/train.seq" "$WORK/train.txt"
expect_status 0 "$KM" train -q --format seq --kernel 'pos:degree=1..3' "$WORK/train.txt" "$WORK/f.model" ||
    fail "--format seq"
printf '1\tACGN\n-1\tACGA\n' >"$WORK/n.seq"
expect_status 0 "$KM" train -q --alphabet ACGTN --kernel 'wd:degree=2' "$WORK/n.seq" "$WORK/n.model" ||
    fail "--alphabet ACGTN"

# refusals: one line, exit 2, nothing written
expect_status 2 "$KM" train -q --kernel wd "$WORK/n.seq" "$WORK/x.model" &&
    expect_one_line_error "^kernelmix train: .*n\.seq:1:6: character 'N' is not in the alphabet ACGT$"
printf '>1\nACGT\n>2\nAC-T\n' >"$WORK/gap.fa"
expect_status 2 "$KM" train -q --kernel wd "$WORK/gap.fa" "$WORK/x.model" &&
    expect_one_line_error "gap\.fa:4:3: character '-' is not in the alphabet ACGT$"
printf '1 ACGT\n' >"$WORK/space.seq"
expect_status 2 "$KM" train -q --kernel wd "$WORK/space.seq" "$WORK/x.model" &&
    expect_one_line_error "space\.seq:1: expected LABEL<TAB>SEQUENCE \(no tab on the line\)$"
expect_status 2 "$KM" predict "$WORK/n.seq" "$WORK/wd.model" "$WORK/x.pred" &&
    expect_one_line_error "n\.seq:1:6: character 'N'"
expect_status 2 "$KM" train -q --kernel rbf "$WORK/train.seq" "$WORK/x.model" || fail "rbf on strings is refused"
expect_status 2 "$KM" train -q --kernel 'spectrum:k=0' "$WORK/train.seq" "$WORK/x.model" &&
    expect_one_line_error "k must be a positive integer"
[ -e "$WORK/x.model" ] || [ -e "$WORK/x.pred" ] && fail "output written for refused sequences"
finish
