# Hostile training data, LIBSVM and CSV: exit status 2, one line on stderr naming the file, the line
# and the problem, and no model file (nor its temporary file) left behind. In the sanitizer build
# a sanitizer report would add lines and change the status, so these checks also catch those.
. "$(dirname "$0")/lib.sh" "$@"

# hostile NAME CONTENT PATTERN [TRAIN_OPTIONS...]: training on CONTENT fails as PATTERN describes
# (PATTERN follows "NAME").
hostile() {
    name=$1 content=$2 pattern=$3
    shift 3
    printf -- "$content" >"$WORK/$name"
    if expect_status 2 "$KM" train "$@" "$WORK/$name" "$WORK/$name.model"; then
        expect_one_line_error "$name$pattern"
    fi
    [ -e "$WORK/$name.model" ] && fail "$name: a model file was written"
    ls -A "$WORK" | grep -q "^\.kernelmix-" && fail "$name: a temporary model file was left"
}

# empty and binary files
hostile empty "" ":1: no data rows"
hostile blank_lines "\n  \n\t\n" ":[0-9]+: no data rows"
hostile elf_header "\177ELF\002\001\001\000\000\000" ":1: unexpected byte 0x7F"
hostile nul_bytes "1 1:0.5\n-1 1:\000\n" ":2: unexpected byte 0x00"
hostile gzip "\037\213\010\000\000\000\000\000" ":1: .*gzip"
hostile control_bytes "1 1:0.5\033[31m\n" ":1: unexpected byte 0x1B"
# indices: ragged, duplicate, descending, zero, negative, beyond 2^31
hostile duplicate_index "1 1:0.5 2:1 2:3\n-1 1:1\n" ":1: feature index 2 is not greater than the previous index 2"
hostile descending_index "1 1:0.5\n-1 3:1 2:1\n" ":2: feature index 2 is not greater than the previous index 3"
hostile index_zero "1 0:0.5\n-1 1:1\n" ":1: feature index 0 is invalid"
hostile index_negative "1 1:1\n-1 -4:1\n" ":2: feature index -4 is negative"
hostile index_2_31 "1 2147483648:1\n-1 1:1\n" ":1: feature index 2147483648 is above 2147483647"
hostile index_2_64 "1 18446744073709551617:1\n-1 1:1\n" ":1: feature index 18446744073709551617 is above"
hostile index_not_number "1 x:1\n-1 1:1\n" ":1: .*index"
hostile value_missing "1 1:\n-1 1:1\n" ":1: missing value of feature 1"
hostile value_text "1 1:abc\n-1 1:1\n" ":1: non-numeric value of feature 1"
hostile value_overflow "1 1:1e400\n-1 1:1\n" ":1: value of feature 1 '1e400' is out of range"
# NaN and Inf values and labels; labels that are not numbers
hostile value_nan "1 1:NaN\n-1 1:1\n" ":1: value of feature 1 'NaN' is not finite"
hostile value_inf "1 1:1\n-1 1:-inf\n" ":2: value of feature 1 '-inf' is not finite"
hostile label_nan "nan 1:1\n-1 1:1\n" ":1: label 'nan' is not finite"
hostile label_inf "1 1:1\nInfinity 1:1\n" ":2: label 'Infinity' is not finite"
hostile label_text "yes 1:1\n-1 1:1\n" ":1: non-numeric label 'yes'"
hostile label_missing "1:0.5 2:1\n" ":1: .*label"
# one class where C-SVC needs two (binary, one-vs-rest, cross-validation)
hostile one_class "1 1:1\n1 1:2\n1 1:3\n" ": all 3 training rows have label 1; classification needs two classes"
hostile one_class_ovr "2 1:1\n2 1:2\n" ": all 2 training rows have label 2" --multiclass ovr
hostile one_class_cv "7 1:1\n7 1:2\n7 1:3\n7 1:4\n" ": .*label 7.*two classes" -v 2
hostile one_class_weighted "-1 1:1\n-1 1:2\n" ": all 2 training rows have label -1" -w1 5
# CSV: ragged rows, NaN, labels that are not numbers, empty
hostile ragged.csv "1,2,0\n3,4,1\n5,1\n" ":3: 2 fields, expected 3"
hostile nan.csv "1,2,0\nnan,4,1\n" ":2: value 'nan' in field 1 is not finite"
hostile label.csv "1,2,a\n3,4,b\n" ":1: non-numeric label 'a' in field 3"
hostile label_inf.csv "1,2,0\n3,4,inf\n" ":2: .*label.*not finite"
hostile empty.csv "" ":1: no data rows"
hostile one_class.csv "1,2,5\n3,4,5\n" ": all 2 training rows have label 5"

# one-class SVM trains on a single label: the contrast with C-SVC above
printf '1 1:1\n1 1:2\n1 1:3\n' >"$WORK/single"
expect_status 0 "$KM" train -q -s 2 "$WORK/single" "$WORK/single.model"
[ -s "$WORK/single.model" ] || fail "one-class training on one label wrote no model"

# a hostile test file: no predictions are written
head -n 20 "$DATA/heart_scale" >"$WORK/good"
expect_status 0 "$KM" train -q "$WORK/good" "$WORK/good.model"
for content in "" "1 1:nan\n" "+1 2:1 1:1\n" "x 1:1\n"; do
    printf -- "$content" >"$WORK/test"
    if expect_status 2 "$KM" predict "$WORK/test" "$WORK/good.model" "$WORK/pred"; then
        expect_one_line_error "test:1: "
    fi
    [ -e "$WORK/pred" ] && fail "predictions written for test file '$content'"
done
# Streams that are not text end at their first bytes, whatever their length: /dev/zero (a NUL at
# column 1) as data and as a model, an endless "y" stream as a model. Each is read under a 20 s limit
# (an unbounded read fills memory or the limit). The endless line is in test_hostile_memory.
bounded() { timeout -s KILL 20 "$@"; }
expect_status 2 bounded "$KM" train /dev/zero "$WORK/zero.model" &&
    expect_one_line_error "^kernelmix train: /dev/zero:1: unexpected byte 0x00 at column 1$"
[ -e "$WORK/zero.model" ] && fail "a model was written from /dev/zero"
printf '1 1:1\n-1 1:-1\n' >"$WORK/two"
expect_status 0 "$KM" train -q "$WORK/two" "$WORK/two.model"
expect_status 2 bounded "$KM" predict /dev/zero "$WORK/two.model" "$WORK/zero.pred" &&
    expect_one_line_error "/dev/zero:1: unexpected byte 0x00"
expect_status 2 bounded "$KM" predict "$WORK/two" /dev/zero "$WORK/zero.pred" &&
    expect_one_line_error "/dev/zero: not a kernelmix model"
expect_status 2 bounded sh -c 'yes | "$1" info /dev/stdin' sh "$KM" && expect_one_line_error "/dev/stdin: not a kernelmix model"
# the kernel spec file and the range file go through the same bounded line reader
expect_status 2 bounded "$KM" train --kernels /dev/zero "$WORK/two" "$WORK/zero.model" &&
    expect_one_line_error "^kernelmix train: /dev/zero:1: unexpected byte 0x00 at column 1$"
expect_status 2 bounded "$KM" kernel --kernels /dev/zero "$WORK/two" "$WORK/zero.bin" &&
    expect_one_line_error "/dev/zero:1: unexpected byte 0x00 at column 1$"
expect_status 2 bounded "$KM" scale -r /dev/zero "$WORK/two" "$WORK/zero.scaled" &&
    expect_one_line_error "^kernelmix scale: /dev/zero:1: unexpected byte 0x00 at column 1$"
for f in zero.model zero.bin zero.scaled; do [ -e "$WORK/$f" ] && fail "$f was written from /dev/zero"; done
finish
