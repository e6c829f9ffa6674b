# The kernelmix command runs its OpenMP threads with the passive wait policy (docs/reliability.md,
# "Waiting threads") unless the environment sets a wait policy or spin count: the runtime's own
# report of its settings (OMP_DISPLAY_ENV) shows the policy the solver ran with.
. "$(dirname "$0")/lib.sh" "$@"

# Under valgrind the command does not execute itself again (its preloaded core would not follow)
[ -z "${KM_UNDER_VALGRIND:-}" ] || { echo "skipped: under valgrind" >&2; exit 77; }

# train_with ENV...: trains with OMP_DISPLAY_ENV and the given variables; the runtime's reports in $WORK/err
train_with() {
    env "$@" OMP_DISPLAY_ENV=verbose "$KM" train -q -t 2 "$DATA/heart_scale" "$WORK/model" >"$WORK/out" 2>"$WORK/err" ||
        fail "train with $*: $(head -c 300 "$WORK/err")"
}
# the number of reports (one per start of the program)
starts() { grep -c "OPENMP DISPLAY ENVIRONMENT BEGIN" "$WORK/err"; }
# the wait policy and spin count of the last report: the one of the program that trained (GNU OpenMP
# reports a passive policy left unset as PASSIVE too; its spin count tells them apart: 0 when passive)
setting() { grep -E "^ *$1 *=" "$WORK/err" | tail -1 | sed -E "s/.*= *'?([A-Za-z0-9]+)'?.*/\1/"; }
policy() { echo "$(setting OMP_WAIT_POLICY) $(setting GOMP_SPINCOUNT)"; }

train_with
[ "$(starts)" -ge 1 ] || { echo "skipped: the OpenMP runtime does not report its settings" >&2; exit 77; }
case "$(policy)" in "PASSIVE 0" | "PASSIVE ") ;; *) fail "default wait policy: $(policy)" ;; esac
[ "$(starts)" -eq 2 ] || fail "default: $(starts) starts of the program (expected 2: it executes itself once)"

train_with OMP_WAIT_POLICY=ACTIVE
case "$(policy)" in "ACTIVE "*) ;; *) fail "OMP_WAIT_POLICY=ACTIVE: $(policy)" ;; esac
[ "$(starts)" -eq 1 ] || fail "OMP_WAIT_POLICY=ACTIVE: $(starts) starts of the program"

# a spin count of the user's also leaves the environment alone
train_with GOMP_SPINCOUNT=1000
[ "$(starts)" -eq 1 ] || fail "GOMP_SPINCOUNT=1000: $(starts) starts of the program"
case "$(policy)" in *" 1000" | *" ") ;; *) fail "GOMP_SPINCOUNT=1000: $(policy)" ;; esac

# the model trained after the second start predicts
train_with
expect_status 0 "$KM" predict -q "$DATA/heart_scale" "$WORK/model" "$WORK/pred"
finish
