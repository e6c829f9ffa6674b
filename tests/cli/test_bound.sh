# kernelmix bound: the golden values of the bounds of learning kernels (Rostamizadeh's thesis ch. 2,
# computed independently from the theorems' formulas), one JSON object per line, and refusals with one
# line on stderr and nothing on stdout.
. "$(dirname "$0")/lib.sh" "$@"

# bound KEY EXPECTED ARGS...: the JSON line of `kernelmix bound ARGS` has KEY within 1e-6 of EXPECTED
bound() {
    key="$1" expected="$2"
    shift 2
    expect_status 0 "$KM" bound "$@" || return
    [ "$(wc -l <"$WORK/out")" -eq 1 ] || fail "bound $*: not one line"
    got=$(json_get "$WORK/out" "j['$key']") || { fail "bound $*: no JSON key $key"; return; }
    near "$got" "$expected" 1e-6 || fail "bound $*: $key = $got, expected $expected"
}

# §2.2: m = 36,000, rho/R = 0.2, delta = 0.01; q = 1 (Thm 2.6) and q = 2 (Thm 2.8)
bound value 0.243368 margin --m 36000 --p 200 --rho 0.2 --delta 0.01
bound complexity 0.217633 margin --m 36000 --p 200 --rho 0.2 --delta 0.01
bound confidence 0.025735 margin --m 36000 --p 200 --rho 0.2 --delta 0.01
bound value 0.260805 margin --m 36000 --p 800 --rho 0.2 --delta 0.01
bound value 0.312333 margin --m 36000 --p 200 --rho 0.2 --delta 0.01 --q 2
bound value 0.431046 margin --m 36000 --p 800 --rho 0.2 --delta 0.01 --r 2
bound value 0.034081 margin --m 1000000 --p 10 --rho 0.2 --delta 0.01
bound value 0.030597 margin --m 1000000 --p 10 --rho 0.2 --delta 0.01 --q 2
# Srebro & Ben-David
bound value 14.406479 sbd --m 36000 --p 200 --rho 0.2
bound value 14.560209 sbd --m 36000 --p 800 --rho 0.2
bound value 1.077827 sbd --m 15000000 --p 10 --rho 0.2
bound value 3.531601 sbd --m 1000000 --p 10 --rho 0.2
# the same by the names that cannot be mistaken for train's --p
bound value 14.406479 sbd --samples 36000 --kernel-count 200 --rho 0.2
# Thm 2.5/2.7 on traces (4,3,2,1), m = 10
bound rademacher 0.323335 rademacher --m 10 --traces 4,3,2,1
bound r 1 rademacher --m 10 --traces 4,3,2,1
bound rademacher 0.338414 rademacher --m 10 --traces 4,3,2,1 --q 2
bound rademacher 0.381546 rademacher --m 10 --traces 4,3,2,1 --r 3
bound rademacher 0.425900 rademacher --m 10 --traces 4,3,2,1 --q 1.3333333333333333
# Thm 2.6 with R = 1, p = 4, m = 10
bound rademacher 0.753902 margin --m 10 --p 4 --rho 1
# Thm 2.9, Thm 2.4, Prop. 2.6 / Thm 2.10, Thm 2.11-2.13
bound value 0.045726 linear --m 1000 --r 4
bound kakade 0.054772 linear --m 1000 --r 4
bound beta 0.34 stability --m 1000 --p 100
bound term 53.353797 stability --m 1000 --p 100
bound term 213.337784 stability --m 1000 --p 100 --M 2
bound term 213.415188 stability --m 1000 --p 100 --M 2 --loss-bound M2
bound eta 1.048727 alignment --m 1000
bound rho 7.153333 alignment --m 1000 --beta 2
bound thm_2_11 0.75 predictor --alignment 0.5 --gamma 2 --eta 0.25
bound thm_2_13 0.75 predictor --alignment 0.5 --gamma 2 --eta 0.25

# R^2 and the traces from a data file and kernel specs, against numpy on the same kernels as used:
# linear centred (K_c = U K U), poly normalized by c = mean k(x,x) - mean k(x,x') (norm=mult) and rbf
"$PYTHON" -c "
import numpy as np
rng = np.random.default_rng(7)
X = rng.normal(size=(12, 3)); y = np.where(rng.normal(size=12) > 0, 1, -1)
np.savetxt('$WORK/data.csv', np.column_stack([y, X]), delimiter=',', fmt='%.17g')
n = len(X); U = np.eye(n) - 1.0 / n
G = X @ X.T
P = (G + 1) ** 2
sq = np.diag(G)
D = sq[:, None] + sq[None, :] - 2 * G
Ks = [U @ G @ U, P / (np.mean(np.diag(P)) - np.mean(P)), np.exp(-0.5 * D)]
print(max(np.diag(K).max() for K in Ks), *[np.trace(K) for K in Ks])
" >"$WORK/expected" || fail "numpy reference"
read -r R2 T1 T2 T3 <"$WORK/expected"
KERNELS="--kernel linear:center=1 --kernel poly:degree=2:gamma=1:coef0=1:norm=mult --kernel rbf:gamma=0.5"
# shellcheck disable=SC2086
bound R2 "$R2" margin "$WORK/data.csv" $KERNELS --rho 0.5 --label-column 1
k=0
for expected in "$T1" "$T2" "$T3"; do
    got=$(json_get "$WORK/out" "j['traces'][$k]")
    near "$got" "$expected" 1e-6 || fail "trace $k = $got, expected $expected"
    k=$((k + 1))
done
# m, p and the traces feed Thm 2.5 (q = 1) and Thm 2.7 (--q 2) as the numeric forms would
# shellcheck disable=SC2086
bound m 12 rademacher "$WORK/data.csv" $KERNELS --label-column 1
expected=$("$PYTHON" -c "
import math, sys
u = [float(t) for t in sys.argv[1:]]
print(math.sqrt(23 / 22 * 2 * math.sqrt(sum(t * t for t in u))) / 12)" "$T1" "$T2" "$T3")
# shellcheck disable=SC2086
bound rademacher "$expected" rademacher "$WORK/data.csv" $KERNELS --label-column 1 --q 2
# R^2 feeds Srebro-Ben-David (an explicit --R2 wins) and R = sqrt(R^2) the alignment bound
# sbd_from_numbers R2 ARGS...: the value of the numeric form with m = 36000, rho = 0.2 and that R^2
sbd_from_numbers() {
    r2="$1"
    shift
    "$KM" bound sbd --m 36000 --rho 0.2 --R2 "$r2" "$@" >"$WORK/numeric" || fail "sbd from numbers"
    json_get "$WORK/numeric" "j['value']"
}
# shellcheck disable=SC2086
bound value "$(sbd_from_numbers "$R2" --p 3)" sbd "$WORK/data.csv" $KERNELS --rho 0.2 --m 36000 --label-column 1
bound value "$(sbd_from_numbers 2 --p 1)" sbd "$WORK/data.csv" --kernel linear --rho 0.2 --m 36000 --R2 2 \
    --label-column 1
expected=$("$PYTHON" -c "
import math, sys
R4 = float(sys.argv[1]) ** 2
print(18 * R4 / 12 + 24 * R4 * math.sqrt(math.log(2 / 0.05) / 24))" "$R2")
# shellcheck disable=SC2086
bound eta "$expected" alignment "$WORK/data.csv" $KERNELS --label-column 1

# refusals: one line, exit 2, nothing on stdout
refuse() {
    pattern="$1"
    shift
    expect_status 2 "$KM" bound "$@" && expect_one_line_error "$pattern"
    [ -s "$WORK/out" ] && fail "bound $*: output on a refusal"
}
refuse "missing KIND"
refuse "unknown bound 'nonsense'" nonsense --m 10
refuse "margin needs --rho" margin --m 10 --p 2
refuse "the conjugate r = q/\(q-1\) = 1.5 is not an integer" margin --m 10 --p 2 --rho 1 --q 3
refuse "too small for the Srebro-Ben-David bound" sbd --m 2 --p 10 --rho 0.2
refuse "option --delta" alignment --m 10 --delta 2
refuse "--p 3 but --traces has 2 values" rademacher --m 10 --p 3 --traces 1,2
refuse "unknown option --frobnicate" margin --frobnicate 1
refuse "DATA needs its kernels" margin "$WORK/data.csv" --rho 1
refuse "--kernel and --kernels need a DATA file" margin --kernel linear --rho 1 --m 10
refuse "unexpected argument 'extra'" margin "$WORK/data.csv" extra --kernel linear --rho 1
refuse "--p 5 but the kernels give 1 values" margin "$WORK/data.csv" --kernel linear --rho 1 --p 5 --label-column 1
refuse "nonexistent" margin "$WORK/nonexistent.csv" --kernel linear --rho 1
expect_status 0 "$KM" bound --help && { grep -q "^usage: kernelmix bound" "$WORK/out" || fail "bound --help"; }
finish
