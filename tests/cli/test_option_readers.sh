# An option the run would ignore is refused (exit 2, one line, no model), naming the kernel-weight
# methods (--mkl) or tasks (-s) that read it (or, when most methods read it, those that do not);
# options every task and method reads never are.
. "$(dirname "$0")/lib.sh" "$@"
TRAIN="$DATA/heart_scale"
[ -f "$TRAIN" ] || { echo "skipped: no $TRAIN" >&2; exit 77; }

refused() {
    pattern=$1
    shift
    rm -f "$WORK/m"
    if expect_status 2 "$KM" train -q "$@" "$TRAIN" "$WORK/m"; then
        expect_one_line_error "$pattern"
    fi
    [ -e "$WORK/m" ] && fail "a model was written: $*"
}
# the accepted runs train on 60 rows: what they check is that no option is refused or warned about
head -n 60 "$TRAIN" >"$WORK/small"
accepted() {
    expect_status 0 "$KM" train -q "$@" "$WORK/small" "$WORK/ok" && [ -s "$WORK/err" ] && fail "warned: $* : $(cat "$WORK/err")"
}
K2="--kernel linear --kernel rbf:gamma=0.1"

# --- method options with another method ---
refused "^kernelmix train: --shared-weights is read by --mkl lp only \(this run uses --mkl fixed\)$" --shared-weights --mkl fixed $K2
refused "^kernelmix train: --shared-weights is read by --mkl lp only \(this run uses --mkl fixed\)$" --shared-weights $K2
refused "--p is read by --mkl lp, obscure, clmkl, hlmkl only \(this run uses --mkl fixed\)" --mkl fixed --p 2 $K2
refused "--p is read by --mkl lp, obscure, clmkl, hlmkl only \(this run uses --mkl elasticnet\)" --mkl elasticnet --p 2 $K2
refused "--lambda is read by --mkl elasticnet, tikhonov only \(this run uses --mkl lp\)" --mkl lp --lambda 0.3 $K2
refused "--solver is read by --mkl lp, elasticnet, obscure, clmkl, hlmkl only \(this run uses --mkl tikhonov\)" --mkl tikhonov --solver silp $K2
refused "--mkl-theta-eps is read by --mkl lp, elasticnet only \(this run uses --mkl align\)" --mkl align --mkl-theta-eps 0.1 $K2
refused "^kernelmix train: --max-time is not read by --mkl fixed \(this run uses --mkl fixed\)$" --max-time 10 $K2
refused "--epochs is read by --mkl obscure only \(this run uses --mkl lp\)" --mkl lp --epochs 2 $K2
refused "--ae is read by --mkl clmkl only \(this run uses --mkl hlmkl\)" --mkl hlmkl --ae 0.5 $K2
refused "--eb-inner is read by --mkl eb-rw only \(this run uses --mkl eb-mackay\)" -s krr --mkl eb-mackay --eb-inner 3 $K2
refused "--eta is read by --mkl l2krr only \(this run uses --mkl l1krr\)" -s krr --mkl l1krr --eta 0.5 $K2
# the empirical-Bayes methods weigh the data against the noise, without C
refused "^kernelmix train: -c is not read by --mkl eb-rw, eb-mackay \(this run uses --mkl eb-rw\)$" -s krr --mkl eb-rw -c 2 $K2
refused "--ridge is not read by --mkl eb-rw, eb-mackay \(this run uses --mkl eb-mackay\)" -s krr --mkl eb-mackay --ridge 2 $K2
# --- task options with another task (the option as written) ---
refused "^kernelmix train: -c is read by -s svc, svr, nu-svr, krr only \(this run uses -s oneclass\)$" -s 2 -c 3
refused "--C is read by -s svc, svr, nu-svr, krr only \(this run uses -s nu-svc\)" -s nu-svc --C 3
refused "^kernelmix train: -p is read by -s svr only \(this run uses -s svc\)$" -p 0.2
refused "--epsilon is read by -s svr only \(this run uses -s nu-svr\)" -s 4 --epsilon 0.2
refused "-n is read by -s oneclass, nu-svc, nu-svr only \(this run uses -s svc\)" -n 0.3
refused "--no-bias is read by -s svc, svr, krr only \(this run uses -s nu-svr\)" -s 4 --no-bias
refused "--multiclass is read by -s svc, nu-svc only \(this run uses -s krr\)" -s krr --multiclass ovr

# --- the options a run reads, and those every run reads ---
accepted --p 2 $K2
accepted --mkl lp --shared-weights --p 4/3 --solver wrapper --mkl-eps 0.01 --max-outer 50 --max-time 100 $K2
accepted --mkl elasticnet --lambda 0.3 --mkl-theta-eps 0.1 $K2
accepted --mkl tikhonov --regularizer elasticnet --lambda 0.3 $K2
accepted -s krr --mkl l2krr --eta 0.5 --mu0 uniform --radius 2 $K2
accepted -s krr --mkl eb-rw --eb-inner 3 --noise 0.2 $K2
accepted -s nu-svc -n 0.3 --multiclass ovr
accepted -s svr -p 0.2 -c 2
accepted -s krr --ridge 0.5 --no-bias
accepted -c 2 -e 0.01 -m 20 -h 0 --max-iter 100000 --seed 3 --cache-float
# --cache-values also says how every method's low-rank kernels keep their features
accepted --mkl lp --cache-float --kernel 'rbf:gamma=2^-1..2^1/mean:rank=20'
accepted --mkl lp -c 2 -e 0.01 -m 20 -h 0 --max-iter 100000 --seed 3 --verbose $K2

finish
