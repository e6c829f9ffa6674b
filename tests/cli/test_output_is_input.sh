# No subcommand writes over one of its inputs: for every subcommand and every kind of input it reads
# (data, test data, models, range files, test kernels, --kernels spec files, the file= of precomputed
# kernels, also inside a spec file), an output that is the same file, by name, through a symbolic or
# a hard link, or as standard output redirected onto it, is refused before any work with one line
# naming both, exit status 2, and every input unchanged.
. "$(dirname "$0")/lib.sh" "$@"

W=$WORK
cd "$W" || exit 1
head -n 40 "$DATA/heart_scale" >train
sed -n '41,60p' "$DATA/heart_scale" >test
expect_status 0 "$KM" kernel --kernel rbf train K.bin || exit 1
expect_status 0 "$KM" kernel --kernel rbf --test test train Kt.bin
expect_status 0 "$KM" train -q train model
expect_status 0 "$KM" train -q --kernel "precomputed:file=$W/K.bin" train pre.model
expect_status 0 "$KM" scale -s ranges train scaled
printf 'rbf\n' >specs
printf 'precomputed:file=K.bin\n' >prespecs
INPUTS="train test K.bin Kt.bin model pre.model ranges specs prespecs"
mkdir keep
for f in $INPUTS; do cp "$f" "keep/$f"; done

# refused OUTPUT INPUT COMMAND...: exit 2, one line naming OUTPUT and INPUT, inputs unchanged
refused() {
    output=$1 input=$2
    shift 2
    if expect_status 2 "$KM" "$@"; then
        expect_one_line_error "output $output is the same file as the input $input; refusing to overwrite an input"
    fi
    for f in $INPUTS; do
        cmp -s "$f" "keep/$f" || { fail "$*: the input $f was changed"; cp "keep/$f" "$f"; }
    done
    ls -A | grep -q '^\.kernelmix-' && fail "$*: a temporary file was left"
}

# every subcommand with every kind of input it reads, the output given as that input's path and as
# another name of the same file
ln -s specs specs.sym
ln specs specs.hard
ln -s K.bin K.sym
ln ranges ranges.hard
for o in "" .sym .hard; do
    s=specs$o
    [ -e "$s" ] || continue
    refused "$s" specs train -q --kernels specs train "$s"
    refused "$s" specs kernel --kernels specs train "$s"
    refused "$s" specs cluster --kernels specs --clusters 2 train "$s"
done
for f in train specs; do
    refused "$f" "$f" cluster --kernels specs --clusters 2 train "$f"
done
refused K.bin "$W/K.bin" cluster --kernel "precomputed:file=$W/K.bin" --clusters 2 train K.bin
refused K.sym "$W/K.bin" cluster --kernel "precomputed:file=$W/K.bin" --clusters 2 train K.sym
refused K.bin K.bin cluster --kernels prespecs --clusters 2 train K.bin
refused K.bin K.bin train -q --kernels prespecs train K.bin
refused K.bin K.bin kernel --kernels prespecs train K.bin
refused K.bin "$W/K.bin" train -q --kernel "precomputed:file=$W/K.bin" train K.bin
for f in test model; do
    refused "$f" "$f" predict test model "$f"
done
refused Kt.bin Kt.bin predict --test-kernel Kt.bin test pre.model Kt.bin
refused K.sym K.bin predict --test-kernel K.bin test pre.model K.sym
refused test test kernel --kernel rbf --test test train test
refused train train kernel --kernel rbf train train
refused ranges ranges scale -r ranges test ranges
refused ranges.hard ranges scale -r ranges test ranges.hard
refused train train scale -s train train scaled2
refused train train scale train train

# standard output redirected onto an input ('>>' keeps its bytes for the check to find)
for cmd in "predict test model -" "scale test -" "cluster --kernel rbf --clusters 2 test -" "kernel --kernel rbf test -"; do
    # shellcheck disable=SC2086
    "$KM" $cmd >>test 2>err
    status=$?
    [ "$status" -eq 2 ] || fail "$cmd >>test: exit status $status"
    grep -q "output standard output is the same file as the input test" err || fail "$cmd >>test: $(cat err)"
    cmp -s test keep/test || { fail "$cmd >>test: the input was changed"; cp keep/test test; }
done
# standard input that is the output file
"$KM" predict - model test <test 2>err
[ $? -eq 2 ] && grep -q "output test is the same file as the input standard input" err || fail "predict - MODEL TEST <TEST: $(cat err)"
cmp -s test keep/test || fail "predict - MODEL TEST <TEST changed TEST"
finish
