# Hostile model files through the CLI: a small model truncated at every byte boundary, with bytes
# flipped (caught by the checksum), from a newer format version, or not a model at all. info and
# predict fail with exit status 2 and one line naming the model file; predict writes no output.
# KM_TRUNCATE_STEP (default 1) thins the truncation points for slow runs (scripts/valgrind-cli.sh).
. "$(dirname "$0")/lib.sh" "$@"

printf '1 1:1 2:0.5\n-1 1:-1\n1 2:1\n-1 1:-0.5 2:-1\n' >"$WORK/tiny"
expect_status 0 "$KM" train -q -t 0 "$WORK/tiny" "$WORK/tiny.model"
size=$(wc -c <"$WORK/tiny.model")
[ "$size" -gt 100 ] || fail "the small model has only $size bytes"

# rejected FILE: info and predict refuse the model FILE
rejected() {
    if expect_status 2 "$KM" info "$WORK/$1"; then
        expect_one_line_error "kernelmix info: $WORK/$1: "
    fi
    if expect_status 2 "$KM" predict "$WORK/tiny" "$WORK/$1" "$WORK/pred"; then
        expect_one_line_error "kernelmix predict: $WORK/$1: "
    fi
    [ -e "$WORK/pred" ] && fail "$1: predictions were written"
    return 0
}

# (one process per truncation point: the prefixes are written in one go, stderr checked in bash)
mkdir "$WORK/cut"
"$PYTHON" - "$WORK/tiny.model" "$WORK/cut" "${KM_TRUNCATE_STEP:-1}" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
for cut in range(0, len(data), int(sys.argv[3])):
    open("%s/%d.model" % (sys.argv[2], cut), "wb").write(data[:cut])
PY
for f in "$WORK"/cut/*.model; do
    "$KM" info "$f" >/dev/null 2>"$WORK/err"
    status=$?
    mapfile -t lines <"$WORK/err"
    if [ "$status" -ne 2 ] || [ "${#lines[@]}" -ne 1 ] || [[ "${lines[0]}" != "kernelmix info: $f: "* ]]; then
        fail "$(basename "$f" .model) bytes of the model: status $status, stderr: ${lines[*]}"
    fi
done
head -c $((size / 2)) "$WORK/tiny.model" >"$WORK/half.model"
rejected half.model
grep -q "truncated" "$WORK/err" || fail "half a model is not reported as truncated: $(cat "$WORK/err")"

# flipped bytes: one bit of one byte, at positions spread over the file
"$PYTHON" - "$WORK/tiny.model" "$WORK" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
for k, pos in enumerate(range(3, len(data), max(1, len(data) // 12))):
    flipped = bytearray(data)
    flipped[pos] ^= 0x04
    open("%s/flip%d.model" % (sys.argv[2], k), "wb").write(bytes(flipped))
PY
for f in "$WORK"/flip*.model; do
    rejected "$(basename "$f")"
done

# a newer format version, with a checksum that matches it
"$PYTHON" - "$WORK/tiny.model" "$WORK/newer.model" <<'PY'
import sys, zlib
data = open(sys.argv[1], "rb").read().replace(b"kernelmix-model 3\n", b"kernelmix-model 4\n", 1)
body = data[:data.rindex(b"checksum crc32 ")]
open(sys.argv[2], "wb").write(body + b"checksum crc32 %08x\n" % zlib.crc32(body))
PY
rejected newer.model
grep -q "version 4 is newer" "$WORK/err" || fail "newer version not named: $(cat "$WORK/err")"

# not a model: empty, data, binary
: >"$WORK/empty.model"
rejected empty.model
cp "$WORK/tiny" "$WORK/data.model"
rejected data.model
printf 'KMMATRIX\001\000\000\000' >"$WORK/matrix.model"
rejected matrix.model
expect_status 2 "$KM" info "$WORK/missing.model" && expect_one_line_error "missing.model"

# the intact model still works
expect_status 0 "$KM" predict "$WORK/tiny" "$WORK/tiny.model" "$WORK/pred"
[ "$(wc -l <"$WORK/pred")" -eq 4 ] || fail "the intact model did not predict 4 rows"
finish
