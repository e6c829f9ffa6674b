# Every subcommand counts its positional arguments the same way: one too many, or one missing, is a
# one-line error naming it, with exit status 2, nothing on stdout and no output file.
. "$(dirname "$0")/lib.sh" "$@"

DATA="$ROOT/examples/data/heart_scale"
OUT="$WORK/outputs"
mkdir "$OUT"

# refuse MESSAGE ARGS...: `kernelmix ARGS...` fails with MESSAGE and leaves $OUT empty
refuse() {
    message="$1"
    shift
    expect_status 2 "$KM" "$@" && expect_one_line_error "$message"
    [ -s "$WORK/out" ] && fail "$*: wrote on stdout"
    [ -z "$(ls -A "$OUT")" ] || fail "$*: left $(ls -A "$OUT")"
}

refuse "^kernelmix train: unexpected argument 'extra' \(see kernelmix train --help\)$" \
    train -c 1 "$DATA" -q "$OUT/model" extra
refuse "^kernelmix train: missing TRAIN_FILE \(see kernelmix train --help\)$" train -c 1
refuse "^kernelmix predict: unexpected argument 'extra' \(see kernelmix predict --help\)$" \
    predict "$DATA" model "$OUT/predictions" extra
refuse "^kernelmix predict: expected TEST_FILE MODEL_FILE OUTPUT_FILE \(see kernelmix predict --help\)$" \
    predict "$DATA" model
refuse "^kernelmix info: unexpected argument 'b' \(see kernelmix info --help\)$" info --json a b
refuse "^kernelmix info: unexpected argument 'b' \(see kernelmix info --help\)$" info -- a b
refuse "^kernelmix info: missing MODEL_FILE \(see kernelmix info --help\)$" info --json
refuse "^kernelmix kernel: unexpected argument 'extra' \(see kernelmix kernel --help\)$" \
    kernel --kernel linear "$DATA" "$OUT/K" extra
refuse "^kernelmix kernel: expected TRAIN_FILE OUTPUT \(see kernelmix kernel --help\)$" kernel --kernel linear "$DATA"
refuse "^kernelmix kernel: --list takes at most TRAIN_FILE$" kernel --list --kernel linear "$DATA" "$OUT/K"
refuse "^kernelmix scale: unexpected argument 'extra' \(see kernelmix scale --help\)$" \
    scale "$DATA" "$OUT/scaled" extra
refuse "^kernelmix scale: missing DATA_FILE \(see kernelmix scale --help\)$" scale -l 0
refuse "^kernelmix bound: unexpected argument 'extra' \(see kernelmix bound --help\)$" \
    bound margin "$DATA" extra --kernel linear --rho 1
refuse "^kernelmix bound: missing KIND \(see kernelmix bound --help\)$" bound --m 10
refuse "^kernelmix cluster: unexpected argument 'extra' \(see kernelmix cluster --help\)$" \
    cluster --kernel linear "$DATA" "$OUT/clusters" extra
refuse "^kernelmix cluster: missing TRAIN_FILE \(see kernelmix cluster --help\)$" cluster --kernel linear
refuse "^kernelmix plot: unexpected argument 'extra' \(see kernelmix plot --help\)$" \
    plot weights model "$OUT/weights.svg" extra
refuse "^kernelmix plot: plot weights: missing its input file \(see kernelmix plot --help\)$" plot weights
refuse "^kernelmix plot: plot path: missing the models \(see kernelmix plot --help\)$" plot path -o "$OUT/path.svg"

# the positionals may stand anywhere among the options, and train's second is optional
expect_status 0 "$KM" train -q "$DATA" -c 1 "$OUT/model" -t 0 && [ -s "$OUT/model" ] ||
    fail "train with positionals among the options wrote no model"
finish
