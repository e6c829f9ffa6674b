# Hostile kernels: precomputed matrices that are not square, do not match the data, are not
# symmetric or are truncated; LIBSVM precomputed-kernel rows that are ragged or name unknown columns;
# kernel specs with unknown kernels, bad parameters or empty grids. Each fails with exit status 2,
# one line on stderr naming the file or spec and the problem, and no model file. Matrices that are
# not positive semidefinite train with one warning line.
. "$(dirname "$0")/lib.sh" "$@"

printf '1 1:1\n-1 1:2\n1 1:3\n' >"$WORK/data"

# matrix NAME ROWS COLS VERSION VALUES...: a binary KMMATRIX float64 file (DTYPE=2 in the
# environment: float32)
matrix() {
    "$PYTHON" - "$WORK/$1" "$2" "$3" "$4" "${DTYPE:-1}" "${@:5}" <<'PY'
import struct, sys
path, rows, cols, version, dtype = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
values = [float(v) for v in sys.argv[6:]]
with open(path, "wb") as f:
    f.write(b"KMMATRIX" + struct.pack("<IIQQ", version, dtype, rows, cols)
            + struct.pack("<%d%s" % (len(values), "d" if dtype == 1 else "f"), *values))
PY
}

# bad_kernel NAME PATTERN TRAIN_OPTIONS...: training on $WORK/data fails as PATTERN describes
bad_kernel() {
    name=$1 pattern=$2
    shift 2
    if expect_status 2 "$KM" train "$@" "$WORK/data" "$WORK/$name.model"; then
        expect_one_line_error "$pattern"
    fi
    [ -e "$WORK/$name.model" ] && fail "$name: a model file was written"
}

cd "$WORK" || exit 1
matrix not_square.bin 3 2 1   1 0 0 1 1 1
bad_kernel not_square "not_square.bin is a 3 x 2 matrix; a training kernel must be square" --kernel precomputed:file=not_square.bin
matrix two_rows.bin 2 2 1   1 0 0 1
bad_kernel mismatch "two_rows.bin is 2 x 2 but the data has 3 rows" --kernel precomputed:file=two_rows.bin
matrix asymmetric.bin 3 3 1   1 0.5 0  0.1 1 0  0 0 1
bad_kernel asymmetric "asymmetric.bin is not symmetric: K\[2\]\[1\] = 0.1.* but K\[1\]\[2\] = 0.5" --kernel precomputed:file=asymmetric.bin
matrix nan.bin 3 3 1   1 0 0  0 nan 0  0 0 1
bad_kernel nan_entry "nan.bin: entry \\(1, 1\\) is not finite" --kernel precomputed:file=nan.bin
# a training kernel's values are tested finite in the symmetry pass over its rows (float32, all rows),
# or before it (a fold's rows): the same one line either way
DTYPE=2 matrix nan32.bin 3 3 1   1 0 0  0 1 nan  0 nan 1
bad_kernel nan32_entry "nan32.bin: entry \\(1, 2\\) is not finite" --kernel precomputed:file=nan32.bin
DTYPE=2 matrix inf32.bin 3 3 1   1 0 0  0 1 0  0 0 inf
bad_kernel inf32_entry "inf32.bin: entry \\(2, 2\\) is not finite" --kernel precomputed:file=inf32.bin
DTYPE=2 matrix lower_inf32.bin 3 3 1   1 0 0  -inf 1 0  0 0 1
bad_kernel lower_inf32_entry "lower_inf32.bin: entry \\(1, 0\\) is not finite" --kernel precomputed:file=lower_inf32.bin
if expect_status 2 "$KM" train -v 3 --kernel precomputed:file=nan32.bin "$WORK/data"; then
    expect_one_line_error "nan32.bin: entry \\(1, 2\\) is not finite"
fi
matrix newer.bin 3 3 2   1 0 0  0 1 0  0 0 1
bad_kernel newer "newer.bin: unsupported matrix format version 2" --kernel precomputed:file=newer.bin
matrix short.bin 3 3 1   1 0 0  0 1
bad_kernel truncated "short.bin: file has 72 bytes, expected 104" --kernel precomputed:file=short.bin
matrix huge.bin 4294967296 4294967296 1
bad_kernel huge_header "huge.bin: .*(expected|too large|bytes)" --kernel precomputed:file=huge.bin
bad_kernel missing_file "nowhere.bin.*(open|No such)" --kernel precomputed:file=nowhere.bin

# not positive semidefinite: training goes on with one warning naming the file and an entry
matrix not_psd.bin 3 3 1   1 2 0  2 1 0  0 0 1
expect_status 0 "$KM" train --kernel precomputed:file=not_psd.bin data not_psd.model &&
    expect_one_line_error "warning: .*not_psd.bin is not positive semidefinite \(K\[2\]\[1\] = 2"
matrix negative_diagonal.bin 3 3 1   1 0 0  0 -1 0  0 0 1
expect_status 0 "$KM" train --kernel precomputed:file=negative_diagonal.bin data neg.model &&
    expect_one_line_error "warning: .*negative_diagonal.bin is not positive semidefinite .*K\[2\]\[2\] = -1"
matrix psd.bin 3 3 1   2 1 0  1 2 1  0 1 2
expect_status 0 "$KM" train -q --kernel precomputed:file=psd.bin data psd.model
[ -s "$WORK/err" ] && fail "a positive definite matrix gave a warning: $(cat "$WORK/err")"

# LIBSVM precomputed-kernel rows (-t 4)
printf '1 0:1 1:1 2:0.5 3:0\n-1 0:2 1:0.5 2:1\n1 0:3 1:0 2:0 3:1\n' >ragged.k
expect_status 2 "$KM" train -t 4 ragged.k r.model && expect_one_line_error "ragged.k:2: 2 kernel values, expected 3"
printf '1 0:1 1:1 2:0.5 3:0\n-1 0:7 1:0.5 2:1 3:0\n1 0:3 1:0 2:0 3:1\n' >bad_id.k
expect_status 2 "$KM" train -t 4 bad_id.k r.model && expect_one_line_error "bad_id.k: row 2: id 0:7 is not one of the kernel columns 1..3"
printf '1 0:1 1:1 2:5 3:0\n-1 0:2 1:0.5 2:1 3:0\n1 0:3 1:0 2:0 3:1\n' >asymmetric.k
expect_status 2 "$KM" train -t 4 asymmetric.k r.model && expect_one_line_error "asymmetric.k is not symmetric"
printf '1 1:1 2:0.5\n-1 1:0.5 2:1\n' >no_id.k
expect_status 2 "$KM" train -t 4 no_id.k r.model && expect_one_line_error "no_id.k:1: .*0:id"
[ -e r.model ] && fail "a model was written from hostile precomputed rows"

# a test kernel that does not match the model's training rows
matrix good.bin 3 3 1   2 1 0  1 2 1  0 1 2
expect_status 0 "$KM" train -q --kernel precomputed:file=good.bin data good.model
matrix test_cols.bin 2 2 1   1 0 0 1
if "$KM" predict --help | grep -q -- '--test-kernel'; then
    expect_status 2 "$KM" predict --test-kernel test_cols.bin data good.model pred &&
        expect_one_line_error "test kernel 1 is 2 x 2; expected 3 x 3"
    [ -e pred ] && fail "predictions written with a mismatched test kernel"
fi

# kernel specs: unknown kernel, bad parameters, empty grids
bad_spec() {
    if expect_status 2 "$KM" train --kernel "$1" data spec.model; then
        expect_one_line_error "kernel spec '$(printf '%s' "$1" | sed 's/[][\.*^$]/\\&/g')': $2"
    fi
}
bad_spec gaussian "unknown kernel type 'gaussian'"
bad_spec "" "empty kernel spec"
bad_spec "rbf:gamma=-1" "gamma must be positive"
bad_spec "rbf:gamma=0" "gamma must be positive"
bad_spec "rbf:gamma=abc" "gamma: bad value 'abc'"
bad_spec "rbf:gamma=nan" "gamma: bad value 'nan'"
bad_spec "rbf:gamma=1,,2" "gamma: bad value ''"
bad_spec "rbf:gamma=" "key 'gamma' has no value"
bad_spec "rbf:gamma" "option 'gamma' is not KEY=VALUES"
bad_spec "poly:degree=0.5" "degree must be a positive integer"
bad_spec "poly:width=3" "unknown key 'width'"
bad_spec "linear:gamma=1" "(key|gamma).*(linear|not)"
bad_spec "rbf:norm=bogus" "unknown normalization 'bogus'"
bad_spec "linear:features=0" "features are numbered from 1"
bad_spec "linear:features=5-2" "bad feature range in '5-2'"
bad_spec "rbf:gamma=2^4..2^1" "gamma: empty grid '2\^4..2\^1'"
bad_spec "poly:degree=5..1" "degree: empty grid '5..1'"
bad_spec "rbf:gamma=1..100001" "gamma: range '1..100001' gives 100001 values, more than the 100000 kernels"
bad_spec "rbf:gamma=1..1e300" "gamma: range '1..1e300' gives 1e\\+300 values"
bad_spec "rbf:gamma=1.00001^0..1.00001^1e7" "gamma: range .* gives 1e\\+07 values"
bad_spec "rbf:gamma=2^-1e7..2^0" "gamma: bad range .*: .2\\^-1e7. is below the smallest positive normal double"
bad_spec "rbf:gamma=1e-320" "gamma: bad value .1e-320.: below the smallest positive normal double"
bad_spec "poly:degree=1..400:coef0=1..400" "expands to more than 100000 kernels"
[ -e spec.model ] && fail "a model was written despite a bad kernel spec"
printf 'rbf\n\nbogus:gamma=1\n' >specs
expect_status 2 "$KM" train --kernels specs data spec.model && expect_one_line_error "specs:3: .*bogus"
finish
