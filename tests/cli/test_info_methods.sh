# kernelmix info on a model of every kernel-weight method (tests/data/model-v2): the text and the JSON
# describe the method the model file names, with its settings as the file stores them, and the
# method's own figures agree with the identities they come from: the Ivanov form of a Tikhonov machine
# has weights theta = s d and C/s with ||theta||_q = 1 (lq), OBSCURE's weights sum to 1 and are its
# [data obscure] values, the localized models list their clusters, empirical Bayes its evidence.
. "$(dirname "$0")/lib.sh" "$@"

MODELS="$ROOT/tests/data/model-v2"
for model in "$MODELS"/*.model; do
    name=$(basename "$model" .model)
    expect_status 0 "$KM" info --json "$model" && cp "$WORK/out" "$WORK/$name.json" || continue
    expect_status 0 "$KM" info "$model" && cp "$WORK/out" "$WORK/$name.txt" || continue
    "$PYTHON" - "$model" "$WORK/$name.json" "$WORK/$name.txt" 2>"$WORK/check" <<'PY' || fail "$name: $(cat "$WORK/check")"
import json, math, re, sys

def reject(c):
    raise ValueError("bare " + c)

lines = open(sys.argv[1]).read().splitlines()
j = json.load(open(sys.argv[2]), parse_constant=reject)
text = open(sys.argv[3]).read()
problems = []

# the model file's [mkl] section and [data NAME] entries
section, stored, data = None, {}, {}
for k, line in enumerate(lines):
    if line.startswith("["):
        section = line.strip("[]")
    elif section == "mkl" or (section == "model" and line.split()[0] == "C"):
        stored[line.split()[0]] = line.split()[1]
    elif section and section.startswith("data ") and " rows " in line:
        data.setdefault(section[5:], {})[line.split()[0]] = [float(v) for v in lines[k + 1].split()]

mkl = j["mkl"]
method = stored["method"]
if mkl["method"] != method:
    problems.append("JSON method %s, the file's %s" % (mkl["method"], method))
settings = re.search(r"^kernel weights    (.*)$", text, re.M).group(1)
if method not in settings:
    problems.append("the text's settings %r do not name %s" % (settings, method))
for key in ("p_block", "solver", "shared_weights"):
    if key not in mkl:
        problems.append("no %s in the JSON settings" % key)
if float(stored["gap"]) != mkl["target_gap"]:
    problems.append("target gap %r, the file's %s" % (mkl["target_gap"], stored["gap"]))
for key in ("radius", "align_q", "eta", "reg_param"):
    if key in stored and float(stored[key]) != mkl[key]:
        problems.append("%s %r, the file's %s" % (key, mkl.get(key), stored[key]))
if stored.get("regularizer", mkl.get("regularizer")) != mkl.get("regularizer"):
    problems.append("regularizer %r, the file's %s" % (mkl.get("regularizer"), stored["regularizer"]))

C = float(stored["C"])
for k, machine in enumerate(j["machines"]):
    ivanov = machine.get("ivanov")
    if (ivanov is not None) != (method == "tikhonov"):
        problems.append("machine %d: Ivanov form %r for %s" % (k, ivanov, method))
    if ivanov is None:
        continue
    d, theta = machine["kernel_weights"], ivanov["kernel_weights"]
    s = [t / w for t, w in zip(theta, d) if w > 0]
    if max(s) - min(s) > 1e-12 * max(s) or abs(ivanov["C"] * s[0] - C) > 1e-12 * C:
        problems.append("machine %d: Ivanov weights %r and C %r are not s d, C/s" % (k, theta, ivanov["C"]))
    if mkl["regularizer"] == "lq":
        q = mkl["reg_param"]
        if abs(sum(t ** q for t in theta) ** (1 / q) - 1) > 1e-12:
            problems.append("machine %d: ||theta||_q of the Ivanov form is not 1" % k)
    if "Ivanov form: --mkl %s" % ivanov["method"] not in text:
        problems.append("the text has no Ivanov form of method %s" % ivanov["method"])

obscure = mkl.get("obscure")
if (obscure is not None) != (method == "obscure"):
    problems.append("OBSCURE figures %r for %s" % (obscure, method))
if obscure is not None:
    if abs(sum(obscure["weights"]) - 1) > 1e-12:
        problems.append("OBSCURE's weights sum to %r" % sum(obscure["weights"]))
    for key, values in data["obscure"].items():
        if obscure[key] != (values if len(values) > 1 or key.startswith("weights") else values[0]):
            problems.append("OBSCURE's %s %r, the file's %r" % (key, obscure[key], values))
    if "  obscure: lambda %.6g" % obscure["lambda"] not in text:
        problems.append("the text has no OBSCURE stages")

if ("clusters" in mkl) != (method in ("clmkl", "hlmkl")):
    problems.append("clusters %r for %s" % (mkl.get("clusters"), method))
if any("evidence" in m for m in j["machines"]) != method.startswith("eb-") or \
        ("empirical Bayes" in settings) != method.startswith("eb-"):
    problems.append("evidence or empirical Bayes shown (or not) for %s" % method)
if problems:
    sys.stderr.write("; ".join(problems))
    sys.exit(1)
PY
done
finish
