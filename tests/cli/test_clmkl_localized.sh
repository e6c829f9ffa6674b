# The synthetic localized-relevance benchmark (examples/clmkl-localized, docs/clmkl.md) meets its
# acceptance on two seeds at n = 400: CLMKL >= MKL + 0.15, MKL >= UNIF - 0.005, and every cluster gives
# its largest weight to the group relevant in its majority region (p = 1 and 4/3).
. "$(dirname "$0")/lib.sh" "$@"
"$PYTHON" "$ROOT/examples/clmkl-localized/run.py" "$KM" --seeds 2 --workdir "$WORK/run" >"$WORK/log" 2>&1 ||
    fail "acceptance failed: $(tail -8 "$WORK/log")"
finish
