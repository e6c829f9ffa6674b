# kernelmix scale against Debian's svm-scale (libsvm-tools): byte-identical scaled data and range
# files for fitted ranges (-l/-u, -y), ranges applied to test data with either tool's range file, on
# LIBSVM's heart_scale and on generated sparse data with unseen and single-valued features; bad
# input refused with one line and no output left behind.
. "$(dirname "$0")/lib.sh" "$@"
need svm-scale

"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rng = np.random.default_rng(11)
def write(path, rows, extra):
    with open(path, "w") as f:
        for i in range(rows):
            feats = [(j + 1, rng.normal() * 5 + j) for j in range(7 + extra) if rng.random() < 0.6]
            feats.append((10, 2.5))   # single-valued on the training data
            f.write(f"{rng.normal() * 10:.6g} " + " ".join(f"{j}:{v:.6g}" for j, v in feats) + "\n")
write(f"{work}/gen_train", 80, 0)
write(f"{work}/gen_test", 30, 1)   # feature 8 never appears in training
PY
head -n 200 "$DATA/heart_scale" >"$WORK/heart_train"
tail -n 70 "$DATA/heart_scale" >"$WORK/heart_test"

# identical DATA OPTIONS...: fit on DATA_train with both tools, then apply each range file to DATA_test
identical() {
    data="$1"
    shift
    svm-scale "$@" -s "$WORK/lib.range" "$WORK/${data}_train" >"$WORK/lib.train" 2>/dev/null ||
        { fail "svm-scale $* failed"; return; }
    expect_status 0 "$KM" scale "$@" -s "$WORK/km.range" "$WORK/${data}_train" "$WORK/km.train" || return
    cmp -s "$WORK/lib.train" "$WORK/km.train" || fail "$data $*: scaled training data differs from svm-scale's"
    cmp -s "$WORK/lib.range" "$WORK/km.range" || fail "$data $*: range file differs from svm-scale's"
    svm-scale -r "$WORK/lib.range" "$WORK/${data}_test" >"$WORK/lib.test" 2>/dev/null
    # kernelmix applies svm-scale's range file, svm-scale applies kernelmix's
    expect_status 0 "$KM" scale -r "$WORK/lib.range" "$WORK/${data}_test" "$WORK/km.test" &&
        cmp -s "$WORK/lib.test" "$WORK/km.test" || fail "$data $*: kernelmix with svm-scale's ranges differs"
    svm-scale -r "$WORK/km.range" "$WORK/${data}_test" >"$WORK/lib2.test" 2>/dev/null
    cmp -s "$WORK/lib.test" "$WORK/lib2.test" || fail "$data $*: svm-scale with kernelmix's ranges differs"
}
identical heart
identical heart -l 0 -u 1
identical gen
identical gen -l 0 -u 2
identical gen -y -1 1
identical gen -l -2 -u 3 -y 0 10

# standard output when no OUTPUT_FILE is given; the unseen test feature is reported
expect_status 0 "$KM" scale "$WORK/heart_train"
svm-scale "$WORK/heart_train" >"$WORK/lib.out" 2>/dev/null
cmp -s "$WORK/out" "$WORK/lib.out" || fail "scale to standard output differs from svm-scale"
expect_status 0 "$KM" scale -r "$WORK/km.range" "$WORK/gen_test" "$WORK/t.out"
grep -q "index 8) have no range" "$WORK/err" || fail "the feature missing from the range file is not reported"

# a range file listing a feature the data never stores: its unlisted 0 moves to -1 in every row
printf 'x\n-1 1\n2 -3 3\n2100 0 4\n' >"$WORK/file_only.range"
svm-scale -r "$WORK/file_only.range" "$WORK/gen_test" >"$WORK/lib.fo" 2>/dev/null
expect_status 0 "$KM" scale -r "$WORK/file_only.range" "$WORK/gen_test" "$WORK/km.fo" &&
    { cmp -s "$WORK/lib.fo" "$WORK/km.fo" || fail "a range-file-only feature: output differs from svm-scale"; }

# -y with a range file that has no 'y' section: the labels' range comes from the data, as in svm-scale
svm-scale -y 0 1 -r "$WORK/file_only.range" "$WORK/gen_test" >"$WORK/lib.fy" 2>/dev/null
expect_status 0 "$KM" scale -y 0 1 -r "$WORK/file_only.range" "$WORK/gen_test" "$WORK/km.fy" &&
    { cmp -s "$WORK/lib.fy" "$WORK/km.fy" || fail "-y with a range file without 'y': output differs from svm-scale"; }

# refusals: one line, exit 2, nothing written
rm -f "$WORK/none.out" "$WORK/none.range"
expect_status 2 "$KM" scale -l 1 -u 0 "$WORK/gen_train" "$WORK/none.out" && expect_one_line_error "inconsistent interval"
expect_status 2 "$KM" scale -s "$WORK/none.range" -r "$WORK/km.range" "$WORK/gen_train" "$WORK/none.out" &&
    expect_one_line_error "-s and -r cannot be used together"
printf 'x\n-1 1\n3 0 1\n2 0 1\n' >"$WORK/descending.range"
expect_status 2 "$KM" scale -r "$WORK/descending.range" "$WORK/gen_train" "$WORK/none.out" &&
    expect_one_line_error "descending.range:4: expected 'INDEX MIN MAX'"
printf 'y\n0 1\n' >"$WORK/short.range"
expect_status 2 "$KM" scale -r "$WORK/short.range" "$WORK/gen_train" "$WORK/none.out" &&
    expect_one_line_error "not a range file"
printf '1 1:2\n-1 1:x\n' >"$WORK/bad"
expect_status 2 "$KM" scale -s "$WORK/none.range" "$WORK/bad" "$WORK/none.out" && expect_one_line_error "bad"
# an unwritable output directory: neither the range file nor the output appears
expect_status 2 "$KM" scale -s "$WORK/none.range" "$WORK/gen_train" "$WORK/missing/dir/out"
for f in none.out none.range; do [ -e "$WORK/$f" ] && fail "$f was written by a failed scale"; done
ls "$WORK" | grep -q '\.tmp\|XXXXXX\|none\.' && fail "temporary files left behind: $(ls "$WORK")"
finish
