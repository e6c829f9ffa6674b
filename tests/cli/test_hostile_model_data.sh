# Edited [data ...] sections of models (checksum recomputed, tests/cli/forge_model.py): every index,
# count and shape of the clustering of localized models (clmkl, lmkl), the empirical-Bayes record, the
# OBSCURE record, the alignment statistics and the CSV layout is checked against the model's own sizes
# at load. info and predict refuse each forged model with status 2 and one line naming the file, the
# section and the entry (never the test data), and predict writes nothing; the unedited models work.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(0)
X = rng.normal(size=(40, 3))
y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, -1)
t = 2 * X[:, 0] + 0.1 * rng.normal(size=40)
rows = lambda labels: "".join("%s %s\n" % (labels[i], " ".join("%d:%.4f" % (j + 1, X[i, j]) for j in range(3)))
                              for i in range(40))
open(sys.argv[1] + "/c", "w").write(rows(["%d" % v for v in y]))
open(sys.argv[1] + "/r", "w").write(rows(["%.4f" % v for v in t]))
open(sys.argv[1] + "/c.csv", "w").write("".join("%d,%s\n" % (y[i], ",".join("%.4f" % v for v in X[i])) for i in range(40)))
PY
K="--kernel linear --kernel rbf:gamma=0.5 --kernel rbf:gamma=2"
expect_status 0 "$KM" train -q $K --mkl clmkl --clusters 2 "$WORK/c" "$WORK/cl.km"
expect_status 0 "$KM" train -q $K --mkl lmkl "$WORK/c" "$WORK/l.km"
expect_status 0 "$KM" train -q $K --mkl lmkl --cluster-kernel rbf:gamma=1 "$WORK/c" "$WORK/lz.km"
expect_status 0 "$KM" train -q -s krr $K --mkl eb-mackay "$WORK/r" "$WORK/eb.km"
expect_status 0 "$KM" train -q $K --mkl obscure --epochs 3 "$WORK/c" "$WORK/ob.km"
expect_status 0 "$KM" train -q $K --mkl lp "$WORK/c" "$WORK/lp.km"
expect_status 0 "$KM" train -q --label-column 1 "$WORK/c.csv" "$WORK/csv.km"

# refused MODEL SECTION KEY EDIT [ARG...]: the forged copy of MODEL is refused naming SECTION and KEY
refused() {
    local model=$1 section=$2 key=$3
    shift 3
    local forged="$WORK/forged.km"
    "$PYTHON" "$ROOT/tests/cli/forge_model.py" "$WORK/$model" "$forged" "$section" "$key" "$@" ||
        { fail "cannot forge $model $section $key $*"; return; }
    local data="$WORK/c"
    [ "$model" = eb.km ] && data="$WORK/r"
    [ "$model" = csv.km ] && data="$WORK/c.csv"
    rm -f "$WORK/pred"
    if expect_status 2 "$KM" info "$forged"; then
        expect_one_line_error "^kernelmix info: $forged: \[data $section\] $key: "
    fi
    if expect_status 2 "$KM" predict -q "$data" "$forged" "$WORK/pred"; then
        expect_one_line_error "^kernelmix predict: $forged: \[data $section\] $key: "
    fi
    [ -e "$WORK/pred" ] && fail "$model $section $key $*: predictions were written"
    grep -q "scale the features" "$WORK/err" && fail "$model $section $key $*: blamed on the data"
    return 0
}

# localized models: the clustering kernel, gates, memberships, labels and centres
refused l.km clusters cluster_kernel set 0 1000000
refused l.km clusters cluster_kernel set 0 -1
refused l.km clusters cluster_kernel set 0 1.5
refused l.km clusters cluster_only set 0 2
refused l.km clusters gated fill 0
refused l.km clusters gated set 1 0
refused lz.km clusters gated set 3 1
refused l.km clusters memberships set 0 -0.5
refused l.km clusters memberships fill 0.5
refused l.km clusters gating drop-row
refused l.km clusters gating_bias text
refused l.km clusters gating_bias remove
refused cl.km clusters cluster_kernel set 0 1000000
refused cl.km clusters labels set 3 5
refused cl.km clusters labels set 3 -1
refused cl.km clusters labels set 3 0.5
refused cl.km clusters centres set 1 -1
refused cl.km clusters centres set 1 0
refused cl.km clusters centres set 3 1000000
refused cl.km clusters centres drop-row
refused cl.km clusters tau set 0 -1
refused cl.km clusters hard set 0 0.5
refused cl.km clusters evenness set 0 2
refused cl.km clusters memberships text
refused cl.km clusters memberships drop-row
# empirical Bayes: noise, kernel count, machine index
refused eb.km eb noise_1 set 0 -1
refused eb.km eb kernels_kept_1 set 0 -1
refused eb.km eb kernels_kept_1 set 0 1.5
refused eb.km eb kernels_kept_1 set 0 99
refused eb.km eb kernels_kept_2 add 1
refused eb.km eb noise_1 text
# OBSCURE, the alignment statistics, the CSV layout
refused ob.km obscure weights remove
refused ob.km obscure weights set 0 -1
refused ob.km obscure support_rows set 0 1000000
refused ob.km obscure online_epochs set 0 -3
refused ob.km obscure unknown_figure add 1
refused lp.km target_alignment centred_sq set 0 -1
refused lp.km target_alignment labels set 0 1000000
refused lp.km target_alignment gram remove
refused csv.km input csv_label_column set 0 9
refused csv.km input csv_fields set 0 0.5

# a section of another method: [data clusters] in a model that keeps none
"$PYTHON" - "$WORK/lp.km" "$WORK/l.km" "$WORK/mixed.km" <<'PY'
import sys, zlib
lp = open(sys.argv[1], "rb").read(); l = open(sys.argv[2], "rb").read()
clusters = l[l.index(b"[data clusters]"):]
clusters = clusters[:clusters.index(b"\n[") + 1]
body = lp[:lp.rindex(b"checksum crc32 ")] + clusters
open(sys.argv[3], "wb").write(body + b"checksum crc32 %08x\n" % zlib.crc32(body))
PY
expect_status 2 "$KM" info "$WORK/mixed.km" && expect_one_line_error "^kernelmix info: $WORK/mixed.km: \[data clusters\] "

# the model's own count of training rows below its basis rows
"$PYTHON" - "$WORK/csv.km" "$WORK/rows.km" <<'PY'
import re, sys, zlib
data = open(sys.argv[1], "rb").read()
body = re.sub(rb"\nn_train \d+\n", b"\nn_train 1\n", data[:data.rindex(b"checksum crc32 ")], count=1)
open(sys.argv[2], "wb").write(body + b"checksum crc32 %08x\n" % zlib.crc32(body))
PY
expect_status 2 "$KM" info "$WORK/rows.km" &&
    expect_one_line_error "^kernelmix info: $WORK/rows.km: n_train 1: fewer training rows than the [0-9]+ basis rows"

# the unedited models load and predict
for m in cl l lz eb ob lp; do
    data="$WORK/c"
    [ $m = eb ] && data="$WORK/r"
    expect_status 0 "$KM" predict -q "$data" "$WORK/$m.km" "$WORK/pred" || fail "$m.km does not predict"
done
finish
