#!/bin/sh
# scripts/run-example.sh in a copy of the scripts with stand-ins for dpkg-query (every package present),
# cmake and the built kernelmix: a line per stage on stdout and the build's output in the log only; a
# failing build prints the log's path and stops.
set -eu
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/copy/scripts" "$tmp/copy/examples/data"
cp "$repo/scripts/run-example.sh" "$repo/scripts/install-deps.sh" "$repo/scripts/blas-alternatives.sh" \
    "$tmp/copy/scripts/"
cp "$repo/examples/data/heart_scale" "$tmp/copy/examples/data/"
fail() { echo "FAIL: $*" >&2; exit 1; }
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
echo "install ok installed"
STUB
# cmake: configure writes a kernelmix stand-in; the build prints compiler lines and fails if told to
cat >"$tmp/bin/cmake" <<STUB
#!/bin/sh
if [ "\$1" = "--build" ]; then
    echo "[ 50%] Building C object src/core/params.c.o"
    echo "warning: compiler chatter"
    [ -e $tmp/break ] && { echo "params.c:1: error: expected ';'"; exit 2; }
    exit 0
fi
mkdir -p build
printf '#!/bin/sh\necho "kernelmix \$1 done"\n' >build/kernelmix
chmod +x build/kernelmix
echo "-- Configuring done"
STUB
chmod +x "$tmp/bin/"*
PATH="$tmp/bin:$PATH"

"$tmp/copy/scripts/run-example.sh" >"$tmp/out" 2>"$tmp/err" || fail "run-example failed: $(cat "$tmp/out" "$tmp/err")"
expected="run-example: installing packages (scripts/install-deps.sh build; waits if another apt holds its lock)
run-example: configuring (CMake, Release build in build/)
run-example: building (cmake --build build)
run-example: training: lp-norm MKL (p = 4/3) over 7 kernels on 200 rows of heart_scale
kernelmix train done
run-example: predicting the 70 held-out rows
kernelmix predict done"
[ "$(cat "$tmp/out")" = "$expected" ] || fail "stdout: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "stderr: $(cat "$tmp/err")"
log="$tmp/copy/build/run-example.log"
for line in "compiler chatter" "Configuring done" "all packages present"; do
    grep -q "$line" "$log" || fail "the log lacks '$line': $(cat "$log")"
done

touch "$tmp/break"
status=0
"$tmp/copy/scripts/run-example.sh" >"$tmp/out" 2>"$tmp/err" || status=$?
[ "$status" -eq 1 ] || fail "a failed build exited $status"
[ "$(tail -n 1 "$tmp/out")" = "run-example: building (cmake --build build)" ] || fail "stdout: $(cat "$tmp/out")"
grep -qF "run-example: its output is in $log" "$tmp/err" || fail "no log path in: $(cat "$tmp/err")"
grep -q "error: expected ';'" "$log" || fail "the log lacks the compiler's error"
if grep -q "chatter" "$tmp/out"; then fail "the compiler's output reached stdout"; fi
echo "run-example: all cases pass"
