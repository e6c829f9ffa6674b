#!/bin/sh
# scripts/blas-alternatives.sh against a fake alternatives state (update-alternatives with its own
# --altdir and --admindir): what installing OpenBLAS does to the BLAS/LAPACK alternatives (a new
# alternative of higher priority, which takes over those in auto mode) is undone by restore, auto
# and manual modes included; a restore after no change changes nothing; other alternatives stay.
set -eu
script="$(cd "$(dirname "$0")/../.." && pwd)/scripts/blas-alternatives.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/alt" "$tmp/admin" "$tmp/links" "$tmp/ref" "$tmp/atlas" "$tmp/openblas"
UPDATE_ALTERNATIVES="update-alternatives --altdir $tmp/alt --admindir $tmp/admin --log $tmp/log --quiet"
export UPDATE_ALTERNATIVES
ua() { $UPDATE_ALTERNATIVES "$@"; }
fail() { echo "FAIL: $*" >&2; ua --get-selections >&2; exit 1; }
selection() { ua --get-selections | awk -v name="$1" '$1 == name { print $2, $3 }'; }
expect() {   # expect NAME "MODE VALUE"
    [ "$(selection "$1")" = "$2" ] || fail "$1 is '$(selection "$1")', expected '$2'"
}
# install NAME LIBRARY PRIORITY PROVIDER: what the postinst of PROVIDER's package does
install() {
    touch "$tmp/$4/$2"
    ua --install "$tmp/links/$2" "$1" "$tmp/$4/$2" "$3"
}
blas=libblas.so.3-x86_64-linux-gnu
lapack=liblapack.so.3-x86_64-linux-gnu
blas_so=libblas.so-x86_64-linux-gnu
other=editor

# the machine before: reference BLAS (auto), LAPACK chosen by hand (manual), and a BLAS in auto mode
# that also is the one auto selects after (atlas, the higher priority); an unrelated alternative
install $blas libblas.so.3 10 ref
install $lapack liblapack.so.3 10 ref
install $lapack liblapack.so.3 20 atlas
ua --set $lapack "$tmp/ref/liblapack.so.3"
install $blas_so libblas.so 10 ref
install $blas_so libblas.so 200 atlas
install $other editor 10 ref
before=$(ua --get-selections)

# no change in between: restore changes nothing
"$script" save "$tmp/saved"
[ "$(wc -l <"$tmp/saved")" -eq 3 ] || fail "save recorded $(wc -l <"$tmp/saved") lines, expected the 3 BLAS/LAPACK ones"
"$script" restore "$tmp/saved" >"$tmp/out"
[ "$(ua --get-selections)" = "$before" ] || fail "a restore without change changed the selections"
[ ! -s "$tmp/out" ] || fail "a restore without change printed: $(cat "$tmp/out")"

# installing OpenBLAS: priority 100 for all three, a new alternative of its own, and someone's manual
# choice of the unrelated one
install $blas libblas.so.3 100 openblas
install $lapack liblapack.so.3 100 openblas
install $blas_so libblas.so 100 openblas
install libopenblas.so.0-x86_64-linux-gnu libopenblas.so.0 100 openblas
expect $blas "auto $tmp/openblas/libblas.so.3"
expect $lapack "manual $tmp/ref/liblapack.so.3"
"$script" restore "$tmp/saved" >"$tmp/out"
# auto mode would now pick OpenBLAS: the old BLAS is kept, in manual mode, and the output says why
expect $blas "manual $tmp/ref/libblas.so.3"
grep -q "in auto mode $blas would select $tmp/openblas/libblas.so.3: keeping $tmp/ref/libblas.so.3 in manual mode" \
    "$tmp/out" || fail "restore did not explain the manual mode: $(cat "$tmp/out")"
expect $lapack "manual $tmp/ref/liblapack.so.3"
expect $blas_so "auto $tmp/atlas/libblas.so"
expect libopenblas.so.0-x86_64-linux-gnu "auto $tmp/openblas/libopenblas.so.0"
expect $other "auto $tmp/ref/editor"

# a manual selection changed by hand after the save returns to auto mode where auto selects the old value
ua --set $blas_so "$tmp/openblas/libblas.so"
"$script" restore "$tmp/saved" >"$tmp/out"
expect $blas_so "auto $tmp/atlas/libblas.so"
# a manual one moved to auto returns to manual with its value
ua --auto $lapack
expect $lapack "auto $tmp/openblas/liblapack.so.3"
"$script" restore "$tmp/saved" >"$tmp/out"
expect $lapack "manual $tmp/ref/liblapack.so.3"

# usage errors exit 2
for usage in "restore" "bogus $tmp/saved"; do
    status=0
    # shellcheck disable=SC2086
    "$script" $usage 2>/dev/null || status=$?
    [ "$status" -eq 2 ] || fail "'$usage' exited $status, expected 2"
done
echo "blas-alternatives: all cases pass"
