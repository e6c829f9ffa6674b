# Helpers for the CLI tests, sourced by tests/cli/test_*.sh.
# Usage in a test: . "$(dirname "$0")/lib.sh" "$@"   (arguments: KERNELMIX_BINARY REPOSITORY_ROOT)
set -u
KM="$1"
ROOT="$2"
# the command for a reference solve that a check compares the tested command with (a tight solve, the
# same fit at a larger -m): the tested binary itself, but under scripts/valgrind-cli.sh the binary
# without memcheck, which the tests whose subject these settings are run it under
KM_REFERENCE="${KM_REFERENCE:-$KM}"
DATA="$ROOT/examples/data"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kmtest.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILURES=0
# Debian's interpreter: numpy and scikit-learn come from Debian packages, not from another python3 on PATH
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

fail() {
    echo "FAIL: $*" >&2
    FAILURES=$((FAILURES + 1))
}

# expect_status STATUS COMMAND...: runs COMMAND, stdout to $WORK/out, stderr to $WORK/err.
expect_status() {
    want="$1"
    shift
    "$@" >"$WORK/out" 2>"$WORK/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        fail "exit status $got (expected $want): $* ; stderr: $(head -c 300 "$WORK/err")"
        return 1
    fi
    return 0
}

# expect_one_line_error PATTERN: stderr of the last command is one line matching PATTERN (grep -E).
expect_one_line_error() {
    lines=$(wc -l <"$WORK/err")
    if [ "$lines" -ne 1 ]; then
        fail "expected one line on stderr, got $lines: $(cat "$WORK/err")"
    elif ! grep -Eq -- "$1" "$WORK/err"; then
        fail "stderr '$(cat "$WORK/err")' does not match '$1'"
    fi
}

# near A B RELTOL: |A - B| <= RELTOL * max(1, |B|)
near() {
    "$PYTHON" -c "import sys; a,b,t=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= t*max(1.0,abs(b)) else 1)" "$1" "$2" "$3"
}

# json_get FILE EXPRESSION: evaluates a Python expression on the parsed JSON 'j'.
json_get() {
    "$PYTHON" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}

# expect_interrupted DELAY WHAT ARGS...: runs `kernelmix train -q ARGS... $WORK/interrupted.model` and
# sends SIGINT after DELAY seconds; the run must end within 3 s of the signal (not timed under
# valgrind, KM_UNDER_VALGRIND) with exit status 130, the one line "interrupted; no model written" and
# no model nor temporary file.
expect_interrupted() {
    delay="$1"
    what="$2"
    shift 2
    "$KM" train -q "$@" "$WORK/interrupted.model" 2>"$WORK/err.interrupted" &
    pid=$!
    sleep "$delay"
    if ! kill -0 "$pid" 2>/dev/null; then
        wait "$pid"
        fail "$what: ended with status $? before the signal at ${delay} s: $(cat "$WORK/err.interrupted")"
        return
    fi
    start=$(date +%s%N)
    kill -s INT "$pid"
    wait "$pid"
    status=$?
    took_ms=$((($(date +%s%N) - start) / 1000000))
    [ "$status" -eq 130 ] || fail "$what: SIGINT: exit status $status, expected 130"
    [ -n "${KM_UNDER_VALGRIND:-}" ] || [ "$took_ms" -lt 3000 ] || fail "$what: SIGINT: stopped after $took_ms ms"
    [ "$(wc -l <"$WORK/err.interrupted")" -eq 1 ] && grep -q "interrupted; no model written" "$WORK/err.interrupted" ||
        fail "$what: SIGINT: stderr '$(cat "$WORK/err.interrupted")'"
    ls -A "$WORK" | grep -qE "^(interrupted.model|\.kernelmix-)" && fail "$what: SIGINT: a model file was left"
}

need() {
    command -v "$1" >/dev/null 2>&1 || { echo "skipped: $1 is not installed" >&2; exit 77; }
}

finish() {
    if [ "$FAILURES" -ne 0 ]; then
        echo "$FAILURES check(s) failed" >&2
        exit 1
    fi
    exit 0
}
