# What is printed or written is never nan or inf: a figure that is undefined for the rows at hand is
# printed as "undefined (reason)" (the squared correlation of a constant regression target, in
# predict and in train -v; the AUC of test labels of one class; the MKL duality gap of a constant
# target, whose objectives are both 0), and values that overflow are refused
# with one line and exit status 2 rather than written (kernel matrices, text or binary; predictions).
. "$(dirname "$0")/lib.sh" "$@"

W=$WORK
cd "$W" || exit 1
# no_nan FILE...: no nan or inf in the files (info's "(p inf)", the norm p = infinity, is a name)
no_nan() {
    for f in "$@"; do
        sed 's/(p inf)//g' "$f" | grep -Eiq '(^|[^a-z])(-?nan|-?inf)([^a-z]|$)' &&
            fail "$f holds nan or inf: $(grep -Ei 'nan|inf' "$f" | head -n 2)"
    done
}

# regression: targets that vary for training, a constant target for testing
awk '{ $1 = NR % 7 / 3; print }' "$DATA/heart_scale" | head -n 80 >reg_train
sed -n '81,100p' "$DATA/heart_scale" | awk '{ $1 = 2.5; print }' >reg_const
expect_status 0 "$KM" train -q -s 3 reg_train reg.model || exit 1
expect_status 0 "$KM" predict reg_const reg.model pred
grep -q '^Squared correlation coefficient = undefined (constant target)$' out ||
    fail "constant target: '$(cat out)'"
grep -Eq '^Mean squared error = [0-9.e+-]+ \(regression\)$' out || fail "constant target: no mean squared error: '$(cat out)'"
no_nan out pred
# varying targets still give the number
sed -n '81,100p' "$DATA/heart_scale" | awk '{ $1 = NR % 5; print }' >reg_test
expect_status 0 "$KM" predict reg_test reg.model pred
grep -Eq '^Squared correlation coefficient = [0-9.e+-]+ \(regression\)$' out || fail "varying target: '$(cat out)'"
# cross-validation on a constant target
awk '{ $1 = 1.5; print }' reg_train >reg_train_const
expect_status 0 "$KM" train -q -s 3 -v 3 reg_train_const
grep -q '^Cross Validation Squared correlation coefficient = undefined (constant target)$' out ||
    fail "train -v on a constant target: '$(cat out)'"
no_nan out
# lp-norm MKL on a constant target: the bias fits it, primal = dual = 0, a duality gap of 0 (not 0/0)
expect_status 0 "$KM" train -s 3 --kernel rbf --kernel linear --mkl lp reg_train_const const.model
no_nan out err
expect_status 0 "$KM" info const.model && { grep -q 'duality gap 0 ' out || fail "constant target, lp MKL: $(grep gap out)"; }
no_nan out

# binary classification: test rows of one class have no AUC
head -n 80 "$DATA/heart_scale" >cls_train
grep '^+1' "$DATA/heart_scale" | tail -n 15 >one_class
expect_status 0 "$KM" train -q cls_train cls.model
expect_status 0 "$KM" predict one_class cls.model pred
grep -q '^AUC = undefined (the test labels hold one class)$' out || fail "one-class test labels: '$(cat out)'"
grep -q '^Accuracy = ' out || fail "one-class test labels: no accuracy"
no_nan out pred

# kernel values that overflow: refused, text and binary, nothing written
printf '1 1:1\n-1 1:2\n' >small
printf '1 1:1e100\n-1 1:2\n' >huge
for format in --text ""; do
    # shellcheck disable=SC2086
    expect_status 2 "$KM" kernel $format --kernel poly:degree=5:norm=none --test huge small K.out &&
        expect_one_line_error "row 1 of huge and row 1 of small is inf: the kernel overflows double precision"
    [ -e K.out ] && fail "kernel $format: an overflowing matrix was written"
done
# predictions whose kernel values overflow: refused, nothing written
expect_status 0 "$KM" train -q -t 1 -d 5 -g 1 -r 0 small poly.model
rm -f pred
expect_status 2 "$KM" predict huge poly.model pred && expect_one_line_error "huge: row 1: decision value .* is not finite"
[ -e pred ] && fail "predictions of overflowing kernel values were written"
finish
