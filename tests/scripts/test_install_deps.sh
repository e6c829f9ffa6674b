#!/bin/sh
# scripts/install-deps.sh with stand-ins for dpkg-query, apt-get, sudo and update-alternatives (on PATH,
# over a fake alternatives state; nothing is installed): apt-get update and install wait for the apt
# lock (DPkg::Lock::Timeout), every step is printed, and the BLAS alternative that installing OpenBLAS
# switches is restored; with every package present apt-get does not run at all.
set -eu
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/alt" "$tmp/admin" "$tmp/links" "$tmp/ref" "$tmp/openblas"
real_ua=$(command -v update-alternatives)
fail() { echo "FAIL: $*" >&2; exit 1; }

cat >"$tmp/bin/update-alternatives" <<STUB
#!/bin/sh
exec $real_ua --altdir $tmp/alt --admindir $tmp/admin --log $tmp/log --quiet "\$@"
STUB
cat >"$tmp/bin/sudo" <<'STUB'
#!/bin/sh
exec "$@"
STUB
# every package is installed but the ones listed in $tmp/missing
cat >"$tmp/bin/dpkg-query" <<STUB
#!/bin/sh
for pkg; do :; done
if grep -qx "\$pkg" $tmp/missing; then echo "unknown ok not-installed"; else echo "install ok installed"; fi
STUB
# apt-get logs its arguments; "install" registers OpenBLAS's higher-priority BLAS alternative
cat >"$tmp/bin/apt-get" <<STUB
#!/bin/sh
echo "\$*" >>$tmp/apt-get.log
case " \$* " in *" install "*)
    touch $tmp/openblas/libblas.so.3
    update-alternatives --install $tmp/links/libblas.so.3 libblas.so.3-x86_64-linux-gnu $tmp/openblas/libblas.so.3 100
esac
STUB
chmod +x "$tmp/bin/"*
PATH="$tmp/bin:$PATH"
touch "$tmp/ref/libblas.so.3"
update-alternatives --install "$tmp/links/libblas.so.3" libblas.so.3-x86_64-linux-gnu "$tmp/ref/libblas.so.3" 10
before=$(update-alternatives --get-selections)

# everything present: no apt-get
: >"$tmp/missing"
"$repo/scripts/install-deps.sh" build >"$tmp/out" 2>&1 || fail "install-deps failed: $(cat "$tmp/out")"
[ ! -e "$tmp/apt-get.log" ] || fail "apt-get ran with every package present: $(cat "$tmp/apt-get.log")"
grep -q "all packages present" "$tmp/out" || fail "no report: $(cat "$tmp/out")"

# OpenBLAS missing
echo libopenblas-openmp-dev >"$tmp/missing"
"$repo/scripts/install-deps.sh" build >"$tmp/out" 2>&1 || fail "install-deps failed: $(cat "$tmp/out")"
grep -qx -- "-o DPkg::Lock::Timeout=600 update -qq" "$tmp/apt-get.log" || fail "update: $(cat "$tmp/apt-get.log")"
grep -qx -- "-o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends libopenblas-openmp-dev" \
    "$tmp/apt-get.log" || fail "install: $(cat "$tmp/apt-get.log")"
for step in "missing: libopenblas-openmp-dev" "saved the BLAS/LAPACK alternatives: 1 selections" \
    "apt-get update (waiting up to 10 minutes for the apt lock if it is held)" \
    "apt-get install libopenblas-openmp-dev" "installed libopenblas-openmp-dev" \
    "restoring the BLAS/LAPACK alternatives"; do
    grep -qF "install-deps: $step" "$tmp/out" || fail "no line '$step' in: $(cat "$tmp/out")"
done
after=$(update-alternatives --get-selections | awk '{ print $1, $2, $3 }')
[ "$after" = "libblas.so.3-x86_64-linux-gnu manual $tmp/ref/libblas.so.3" ] ||
    fail "the BLAS alternative was '$before', after install-deps '$after'"
echo "install-deps: all cases pass"
