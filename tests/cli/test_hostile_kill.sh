# Atomic model writes: training killed with SIGKILL at random moments (from start-up to the final
# write of a model of several hundred kB) never leaves a partial model: the model path is either
# absent or a complete model that loads and predicts.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK/train" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(5)
n, d = 2000, 12
X = rng.normal(size=(n, d))
y = np.where(X[:, 0] + 0.8 * rng.normal(size=n) > 0, 1, -1)
with open(sys.argv[1], "w") as f:
    for i in range(n):
        f.write("%d %s\n" % (y[i], " ".join("%d:%.6g" % (j + 1, X[i, j]) for j in range(d))))
PY

now_us() { echo "${EPOCHREALTIME/./}"; }

# a complete run sets the time scale of the kills
start=$(now_us)
expect_status 0 "$KM" train -q -c 10 "$WORK/train" "$WORK/complete.model"
duration=$(($(now_us) - start))
expect_status 0 "$KM" info "$WORK/complete.model"

# check_model PATH: absent, or a model that loads and predicts the training rows
check_model() {
    [ -e "$1" ] || return 0
    if ! "$KM" predict "$WORK/train" "$1" "$WORK/pred" >/dev/null 2>"$WORK/err"; then
        fail "a killed training left a model that does not load: $(cat "$WORK/err")"
    elif [ "$(wc -l <"$WORK/pred")" -ne 2000 ]; then
        fail "a killed training left a model that predicts $(wc -l <"$WORK/pred") rows"
    fi
}

RANDOM=7
kills=12
for ((k = 0; k < kills; k++)); do
    model="$WORK/killed$k.model"
    # half the kills anywhere in the run, half in its last third, where the model is written
    if ((k % 2)); then
        delay=$((duration * RANDOM / 32768))
    else
        delay=$((duration * 2 / 3 + duration * RANDOM / 32768 / 2))
    fi
    "$KM" train -q -c 10 "$WORK/train" "$model" >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%06d' $((delay / 1000000)) $((delay % 1000000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    check_model "$model"
    [ -e "$model" ] && outcome=complete || outcome=absent
    echo "kill $k after ${delay}us of ${duration}us: model $outcome"
done
finish
