#!/bin/sh
# Records and restores the system's BLAS and LAPACK alternatives (libblas.so.3-x86_64-linux-gnu,
# liblapack.so.3-x86_64-linux-gnu and the others whose name has blas or lapack in it). Debian's BLAS
# packages register these alternatives, and installing OpenBLAS switches every one in auto mode to
# OpenBLAS (its priority is higher than the reference BLAS's): scripts/install-deps.sh saves them
# before apt-get and restores them after.
# usage: scripts/blas-alternatives.sh save FILE      writes "name mode value" of each to FILE
#        scripts/blas-alternatives.sh restore FILE   gives each its saved value and mode again: an
#            alternative that was in auto mode returns to auto mode when that selects its old value,
#            else it keeps its old value in manual mode (auto mode would now select the new package)
# Alternatives that did not exist at save time are left as they are. UPDATE_ALTERNATIVES is the
# command (default update-alternatives; e.g. with --altdir and --admindir for another state).
set -eu
ua=${UPDATE_ALTERNATIVES:-update-alternatives}

selections() {
    $ua --get-selections | grep -i -e blas -e lapack || true
}

# selection NAME: "mode value" of alternative NAME now, empty if there is none
selection() {
    selections | awk -v name="$1" '$1 == name { print $2, $3 }'
}

restore() {
    while read -r name mode value; do
        now=$(selection "$name")
        if [ "$now" = "$mode $value" ]; then
            continue
        fi
        if [ -z "$now" ]; then
            echo "blas-alternatives: $name no longer exists; it was $value ($mode)"
            continue
        fi
        echo "blas-alternatives: $name is ${now#* } (${now%% *}); restoring $value ($mode)"
        if [ "$mode" = auto ]; then
            $ua --auto "$name" >/dev/null
            [ "$(selection "$name")" = "auto $value" ] && continue
            echo "blas-alternatives: in auto mode $name would select $(selection "$name" | cut -d' ' -f2-):" \
                "keeping $value in manual mode"
        fi
        if ! $ua --set "$name" "$value" >/dev/null; then
            echo "blas-alternatives: $value is no longer an alternative of $name; left as it is" >&2
        fi
    done <"$1"
}

case "${1:-} $#" in
"save 2") selections >"$2" ;;
"restore 2") restore "$2" ;;
*)
    echo "usage: $0 save|restore FILE" >&2
    exit 2
    ;;
esac
