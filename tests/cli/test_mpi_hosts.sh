#!/bin/bash
# kernelmix cv and train over Open MPI across hosts: three hosts built on this machine as Linux network
# namespaces joined by veth pairs to a bridge (10.213.7.0/24, created here and removed at the end);
# mpirun starts in the first and reaches the others through a launcher of this test's own that runs
# the command with `ip netns exec` (no ssh server), with Open MPI's TCP held to that subnet. Three
# ranks, one per host: cv writes the same results as one process (the *_seconds fields aside), with
# the data read from the shared filesystem and, with --bcast, read by rank 0 only; data-parallel
# training writes one process's model (KRR on low-rank kernels to 1e-9; C-SVC with bias, the default:
# the same objective and predictions). Needs root and ip netns; says so and skips elsewhere.
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/mpi.sh"
[ "$(id -u)" -eq 0 ] && command -v ip >/dev/null || { echo "skipped: needs root / ip netns" >&2; exit 77; }
prefix="km$$"
subnet=10.213.7.0/24
cleanup() {
    for ns in "$prefix-sw" "$prefix-h0" "$prefix-h1" "$prefix-h2"; do ip netns del "$ns" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT
ip netns add "$prefix-sw" 2>/dev/null || { echo "skipped: needs root / ip netns (ip netns add failed)" >&2; exit 77; }
ip -n "$prefix-sw" link add br0 type bridge && ip -n "$prefix-sw" link set br0 up || fail "the bridge"
for h in 0 1 2; do
    ns="$prefix-h$h"
    ip netns add "$ns" &&
        ip link add "${prefix}h$h" type veth peer name "${prefix}s$h" &&
        ip link set "${prefix}h$h" netns "$ns" &&
        ip link set "${prefix}s$h" netns "$prefix-sw" &&
        ip -n "$prefix-sw" link set "${prefix}s$h" master br0 &&
        ip -n "$prefix-sw" link set "${prefix}s$h" up &&
        ip -n "$ns" addr add "10.213.7.$((h + 1))/24" dev "${prefix}h$h" &&
        ip -n "$ns" link set "${prefix}h$h" up &&
        ip -n "$ns" link set lo up || fail "host $h"
done
[ "$FAILURES" -eq 0 ] || finish

# the launcher mpirun calls as it would call ssh: HOST COMMAND...; each host has a temporary directory
# of its own, as separate machines have (Open MPI keeps its session files there, named by host name,
# which the namespaces share)
mkdir -p "$WORK/tmp-h0" "$WORK/tmp-h1" "$WORK/tmp-h2"
cat >"$WORK/launch" <<LAUNCH
#!/bin/bash
host="\$1"
shift
h=\$(( \${host##*.} - 1 ))
exec ip netns exec "$prefix-h\$h" env TMPDIR="$WORK/tmp-h\$h" /bin/sh -c "\$*"
LAUNCH
chmod +x "$WORK/launch"
printf '10.213.7.1 slots=1\n10.213.7.2 slots=1\n10.213.7.3 slots=1\n' >"$WORK/hosts"
MPIRUN=(timeout 120 ip netns exec "$prefix-h0" env TMPDIR="$WORK/tmp-h0" mpirun --allow-run-as-root --hostfile "$WORK/hosts" -n 3
        --mca plm_rsh_agent "$WORK/launch" --mca btl tcp,self --mca btl_tcp_if_include "$subnet"
        --mca oob_tcp_if_include "$subnet" --mca mpi_yield_when_idle 1)
need_mpi_build cv

# one rank on each host: each sees its own address
addresses=$("${MPIRUN[@]}" /bin/sh -c 'ip -4 -o addr show | grep -o "10\.213\.7\.[0-9]*"' | sort | tr '\n' ' ')
[ "$addresses" = "10.213.7.1 10.213.7.2 10.213.7.3 " ] || fail "the ranks' hosts: '$addresses'"

head -n 160 "$DATA/heart_scale" >"$WORK/train"
grid=(-q --json --kernel 'rbf:gamma=2^-3..2^3/mean' --kernel linear -c 2^-2..2^4:2 --p 1,2 --folds 3 --nested 2)
untimed() { sed -E 's/"fit_seconds": [^,]*,//' "$1"; }
"$KM" cv "${grid[@]}" -o "$WORK/alone.jsonl" "$WORK/train" || fail "cv without mpirun"
"${MPIRUN[@]}" "$KM" cv "${grid[@]}" -o "$WORK/hosts.jsonl" "$WORK/train" 2>"$WORK/err" ||
    fail "three hosts: $(cat "$WORK/err")"
cmp -s <(untimed "$WORK/alone.jsonl") <(untimed "$WORK/hosts.jsonl") || fail "three hosts: results differ from one process"
"${MPIRUN[@]}" "$KM" cv --bcast "${grid[@]}" -o "$WORK/bcast.jsonl" "$WORK/train" 2>"$WORK/err" ||
    fail "three hosts, --bcast: $(cat "$WORK/err")"
cmp -s <(untimed "$WORK/alone.jsonl") <(untimed "$WORK/bcast.jsonl") || fail "three hosts, --bcast: results differ"

# data-parallel training: each host computes the features of its third of the rows
. "$ROOT/tests/cli/same_model.sh"
krr=(-q -s krr -c 4 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=60' --kernel 'poly:degree=2:rank=40')
svc=(-q -e 1e-5 -c 0.25 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=60')
for task in krr svc; do
    declare -n args=$task
    "$KM" train "${args[@]}" "$DATA/heart_scale" "$WORK/$task.model" || fail "$task without mpirun"
    "${MPIRUN[@]}" "$KM" train "${args[@]}" "$DATA/heart_scale" "$WORK/$task-hosts.model" 2>"$WORK/err" ||
        fail "$task on three hosts: $(cat "$WORK/err")"
    "$KM" predict -q "$DATA/heart_scale" "$WORK/$task.model" "$WORK/$task.out" &&
        "$KM" predict -q "$DATA/heart_scale" "$WORK/$task-hosts.model" "$WORK/$task-hosts.out" || fail "predict, $task"
done
same_model "$WORK/krr.model" "$WORK/krr-hosts.model" 1e-9 || fail "KRR on three hosts: the model differs from one process's"
same_numbers "$WORK/krr.out" "$WORK/krr-hosts.out" 1e-9 || fail "KRR on three hosts: the predictions differ"
same_model "$WORK/svc.model" "$WORK/svc-hosts.model" 1e-9 objective || fail "C-SVC on three hosts: the objective differs"
cmp -s "$WORK/svc.out" "$WORK/svc-hosts.out" || fail "C-SVC on three hosts: the predictions differ"
finish
