# Output paths: an output that is one of the command's inputs (by device and inode: symbolic and hard
# links included) is refused before any work, naming both, with exit status 2 and the input intact;
# a symbolic link at the output path is followed (its target replaced, the link kept); a device or
# FIFO is written through and never replaced; output names of 249 to 255 bytes work.
. "$(dirname "$0")/lib.sh" "$@"

head -n 40 "$DATA/heart_scale" >"$WORK/train"
expect_status 0 "$KM" train -q "$WORK/train" "$WORK/m.model"
expect_status 0 "$KM" kernel --kernel linear "$WORK/train" "$WORK/K.bin"
printf 'rbf\n' >"$WORK/specs"
mkdir "$WORK/keep"
for f in train m.model K.bin specs; do cp "$WORK/$f" "$WORK/keep/$f"; done

# no_temporaries WHAT: no temporary file of an atomic write is left in $WORK
no_temporaries() {
    ls -A "$WORK" | grep -q '^\.kernelmix-' && fail "$1: a temporary file was left: $(ls -A "$WORK")"
}

# refused OUTPUT INPUT COMMAND...: COMMAND exits 2 with one line naming OUTPUT and INPUT, and every
# input is unchanged
refused() {
    output=$1 input=$2
    shift 2
    if expect_status 2 "$KM" "$@"; then
        expect_one_line_error "output $output is the same file as the input $input"
    fi
    for f in train m.model K.bin specs; do
        cmp -s "$WORK/$f" "$WORK/keep/$f" || fail "$*: the input $f was changed"
    done
    no_temporaries "$*"
}

W=$WORK
refused "$W/train" "$W/train" train -q "$W/train" "$W/train"
refused "$W/./train" "$W/train" train -q "$W/train" "$W/./train"
refused "$W/specs" "$W/specs" train -q --kernels "$W/specs" "$W/train" "$W/specs"
refused "$W/K.bin" "$W/K.bin" train -q --kernel "precomputed:file=$W/K.bin" "$W/train" "$W/K.bin"
refused "$W/m.model" "$W/m.model" predict "$W/train" "$W/m.model" "$W/m.model"
refused "$W/train" "$W/train" predict "$W/train" "$W/m.model" "$W/train"
refused "$W/train" "$W/train" kernel --kernel rbf "$W/train" "$W/train"
cp "$W/train" "$W/test"
refused "$W/test" "$W/test" kernel --kernel rbf --test "$W/test" "$W/train" "$W/test"
rm "$W/test"
refused "$W/specs" "$W/specs" kernel --kernels "$W/specs" "$W/train" "$W/specs"
refused "$W/train" "$W/train" scale "$W/train" "$W/train"
refused "$W/train" "$W/train" scale -s "$W/train" "$W/train" "$W/scaled"
expect_status 0 "$KM" scale -s "$W/ranges" "$W/train" "$W/scaled"
cp "$W/ranges" "$W/keep/ranges"
refused "$W/ranges" "$W/ranges" scale -r "$W/ranges" "$W/train" "$W/ranges"
cmp -s "$W/ranges" "$W/keep/ranges" || fail "scale: the range file was changed"
cp "$W/scaled" "$W/keep/scaled"
if expect_status 2 "$KM" scale -s "$W/scaled" "$W/train" "$W/scaled"; then
    expect_one_line_error "the range file \(-s\) and OUTPUT_FILE are the same file"
fi
cmp -s "$W/scaled" "$W/keep/scaled" || fail "scale -s X DATA X: X was changed"
rm -f "$W/ranges" "$W/scaled" "$W/keep/ranges" "$W/keep/scaled"
refused "$W/K.bin" "$W/K.bin" kernel --kernel "precomputed:file=$W/K.bin" "$W/train" "$W/K.bin"
# several kernels: the numbered output names are checked one by one
cp "$W/train" "$W/data.2"
cp "$W/data.2" "$W/keep/data.2"
refused "$W/data.2" "$W/data.2" kernel --kernel rbf:gamma=1,2 "$W/data.2" "$W/data"
cmp -s "$W/data.2" "$W/keep/data.2" || fail "kernel: the input data.2 was changed"
[ -e "$W/data.1" ] && fail "kernel: a refused run wrote data.1"
rm -f "$W/data.2" "$W/keep/data.2"

# the same file under another name: a symbolic link (relative and absolute), a chain of links, a
# hard link
ln -s train "$W/rel_link"
ln -s "$W/train" "$W/abs_link"
ln -s rel_link "$W/chain"
ln "$W/train" "$W/hard_link"
for name in rel_link abs_link chain hard_link; do
    refused "$W/$name" "$W/train" train -q "$W/train" "$W/$name"
    refused "$W/$name" "$W/train" predict "$W/train" "$W/m.model" "$W/$name"
    refused "$W/$name" "$W/train" kernel --kernel linear "$W/train" "$W/$name"
done
ln -s m.model "$W/model_link"
refused "$W/model_link" "$W/m.model" predict "$W/train" "$W/m.model" "$W/model_link"
rm -f "$W/rel_link" "$W/abs_link" "$W/chain" "$W/hard_link" "$W/model_link"

# a symbolic link to another file is followed: the target is replaced, the link stays a link
printf 'old\n' >"$W/target.pred"
ln -s target.pred "$W/pred_link"
expect_status 0 "$KM" predict -q "$W/train" "$W/m.model" "$W/pred_link"
[ -L "$W/pred_link" ] || fail "the output symbolic link was replaced by a file"
[ "$(wc -l <"$W/target.pred")" -eq 40 ] || fail "the link's target holds $(wc -l <"$W/target.pred") predictions"
# a dangling link creates its target
ln -s new.model "$W/dangling"
expect_status 0 "$KM" train -q "$W/train" "$W/dangling"
[ -L "$W/dangling" ] && [ -f "$W/new.model" ] || fail "a dangling link was not followed"
expect_status 0 "$KM" info "$W/new.model"
# a link loop is an error naming the output
ln -s loop_b "$W/loop_a"
ln -s loop_a "$W/loop_b"
expect_status 2 "$KM" predict -q "$W/train" "$W/m.model" "$W/loop_a" && expect_one_line_error "loop_a: .*(symbolic links|loop)"
rm -f "$W/pred_link" "$W/target.pred" "$W/dangling" "$W/new.model" "$W/loop_a" "$W/loop_b"

# devices are written through, never replaced: /dev/null stays a character device
for command in "train -q $W/train" "predict -q $W/train $W/m.model" "kernel --kernel linear $W/train" "scale $W/train"; do
    # shellcheck disable=SC2086
    expect_status 0 "$KM" $command /dev/null
    [ -c /dev/null ] || fail "$command /dev/null replaced /dev/null"
done
# /dev/stdout carries the predictions to a pipe
"$KM" predict -q "$W/train" "$W/m.model" /dev/stdout | wc -l >"$W/count" 2>/dev/null
[ "$(cat "$W/count")" -eq 40 ] || fail "predict to /dev/stdout gave $(cat "$W/count") lines"
# a FIFO is written through: its reader gets the predictions, and it stays a FIFO
expect_status 0 "$KM" predict -q "$W/train" "$W/m.model" "$W/expected.pred"
mkfifo "$W/fifo"
cat "$W/fifo" >"$W/from_fifo" &
reader=$!
expect_status 0 "$KM" predict -q "$W/train" "$W/m.model" "$W/fifo"
wait "$reader"
[ -p "$W/fifo" ] || fail "the FIFO was replaced"
cmp -s "$W/from_fifo" "$W/expected.pred" || fail "the FIFO's reader did not get the predictions"
rm -f "$W/fifo" "$W/from_fifo" "$W/expected.pred" "$W/count"

# output names of 249 to 255 bytes (NAME_MAX): the temporary name does not grow with them
expect_status 0 "$KM" predict -q "$W/train" "$W/m.model" "$W/expected.pred"
for length in 249 250 253 254 255; do
    model=$(printf 'm%.0s' $(seq "$length"))
    pred=$(printf 'p%.0s' $(seq "$length"))
    kernel=$(printf 'k%.0s' $(seq "$length"))
    expect_status 0 "$KM" train -q "$W/train" "$W/$model"
    expect_status 0 "$KM" predict -q "$W/train" "$W/$model" "$W/$pred"
    cmp -s "$W/$pred" "$W/expected.pred" || fail "$length-byte names: wrong predictions"
    expect_status 0 "$KM" kernel --kernel linear "$W/train" "$W/$kernel"
    cmp -s "$W/$kernel" "$W/K.bin" || fail "a $length-byte kernel output name: wrong matrix"
    expect_status 0 "$KM" scale -s "$W/short.range" "$W/train" "$W/short.scaled"
    expect_status 0 "$KM" scale -s "$W/$kernel" "$W/train" "$W/$model" &&
        { cmp -s "$W/short.scaled" "$W/$model" && cmp -s "$W/short.range" "$W/$kernel" ||
            fail "$length-byte names: scale outputs differ"; }
    rm -f "$W/$model" "$W/$pred" "$W/$kernel" "$W/short.range" "$W/short.scaled"
done
# one byte over NAME_MAX is the file system's error, naming the path
name=$(printf 'n%.0s' $(seq 256))
expect_status 2 "$KM" train -q "$W/train" "$W/$name" && expect_one_line_error "$name: cannot write model: File name too long"
no_temporaries "long names"
finish
