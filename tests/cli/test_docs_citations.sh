# The documentation and the sources cite papers (authors, title, equation or table), never
# specification files that a clone of the repository does not have.
. "$(dirname "$0")/lib.sh" "$@"

if grep -rnE 'spec/[a-z-]+\.md' "$ROOT/docs" "$ROOT/README.md" "$ROOT/src" "$ROOT/include" >"$WORK/cited"; then
    fail "specification files cited: $(cat "$WORK/cited")"
fi
# the README says how to install and what is not done yet
grep -q '^## Installing' "$ROOT/README.md" && grep -q 'cmake --install' "$ROOT/README.md" &&
    grep -q 'LD_LIBRARY_PATH' "$ROOT/README.md" && grep -q 'ldconfig' "$ROOT/README.md" ||
    fail "README: no install section with cmake --install, LD_LIBRARY_PATH and ldconfig"
grep -q '^## What kernelmix does not do yet' "$ROOT/README.md" || fail "README: no 'does not do yet' section"
finish
