# B^k wherever the command line takes a number (LIBSVM's grid habit, as the kernel specs accept it):
# the same model as the decimal value, for doubles and integers alike; malformed powers and
# non-integral integers are refused with one line.
. "$(dirname "$0")/lib.sh" "$@"
head -n 150 "$DATA/heart_scale" >"$WORK/heart"

same_model() {
    # same_model 'DECIMAL OPTIONS' 'POWER OPTIONS'
    expect_status 0 "$KM" train -q $1 "$WORK/heart" "$WORK/decimal.model" || return
    expect_status 0 "$KM" train -q $2 "$WORK/heart" "$WORK/power.model" || return
    cmp -s "$WORK/decimal.model" "$WORK/power.model" || fail "'$2' trains another model than '$1'"
}
same_model "-c 8 -g 0.0625" "-c 2^3 -g 2^-4"
same_model "-s 3 -p 0.25 -c 0.5" "-s 3 -p 2^-2 -c 2^-1"
same_model "-s 2 -n 0.125" "-s 2 -n 2^-3"
same_model "-s 1 -n 0.5 -e 0.001" "-s 1 -n 2^-1 -e 10^-3"
same_model "-t 1 -d 3 -r 1 -g 0.5" "-t 1 -d 3^1 -r 2^0 -g 4^-0.5"
same_model "-w1 4 -m 128" "-w1 2^2 -m 2^7"
same_model "--kernel rbf:gamma=1,2 --weights 0.25,0.75" "--kernel rbf:gamma=1,2 --weights 2^-2,0.75"
same_model "--kernel rbf:gamma=1,2 --mkl lp --p 4" "--kernel rbf:gamma=1,2 --mkl lp --p 2^2"

# integers: -v 2^2 is 4 folds; a fraction is not an integer
expect_status 0 "$KM" train -v 2^2 "$WORK/heart" && grep -q '^Cross Validation Accuracy' "$WORK/out" ||
    fail "-v 2^2 did not cross-validate"
expect_status 2 "$KM" train -v 2^0.5 "$WORK/heart" && expect_one_line_error "option -v: '2\^0.5' is not an integer"
expect_status 2 "$KM" train -t 2^3 "$WORK/heart" && expect_one_line_error "option -t: 8 is out of range"
# malformed powers and values beyond double
for bad in 2^ ^3 2^x 2^3^4; do
    expect_status 2 "$KM" train -c "$bad" "$WORK/heart" "$WORK/bad.model" &&
        expect_one_line_error "option -c: '.*' is not a number"
done
for bad in -2^2 0^1; do
    expect_status 2 "$KM" train -c "$bad" "$WORK/heart" "$WORK/bad.model" &&
        expect_one_line_error "option -c: '.*' is a power BASE\\^EXPONENT whose base is not positive"
done
expect_status 2 "$KM" train -c 10^400 "$WORK/heart" "$WORK/bad.model" &&
    expect_one_line_error "option -c: '10\\^400' is not finite"
expect_status 2 "$KM" train -v 1e400 "$WORK/heart" && expect_one_line_error "option -v: '1e400' is not finite"
expect_status 2 "$KM" train -v 2^70 "$WORK/heart" && expect_one_line_error "option -v: 2\\^70 is out of range"
[ -e "$WORK/bad.model" ] && fail "a model was written despite a malformed number"
# the other commands that take numbers: scale's intervals and bound's figures
expect_status 0 "$KM" scale -l 0.5 -u 2 -y 0 10 "$WORK/heart" "$WORK/decimal.scaled"
expect_status 0 "$KM" scale -l 2^-1 -u 2^1 -y 0 10^1 "$WORK/heart" "$WORK/power.scaled" &&
    { cmp -s "$WORK/decimal.scaled" "$WORK/power.scaled" || fail "scale with B^k intervals differs"; }
expect_status 0 "$KM" bound rademacher --m 100 --traces 1,2,3 --q 2 && cp "$WORK/out" "$WORK/decimal.bound"
expect_status 0 "$KM" bound rademacher --m 10^2 --traces 2^0,2,3 --q 2^1 &&
    { cmp -s "$WORK/decimal.bound" "$WORK/out" || fail "bound with B^k figures differs: $(cat "$WORK/out")"; }
finish
