# The Python package installs where Debian's python3 finds it: 'cmake --install' into a fresh prefix
# (package under lib/python3.X/dist-packages, finding the installed library), and 'pip install
# --no-build-isolation' offline into a venv with the system's packages (library copied into the package).
. "$(dirname "$0")/lib.sh" "$@"
BUILD=$(dirname "$KM")
LIBRARY=$(readlink -f "$BUILD/libkernelmix.so")   # the file this build links, not an older one beside it
[ -x "$PYTHON" ] || { echo "skipped: no $PYTHON" >&2; exit 77; }
"$PYTHON" -c "import sklearn, pip, setuptools" 2>/dev/null || { echo "skipped: scikit-learn, pip or setuptools missing" >&2; exit 77; }
# a sanitized library loads only into a process that starts with the sanitizer runtime
if ldd "$LIBRARY" | grep -q libasan; then echo "skipped: sanitizer build" >&2; exit 77; fi

USE='import sys, kernelmix
from sklearn.datasets import load_iris
X, y = load_iris(return_X_y=True)
clf = kernelmix.MKLClassifier(kernels=["linear", "rbf"]).fit(X, y)
assert clf.score(X, y) > 0.9
print(kernelmix._library.path)'

cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log" 2>&1 || { fail "install: $(tail -3 "$WORK/install.log")"; finish; }
SITE=$(dirname "$(find "$WORK/prefix" -path '*-packages/kernelmix/__init__.py')")
SITE=$(dirname "$SITE")
case "$SITE" in */lib/python3.*/dist-packages) ;; *) fail "package installed in '$SITE'";; esac
# from another directory, without the build tree's hints: the installed library
loaded=$(cd "$WORK" && env -u KERNELMIX_LIBRARY PYTHONPATH="$SITE" "$PYTHON" -c "$USE" 2>&1) || fail "cmake-installed package: $loaded"
case "$loaded" in "$WORK/prefix/lib"*) ;; *) fail "cmake-installed package loaded '$loaded', not the prefix's library";; esac

"$PYTHON" -m venv --system-site-packages "$WORK/venv" || { fail "venv"; finish; }
cp -r "$ROOT/python" "$WORK/source"     # pip builds in the source directory: not in the checkout
mkdir -p "$WORK/include" && cp "$ROOT/include/kernelmix.h" "$WORK/include/"
rm -rf "$WORK/source/tests"
KERNELMIX_LIBRARY="$LIBRARY" "$WORK/venv/bin/pip" install -q --no-build-isolation --no-index "$WORK/source" \
    >"$WORK/pip.log" 2>&1 || fail "pip install: $(tail -3 "$WORK/pip.log")"
loaded=$(cd "$WORK" && env -u KERNELMIX_LIBRARY -u PYTHONPATH "$WORK/venv/bin/python" -c "$USE" 2>&1) || fail "pip-installed package: $loaded"
case "$loaded" in "$WORK/venv/lib/"*/site-packages/kernelmix/libkernelmix.so.*) ;; *) fail "pip-installed package loaded '$loaded'";; esac
finish
