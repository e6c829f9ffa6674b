# "Did you mean": an unknown option of every subcommand, an unknown command, kernel spec key, kernel
# type or option value is one line naming the nearest known word; nothing near gives no guess. The
# SimpleMKL message speaks the p the user gave.
. "$(dirname "$0")/lib.sh" "$@"

head -n 40 "$DATA/heart_scale" >"$WORK/train"

# guess STATUS PATTERN COMMAND...: COMMAND fails with STATUS and one line on stderr matching PATTERN
guess() {
    want=$1
    pattern=$2
    shift 2
    expect_status "$want" "$@" && expect_one_line_error "$pattern"
}
guess 2 "^kernelmix train: unknown option --gama; did you mean '--gamma'\? \(see kernelmix train --help\)$" \
    "$KM" train --gama 1 "$WORK/train"
guess 2 "unknown option --kernal; did you mean '--kernel'\?" "$KM" train --kernal rbf "$WORK/train"
guess 2 "unknown option --lable-column; did you mean '--label-column'\?" "$KM" train --lable-column 1 "$WORK/train"
guess 2 "^kernelmix predict: unknown option --decision-value; did you mean '--decision-values'\?" \
    "$KM" predict --decision-value "$WORK/train" m out
guess 2 "^kernelmix info: unknown option --jsno; did you mean '--json'\?" "$KM" info --jsno m
guess 2 "^kernelmix kernel: unknown option --fromat; did you mean '--format'\?" "$KM" kernel --fromat csv
guess 2 "^kernelmix: unknown command 'trian'; did you mean 'train'\?" "$KM" trian
guess 2 "^kernelmix train: unknown option --frobnicate \(see kernelmix train --help\)$" \
    "$KM" train --frobnicate "$WORK/train"
guess 2 "^kernelmix: unknown command 'zzz' \(see" "$KM" zzz

guess 2 "unknown key 'gama'; did you mean 'gamma'\?$" "$KM" train --kernel 'rbf:gama=1' "$WORK/train" "$WORK/m"
guess 2 "unknown key 'degre'; did you mean 'degree'\?$" "$KM" kernel --list --kernel 'poly:degre=2'
guess 2 "unknown kernel type 'rfb' \(linear, .*\); did you mean 'rbf'\?$" "$KM" train --kernel 'rfb' "$WORK/train" "$WORK/m"
guess 2 "unknown kernel type 'gauss' \(linear, poly, rbf, sigmoid, chi2, histint, precomputed\)$" \
    "$KM" train --kernel 'gauss' "$WORK/train" "$WORK/m"
guess 2 "unknown key 'gama'; did you mean 'gamma'\?$" "$KM" kernel --list --kernel 'rbf:gama=1'
guess 2 "option --solver: 'silpp' is not interleaved, wrapper, silp, simplemkl, simplex or pegasos; did you mean 'silp'\?$" \
    "$KM" train --solver silpp "$WORK/train"
guess 2 "option --mkl: 'elastcnet' is not .*; did you mean 'elasticnet'\?$" "$KM" train --mkl elastcnet "$WORK/train"
[ -e "$WORK/m" ] && fail "a model was written after a bad spec"

# SimpleMKL solves p = 1: the message names the convention the user wrote
guess 2 "SimpleMKL solves p = 1 only \(got p = 2\)" "$KM" train --solver simplemkl --p 2 "$WORK/train" "$WORK/m"
guess 2 "SimpleMKL solves p = 1 only \(got p = inf\)" "$KM" train --solver simplemkl --p inf "$WORK/train" "$WORK/m"
guess 2 "SimpleMKL solves p-block = 1 only \(got p-block = 1.5\)" \
    "$KM" train --solver simplemkl --p-block 1.5 "$WORK/train" "$WORK/m"
finish
