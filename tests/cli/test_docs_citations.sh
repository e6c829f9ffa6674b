# The documentation and the sources cite papers (authors, title, equation or table), never
# specification files that a clone of the repository does not have.
. "$(dirname "$0")/lib.sh" "$@"

# "spec §N" (a section of a specification file) and "spec/NAME.md" (the file itself); a kernel spec
# such as "the spec's own norm=" or a "spec key" is the project's own word and is not matched
CITED='spec §|spec/[a-z-]+\.md'
printf '%s\n' '/* clamp (spec §3.6) */' 'see spec/lpmkl.md' >"$WORK/planted"
[ "$(grep -cE "$CITED" "$WORK/planted")" -eq 2 ] || fail "the citation pattern misses a planted citation"
printf '%s\n' "a spec's own norm= is kept" 'the divisor (spec key scale=)' 'kernel specs/x.md' >"$WORK/kept"
grep -qE "$CITED" "$WORK/kept" && fail "the citation pattern matches a kernel spec: $(grep -E "$CITED" "$WORK/kept")"
if grep -rnIE --exclude-dir=__pycache__ "$CITED" "$ROOT/docs" "$ROOT/README.md" "$ROOT/src" "$ROOT/include" \
    "$ROOT/cli" "$ROOT/python/kernelmix" "$ROOT/examples" >"$WORK/cited"; then
    fail "specification files cited: $(cat "$WORK/cited")"
fi
# the README says how to install and what is not done yet
grep -q '^## Installing' "$ROOT/README.md" && grep -q 'cmake --install' "$ROOT/README.md" &&
    grep -q 'LD_LIBRARY_PATH' "$ROOT/README.md" && grep -q 'ldconfig' "$ROOT/README.md" ||
    fail "README: no install section with cmake --install, LD_LIBRARY_PATH and ldconfig"
grep -q '^## What kernelmix does not do yet' "$ROOT/README.md" || fail "README: no 'does not do yet' section"
finish
