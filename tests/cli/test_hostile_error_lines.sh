# Errors are one line with the file and the problem, never a bare status name or a second line:
# sizes beyond the data (--clusters above the rows, in cluster and train) are refused naming the data
# file before anything of their size is allocated; a refused output is reported once and left as it
# was; class weights name a class of the data; numbers say what is wrong with them (subnormal, not
# finite, division by zero); --variance's failures name the model. Every refusal exits with status 2
# and writes nothing.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(0)
X = rng.normal(size=(30, 2))
y = np.where(X[:, 0] > 0, 1, -1)
open(sys.argv[1] + "/c", "w").write("".join("%d 1:%.4f 2:%.4f\n" % (y[i], X[i, 0], X[i, 1]) for i in range(30)))
open(sys.argv[1] + "/r", "w").write("".join("%.4f 1:%.4f 2:%.4f\n" % (X[i, 0], X[i, 0], X[i, 1]) for i in range(30)))
PY
K="--kernel linear --kernel rbf:gamma=1"

# refused PATTERN COMMAND...: status 2, one line "kernelmix CMD: ..." matching PATTERN, no status name
refused() {
    local pattern=$1
    shift
    if expect_status 2 "$KM" "$@"; then
        expect_one_line_error "^kernelmix $1: $pattern"
        grep -q "KM_E[A-Z]*" "$WORK/err" && fail "$*: a status name: $(cat "$WORK/err")"
    fi
    [ -s "$WORK/out" ] && fail "$*: wrote to stdout: $(head -c 200 "$WORK/out")"
    return 0
}

# clusters beyond the rows (10^12 used to be tried as n x 10^12 memberships)
for l in 1000000000000 10^12 31; do
    refused "$WORK/c: --clusters (1000000000000|31): kernel k-means needs 1 to 30 clusters for its 30 rows" \
        cluster $K --clusters $l "$WORK/c" "$WORK/memberships"
    [ -e "$WORK/memberships" ] && fail "cluster --clusters $l wrote memberships"
done
for method in clmkl hlmkl; do
    refused "$WORK/c: --clusters 1000000000000: kernel k-means needs 1 to 30 clusters" \
        train -q $K --mkl $method --clusters 10^12 "$WORK/c" "$WORK/m.km"
    [ -e "$WORK/m.km" ] && fail "train --mkl $method --clusters 10^12 wrote a model"
done

refused "$WORK/c: 31-fold cross-validation needs 2 to 30 folds \\(at most one per row\\)" train -q -v 31 "$WORK/c"

# an output that is an input (here the clustering's precomputed kernel) is refused once, and kept
expect_status 0 "$KM" kernel --kernel linear "$WORK/c" "$WORK/K.bin"
cp "$WORK/K.bin" "$WORK/K.copy"
refused "output $WORK/K.bin is the same file as the input $WORK/K.bin" \
    cluster --kernel "precomputed:file=$WORK/K.bin" --clusters 2 "$WORK/c" "$WORK/K.bin"
cmp -s "$WORK/K.bin" "$WORK/K.copy" || fail "the kernel file was changed"

# class weights name a class of the data (training and cross-validation), and only classifiers have them
refused "$WORK/c: -w7: no row has class 7 \\(the classes are (1, -1|-1, 1)\\)" train -q -w7 2 "$WORK/c" "$WORK/m.km"
refused "$WORK/c: -w0.5: no row has class 0.5" train -q -w1 2 -w0.5 3 "$WORK/c" "$WORK/m.km"
refused "$WORK/c: -w7: no row has class 7" train -q -v 3 -w7 2 "$WORK/c"
refused "-w1: class weights are for classifiers; epsilon-SVR has no classes" train -q -s 3 -w1 2 "$WORK/r" "$WORK/m.km"
[ -e "$WORK/m.km" ] && fail "a model was written despite a bad class weight"
expect_status 0 "$KM" train -q -w1 2 -w-1 0.5 "$WORK/c" "$WORK/m.km" || fail "weights of existing classes refused"

# --variance: a failure of the model names the model, one of the test rows names the test file
expect_status 0 "$KM" train -q -s krr --mkl eb-mackay --kernel linear:center=1 --kernel rbf:gamma=1 "$WORK/r" "$WORK/eb.km"
refused "$WORK/eb.km: kernel linear:center=1: the predictive variance needs k\\(x, x\\) of new rows" \
    predict -q --variance "$WORK/r" "$WORK/eb.km" "$WORK/variance"
[ -e "$WORK/variance" ] && fail "predict --variance wrote predictions it refused"

# numbers: what is wrong with them
refused "option -c: '1e-320' is below the smallest positive normal double, about 2.2e-308 \\(subnormal" \
    train -q -c 1e-320 "$WORK/c" "$WORK/n.km"
refused "option -g: '2\\^-1100' is below the smallest positive normal double" train -q -g 2^-1100 "$WORK/c" "$WORK/n.km"
refused "option -m: '1e999' is not finite" train -q -m 1e999 "$WORK/c" "$WORK/n.km"
refused "option --p: 1/0: division by zero" train -q $K --mkl lp --p 1/0 "$WORK/c" "$WORK/n.km"
refused "option --p-block: 0/0: division by zero" train -q $K --mkl lp --p-block 0/0 "$WORK/c" "$WORK/n.km"
refused "option --p: 1e300/1e-300 is not finite" train -q $K --mkl lp --p 1e300/1e-300 "$WORK/c" "$WORK/n.km"
refused "option --p: 1/3 is below 1" train -q $K --mkl lp --p 1/3 "$WORK/c" "$WORK/n.km"
refused "option --seed: '1e400' is not finite" train -q --seed 1e400 "$WORK/c" "$WORK/n.km"
refused "option --tau: '-2\\^2' is a power BASE\\^EXPONENT whose base is not positive" \
    cluster $K --tau -2^2 "$WORK/c"
refused "kernel spec 'rbf:gamma=1e-320': gamma: bad value '1e-320': below the smallest positive normal double" \
    train -q --kernel rbf:gamma=1e-320 "$WORK/c" "$WORK/n.km"
[ -e "$WORK/n.km" ] && fail "a model was written despite a bad number"
expect_status 0 "$KM" train -q $K --mkl lp --p 4/3 "$WORK/c" "$WORK/n.km" || fail "--p 4/3 refused"
finish
