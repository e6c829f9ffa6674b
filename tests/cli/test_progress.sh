# The progress line and --verbose: on a terminal (a pseudo-terminal from script(1)) long work shows
# one line on stderr, drawn with a carriage return and erased before every other message and at the
# end, naming the stage (reading, preparing the kernels, writing), the fold, the machine and the MKL
# step with its gap (train, cross-validation), the kernel (kernel) or the rows (predict), with the
# fraction done; redirected stderr and -q get no such line. Removing the drawings from the terminal's
# stream leaves exactly what the command prints without a terminal. --progress plain writes such lines
# of their own (a log); --progress none and -q write nothing on stderr. A warning that several machines
# give is printed once, with how many gave it. --verbose writes the solver's lines to stderr, never to
# stdout.
. "$(dirname "$0")/lib.sh" "$@"
need script

# the end of a progress line: the fraction done and the time left where known, the seconds elapsed
TAIL='(, [0-9]+% done)?(, about [0-9]+s left)?, [0-9]+s$'

# three classes in the plane, 20 rows each (three one-vs-one machines)
awk 'BEGIN { for (i = 0; i < 60; i++) { c = i % 3; printf "%d 1:%.3f 2:%.3f\n", c + 1, c + (i % 7) / 10, (i % 5) / 10 - c } }' \
    </dev/null >"$WORK/three"
head -n 90 "$DATA/heart_scale" >"$WORK/heart"

# on_terminal NAME COMMAND...: runs COMMAND with stdin, stdout and stderr on a pseudo-terminal;
# the terminal's stream goes to $WORK/NAME.tty
on_terminal() {
    name=$1
    shift
    script -qec "$(printf '%q ' "$@")" /dev/null </dev/null >"$WORK/$name.tty" 2>&1 ||
        fail "$name: exit status $? on a terminal"
}

# plain NAME COMMAND...: the same with stdout and stderr to one file (no terminal)
plain() {
    name=$1
    shift
    "$@" >"$WORK/$name.plain" 2>&1 </dev/null || fail "$name: exit status $? without a terminal"
}

# check_stream NAME: the drawings in NAME.tty are "\rkernelmix CMD: ...\e[K" lines, each followed by
# another drawing or the erasure "\r\e[K"; without them the stream is NAME.plain (the terminal's
# \r\n read as \n). Prints the drawn lines, one a line, to NAME.lines.
check_stream() {
    "$PYTHON" - "$WORK/$1.tty" "$WORK/$1.plain" "$WORK/$1.lines" <<'PY' || fail "$1: $(cat "$WORK/check")"
import re, sys
tty = open(sys.argv[1], encoding="utf-8", newline="").read().replace("\r\n", "\n")
plain = open(sys.argv[2], encoding="utf-8", newline="").read()
draw = re.compile(r"\rkernelmix [a-z]+: [^\r\n\x1b]*\x1b\[K")
drawn = draw.findall(tty)
# every drawing (D) is followed by a drawing or the erasure (E); the markers are control characters,
# which the commands' own output never contains
D, E = "\x01", "\x02"
rest = draw.sub(D, tty).replace("\r\x1b[K", E)
problems = []
if "\x1b" in rest or "\r" in rest:
    problems.append("stray control characters: %r" % rest)
if re.search(D + "(?![" + D + E + "])", rest):
    problems.append("a drawing not erased before other output: %r" % rest[:300])
if re.sub("[" + D + E + "]", "", rest) != plain:
    problems.append("the stream without the line differs from the plain run: %r vs %r" % (rest[:300], plain[:300]))
if not drawn:
    problems.append("no progress line drawn")
open(sys.argv[3], "w").write("".join(d[1:-3] + "\n" for d in drawn))
if problems:
    open(sys.argv[1].rsplit("/", 1)[0] + "/check", "w").write("; ".join(problems))
    sys.exit(1)
PY
}

# cross-validated lp-norm MKL: fold f/3, machine 1/1, its MKL steps and gaps
cv="train -v 3 --kernel linear:features=1-4 --kernel rbf:gamma=2^-1..2^1/mean --mkl lp --p 1.5 --solver wrapper"
on_terminal cv "$KM" $cv "$WORK/heart"
plain cv "$KM" $cv "$WORK/heart"
if check_stream cv; then
    for f in 1 2 3; do
        grep -Eq "^kernelmix train: fold $f/3, machine 1/1$TAIL" "$WORK/cv.lines" ||
            fail "cv: no line for fold $f before its first step: $(cat "$WORK/cv.lines")"
        grep -Eq "^kernelmix train: fold $f/3, machine 1/1, MKL step [0-9]+, gap [0-9]\.[0-9]{2}e[-+][0-9]+$TAIL" \
            "$WORK/cv.lines" || fail "cv: no MKL step of fold $f: $(cat "$WORK/cv.lines")"
    done
fi
grep -q '^Cross Validation Accuracy = ' "$WORK/cv.plain" || fail "cv: no accuracy without a terminal"

# multiclass training: every machine k/3 of one-vs-one; the summary follows the erased line
on_terminal multi "$KM" train "$WORK/three" "$WORK/three.model"
plain multi "$KM" train "$WORK/three" "$WORK/three.model"
if check_stream multi; then
    for k in 1 2 3; do
        grep -Eq "^kernelmix train: machine $k/3$TAIL" "$WORK/multi.lines" ||
            fail "multi: machine $k/3 not shown: $(cat "$WORK/multi.lines")"
    done
    grep -q "fold\|MKL" "$WORK/multi.lines" && fail "multi: a fold or MKL step shown for a plain SVM"
    for stage in "reading $WORK/three" "preparing the kernels" "writing $WORK/three.model"; do
        grep -q "^kernelmix train: $stage" "$WORK/multi.lines" || fail "multi: stage '$stage' not shown"
    done
fi

# a warning while the line is shown starts on a line of its own (the line is erased first)
limited="train --kernel linear --kernel rbf --mkl lp --p 2 --solver wrapper --max-outer 1 -v 2"
on_terminal limited "$KM" $limited "$WORK/heart"
plain limited "$KM" $limited "$WORK/heart"
check_stream limited
grep -q "warning: MKL stopped after 1 outer iterations" "$WORK/limited.plain" || fail "limited: no warning"

# kernel: kernel m/M; predict: the rows done
on_terminal kernel "$KM" kernel --kernel 'rbf:gamma=2^-1..2^1' "$WORK/three" "$WORK/K.bin"
plain kernel "$KM" kernel --kernel 'rbf:gamma=2^-1..2^1' "$WORK/three" "$WORK/K.bin"
if check_stream kernel; then
    [ "$(grep -Ec "^kernelmix kernel: kernel [1-3]/3$TAIL" "$WORK/kernel.lines")" = 3 ] ||
        fail "kernel: expected kernel 1/3 .. 3/3: $(cat "$WORK/kernel.lines")"
fi
on_terminal predict "$KM" predict "$WORK/three" "$WORK/three.model" "$WORK/pred"
plain predict "$KM" predict "$WORK/three" "$WORK/three.model" "$WORK/pred"
check_stream predict && { grep -Eq "^kernelmix predict: rows 0/60, 3 machines$TAIL" "$WORK/predict.lines" ||
    fail "predict: no rows line: $(cat "$WORK/predict.lines")"; }

# no terminal, or -q: no carriage return, no escape, on any stream
for name in cv multi limited kernel predict; do
    LC_ALL=C grep -q "$(printf '[\r\033]')" "$WORK/$name.plain" && fail "$name: control characters without a terminal"
done
on_terminal quiet "$KM" train -q -v 3 "$WORK/heart"
LC_ALL=C grep -q "$(printf '\033')" "$WORK/quiet.tty" && fail "train -q drew a progress line"

# --progress plain through a pipe: lines of their own naming the stages, in order, no control characters
if expect_status 0 "$KM" train --progress plain "$WORK/three" "$WORK/three.model"; then
    LC_ALL=C grep -q "$(printf '[\r\033]')" "$WORK/err" && fail "--progress plain: control characters"
    "$PYTHON" - "$WORK/err" "$WORK/three" <<'PY' || fail "--progress plain: stages: $(cat "$WORK/err")"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
tail = r"(, [0-9]+% done)?(, about [0-9]+s left)?, [0-9]+s$"
stages = ["reading " + re.escape(sys.argv[2]), "preparing the kernels", "machine 1/3", "writing .*three.model"]
at = [next(k for k, line in enumerate(lines) if re.match("kernelmix train: " + s + ".*" + tail, line)) for s in stages]
assert at == sorted(at), at
assert all(re.match("kernelmix train: .*" + tail, line) for line in lines), lines
PY
fi
expect_status 0 "$KM" predict --progress plain "$WORK/three" "$WORK/three.model" "$WORK/pred" &&
    { grep -Eq "^kernelmix predict: rows 0/60, 3 machines$TAIL" "$WORK/err" || fail "predict --progress plain: $(cat "$WORK/err")"; }
expect_status 2 "$KM" train --progress loud "$WORK/three" "$WORK/three.model" &&
    expect_one_line_error "option --progress: 'loud' is not one of bar, plain, none"

# --progress none and -q: nothing on stderr for a successful run, on a terminal too; -q nothing on stdout
expect_status 0 "$KM" train --progress none "$WORK/three" "$WORK/three.model" &&
    { [ -s "$WORK/err" ] && fail "--progress none wrote on stderr: $(cat "$WORK/err")"; }
expect_status 0 "$KM" train -q "$WORK/three" "$WORK/three.model" &&
    { [ -s "$WORK/err" ] || [ -s "$WORK/out" ]; } && fail "-q wrote something: $(cat "$WORK/out" "$WORK/err")"
on_terminal quiet_train "$KM" train -q "$WORK/three" "$WORK/three.model"
[ -s "$WORK/quiet_train.tty" ] && fail "train -q on a terminal wrote: $(cat -v "$WORK/quiet_train.tty")"

# a warning of every machine is printed once, with the range of its numbers and the machines that gave it;
# -q drops it
limit3="train --kernel linear --kernel rbf --mkl lp --p 2 --solver wrapper --max-outer 1"
if expect_status 0 "$KM" $limit3 "$WORK/three" "$WORK/three.model"; then
    [ "$(grep -c warning "$WORK/err")" = 1 ] || fail "three machines' warnings not printed once: $(cat "$WORK/err")"
    grep -Eq '^kernelmix train: warning: MKL stopped after 1 outer iterations with gap [0-9.e+-]+(\.\.[0-9.e+-]+)? \(in 3 of 3 machines\)$' \
        "$WORK/err" || fail "the gathered warning: $(cat "$WORK/err")"
fi
expect_status 0 "$KM" $limit3 -q "$WORK/three" "$WORK/three.model" &&
    { [ -s "$WORK/err" ] && fail "-q printed a warning: $(cat "$WORK/err")"; }

# --verbose: the solver's lines on stderr, stdout as without it
if expect_status 0 "$KM" train --verbose --kernel linear --kernel rbf --mkl lp --p 2 "$WORK/heart" "$WORK/v.model"; then
    grep -Eq '^mkl +[0-9]+ steps: dual .* gap ' "$WORK/err" || fail "--verbose: no MKL step line on stderr: $(head -c 300 "$WORK/err")"
    grep -Eq '^machine 1/1: objective ' "$WORK/err" || fail "--verbose: no machine line on stderr"
    cp "$WORK/out" "$WORK/verbose.out"
    expect_status 0 "$KM" train --kernel linear --kernel rbf --mkl lp --p 2 "$WORK/heart" "$WORK/v.model" &&
        { cmp -s "$WORK/out" "$WORK/verbose.out" || fail "--verbose changed stdout: $(cat "$WORK/verbose.out")"; }
fi
finish
