# All-or-nothing output: `kernel` with several kernels publishes every matrix or none (a later kernel
# that fails leaves no earlier one behind, and existing files as they were); SIGINT, SIGTERM and
# SIGHUP leave no temporary file and no output; a full disk is reported as "No space left on device".
. "$(dirname "$0")/lib.sh" "$@"

head -n 60 "$DATA/heart_scale" >"$WORK/train"
W=$WORK

# nothing_written WHAT NAME...: none of the files NAME exists in $WORK, nor a temporary file
nothing_written() {
    what=$1
    shift
    for name in "$@"; do
        [ -e "$W/$name" ] && fail "$what: $name was written"
    done
    ls -A "$W" | grep -q '^\.kernelmix-' && fail "$what: a temporary file was left: $(ls -A "$W")"
}

# a second kernel whose values overflow float32: the first matrix is not published either
if expect_status 2 "$KM" kernel --float32 --kernel linear --kernel poly:degree=20:coef0=100 "$W/train" "$W/K.bin"; then
    expect_one_line_error "K.2.bin: entry .* cannot be stored as float32"
fi
nothing_written "a failing second kernel" K.1.bin K.2.bin
# the same with existing outputs: both are left as they were
printf 'old 1\n' >"$W/K.1.bin"
printf 'old 2\n' >"$W/K.2.bin"
expect_status 2 "$KM" kernel --float32 --kernel linear --kernel poly:degree=20:coef0=100 "$W/train" "$W/K.bin"
[ "$(cat "$W/K.1.bin")" = "old 1" ] && [ "$(cat "$W/K.2.bin")" = "old 2" ] || fail "a failed run changed existing outputs"
rm -f "$W/K.1.bin" "$W/K.2.bin"
# text output too, the third of three kernels failing on a full device
ln -s /dev/full "$W/T.3.txt"
if expect_status 2 "$KM" kernel --text --kernel linear --kernel rbf --kernel poly "$W/train" "$W/T.txt"; then
    expect_one_line_error "T.3.txt: cannot write kernel matrix: No space left on device"
fi
rm -f "$W/T.3.txt"
nothing_written "a failing third kernel, text" T.1.txt T.2.txt

# a full device as the second output: the other kernel's matrix is not published
ln -s /dev/full "$W/F.2.bin"
if expect_status 2 "$KM" kernel --kernel linear --kernel rbf "$W/train" "$W/F.bin"; then
    expect_one_line_error "F.2.bin: cannot write kernel matrix: No space left on device"
fi
nothing_written "a full second output" F.1.bin
[ -L "$W/F.2.bin" ] && [ -c /dev/full ] || fail "the link to /dev/full was replaced"
rm -f "$W/F.2.bin"
for command in "train -q $W/train" "predict -q $W/train $W/F.model"; do
    "$KM" train -q "$W/train" "$W/F.model"
    # shellcheck disable=SC2086
    expect_status 2 "$KM" $command /dev/full && expect_one_line_error "/dev/full: cannot write .*: No space left on device"
done
rm -f "$W/F.model"

# a full file system (a 64 KiB tmpfs in a private mount namespace): the temporary file cannot grow,
# the error says so, and the existing output and the directory are as they were (100 rows: a matrix
# of 80 kB)
mkdir "$W/small"
head -n 100 "$DATA/heart_scale" >"$W/train100"
if unshare -rm true 2>/dev/null; then
    unshare -rm bash -c '
        mount -t tmpfs -o size=64k tmpfs "$1" || exit 1
        printf "old\n" >"$1/K.bin"
        "$2" kernel --kernel linear "$3" "$1/K.bin" >/dev/null 2>"$4/full.err"
        echo $? >"$4/full.status"
        "$2" train -q "$3" "$1/train.model" 2>/dev/null
        "$2" kernel --kernel linear --kernel rbf "$3" "$1/K.bin" 2>>"$4/full.err"
        echo $? >>"$4/full.status"
        ls -A "$1" >"$4/full.listing"
        cat "$1/K.bin" >"$4/full.kept"
    ' sh "$W/small" "$KM" "$W/train100" "$W"
    [ "$(cat "$W/full.status" 2>/dev/null)" = "2
2" ] || fail "a full file system: exit statuses $(cat "$W/full.status" 2>/dev/null)"
    grep -c "cannot write kernel matrix: No space left on device" "$W/full.err" | grep -qx 2 ||
        fail "a full file system: stderr '$(cat "$W/full.err" 2>/dev/null)'"
    [ "$(cat "$W/full.kept" 2>/dev/null)" = old ] || fail "a full file system: the existing output was changed"
    [ "$(tr '\n' ' ' <"$W/full.listing" 2>/dev/null)" = "K.bin train.model " ] ||
        fail "a full file system: left $(cat "$W/full.listing" 2>/dev/null)"
else
    echo "a full file system: skipped (no private mount namespace: unshare -rm)"
fi

# signals: kernel 3's output is a FIFO that nobody reads, so the run blocks in opening it while the
# finished matrices of kernels 1 and 2 wait in their temporary files; the signal removes them
for sig in INT TERM HUP; do
    mkfifo "$W/S.3.bin"
    "$KM" kernel --kernel linear --kernel rbf --kernel poly "$W/train" "$W/S.bin" 2>"$W/err" &
    pid=$!
    for ((k = 0; k < 3000; k++)); do
        [ "$(ls -A "$W" | grep -c '^\.kernelmix-')" -eq 2 ] && break
        sleep 0.01
    done
    [ "$k" -lt 3000 ] || fail "SIG$sig: the two temporary files never appeared: $(ls -A "$W")"
    kill -s "$sig" "$pid"
    wait "$pid"
    status=$?
    [ "$status" -eq $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit status $status"
    [ -p "$W/S.3.bin" ] || fail "SIG$sig: the FIFO was replaced"
    rm -f "$W/S.3.bin"
    nothing_written "SIG$sig" S.1.bin S.2.bin
done

# predict blocked on a FIFO and train in its solver end the same way on SIGHUP, writing nothing
"$KM" train -q "$W/train" "$W/h.model"
mkfifo "$W/h.fifo"
"$KM" predict -q "$W/train" "$W/h.model" "$W/h.fifo" &
pid=$!
# the signal goes once predict waits in opening the FIFO: a slow start (valgrind) must not get it first
for _ in $(seq 1 600); do
    grep -q wait_for_partner "/proc/$pid/wchan" 2>/dev/null && break
    sleep 0.1
done
kill -s HUP "$pid"
wait "$pid"
[ $? -eq 129 ] || fail "predict: SIGHUP did not end the run with status 129"
[ -p "$W/h.fifo" ] || fail "predict: the FIFO was replaced"
rm -f "$W/h.fifo" "$W/h.model"
nothing_written "predict on SIGHUP"
finish
