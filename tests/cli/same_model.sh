# Comparisons of models and predictions trained or computed in different ways (data-parallel training
# against one process), sourced by tests/cli/test_*.sh after lib.sh.

# same_model A B RELTOL [KEYS]: the machines of model files A and B agree to RELTOL relative to the
# largest of each kind in KEYS (default "sv theta coef bias objective"; sv: the same support rows); a
# message on stderr names what differs.
same_model() {
    "$PYTHON" - "$1" "$2" "$3" "${4:-sv theta coef bias objective}" <<'PY'
import sys

def machines(path):
    found, current = [], None
    for line in open(path):
        fields = line.split()
        if line.startswith("["):
            current = {"sv": [], "coef": []} if line.startswith("[machine ") else None
            if current is not None:
                found.append(current)
        elif current is not None and fields:
            if fields[0] in ("theta", "bias", "objective", "primal", "gap"):
                current[fields[0]] = [float(v) for v in fields[1:]]
            elif fields[0].isdigit():
                current["sv"].append(int(fields[0]))
                current["coef"].extend(float(v) for v in fields[1:])
    return found

a, b, tol, keys = machines(sys.argv[1]), machines(sys.argv[2]), float(sys.argv[3]), sys.argv[4].split()
if len(a) != len(b) or not a:
    sys.exit(f"{len(a)} machines against {len(b)}")
for k, (x, y) in enumerate(zip(a, b)):
    if "sv" in keys and x["sv"] != y["sv"]:
        sys.exit(f"machine {k}: the support rows differ")
    for key in (key for key in keys if key != "sv"):
        scale = max([abs(v) for v in x[key]] + [1e-300])
        worst = max(abs(u - v) for u, v in zip(x[key], y[key])) / scale
        if len(x[key]) != len(y[key]) or worst > tol:
            sys.exit(f"machine {k}: {key} differs by {worst:.3g} relative")
PY
}

# same_numbers A B RELTOL: the whitespace-separated numbers of files A and B agree to RELTOL relative to
# the largest of A's.
same_numbers() {
    "$PYTHON" - "$1" "$2" "$3" <<'PY'
import sys
a, b = ([float(v) for v in open(p).read().split()] for p in sys.argv[1:3])
scale = max([abs(v) for v in a] + [1e-300])
worst = max((abs(u - v) for u, v in zip(a, b)), default=0) / scale
if len(a) != len(b) or worst > float(sys.argv[3]):
    sys.exit(f"{len(a)} against {len(b)} numbers, differing by {worst:.3g} relative")
PY
}

# within_gaps A B GAP: each machine of model files A and B (learned kernel weights) certifies a relative
# duality gap of at most GAP, and their objectives (duals) differ by no more than both gaps allow:
# |D_a - D_b| <= (gap_a + gap_b) |P_a|.
within_gaps() {
    "$PYTHON" - "$1" "$2" "$3" <<'PY'
import sys
machines = []
for path in sys.argv[1:3]:
    found = []
    for line in open(path):
        fields = line.split()
        if line.startswith("[machine "):
            found.append({})
        elif found and fields and fields[0] in ("objective", "primal", "gap"):
            found[-1][fields[0]] = float(fields[1])
    machines.append(found)
target = float(sys.argv[3])
for k, (x, y) in enumerate(zip(*machines)):
    if not (x["gap"] <= target and y["gap"] <= target):
        sys.exit(f"machine {k}: gaps {x['gap']:.3g} and {y['gap']:.3g}, target {target:.3g}")
    allowed = (x["gap"] + y["gap"]) * abs(x["primal"])
    if abs(x["objective"] - y["objective"]) > allowed:
        sys.exit(f"machine {k}: objectives {x['objective']!r} and {y['objective']!r} differ by more than the gaps "
                 f"allow ({allowed:.3g})")
if len(machines[0]) != len(machines[1]) or not machines[0]:
    sys.exit("the models have different machines")
PY
}
