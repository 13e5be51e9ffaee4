#!/usr/bin/env bash
# slurm-test.sh - a real Slurm run of a sharded sweep, on this machine, checked against a
# single-process sweep byte for byte. Part of scripts/test.sh.
#
#   scripts/slurm-test.sh
#
# 1. Installs Debian's Slurm (slurmctld, slurmd, slurm-client) and munge if missing.
# 2. Starts a one-node cluster in a temporary folder: munged, slurmctld and slurmd as this user
#    (root), localhost only, 2 CPUs, private ports and sockets (nothing in /etc is changed).
# 3. Makes two synthetic datasets and submits the sweep over them as an array of 4 shards
#    (scripts/slurm/sweep.sbatch, shared --work) and the merge job after it
#    (scripts/slurm/merge.sbatch, --dependency=afterok).
# 4. Once shard 1 has finished a group, requeues its task (`scontrol requeue`: the task is killed
#    and runs again); checks that the second run resumed (skipped the finished groups).
# 5. Waits for the merge job, runs the same sweep in one process, and compares every exported file
#    byte for byte.
# 6. Stops every daemon it started (also on failure), and prints each step's duration.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
t0=$(date +%s)
last=$t0
step() {
  local now
  now=$(date +%s)
  printf '== slurm-test: %s (+%d s, %d s in all)\n' "$*" "$((now - last))" "$((now - t0))" >&2
  last=$now
}

# --- 1. Slurm and munge ---
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  step "apt-get install slurmctld slurmd slurm-client munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi
[ -r /etc/munge/munge.key ] || { echo "slurm-test: /etc/munge/munge.key is missing (the munge package creates it)" >&2; exit 1; }
bin=${ANNOSAT_BIN:-$CARGO_TARGET_DIR/native/annosat}
if [ -z "${ANNOSAT_BIN:-}" ]; then
  cargo build -q --locked --profile native -p annosat-trainer
fi
step "tools ready"

# --- 2. a one-node cluster ---
state=$(mktemp -d /tmp/annosat-slurm.XXXXXX)
chmod 755 "$state"
pids=()
stop() {
  local rc=$?
  # Jobs still running (a failed run) first, so no job step outlives its slurmd.
  if [ -n "${SLURM_CONF:-}" ] && [ -e "${SLURM_CONF}" ]; then
    scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.1; done
  fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  if [ "$rc" != 0 ]; then
    echo "slurm-test: failed; logs:" >&2
    tail -n 30 "$state"/*.log "$state"/logs/* 2>/dev/null >&2 || true
  fi
  rm -rf "$state"
  exit "$rc"
}
trap stop EXIT
mkdir -p "$state/munge" "$state/ctld" "$state/d" "$state/logs"
chown munge:munge "$state/munge"
chmod 755 "$state/munge"
sock="$state/munge/munge.socket"
runuser -u munge -- munged --socket="$sock" --pid-file="$state/munge/munged.pid" \
  --log-file="$state/munge/munged.log" --seed-file="$state/munge/seed"
for _ in $(seq 50); do [ -s "$state/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$state/munge/munged.pid")")
host=$(hostname -s)
export SLURM_CONF="$state/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=annosat-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/ctld.pid
SlurmdPidFile=$state/d.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobRequeue=1
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >"$state/slurmctld.out" 2>&1 &
pids+=($!)
sleep 1
slurmd -D -f "$SLURM_CONF" >"$state/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %t | grep -q idle || { echo "slurm-test: the node did not come up" >&2; exit 1; }
step "cluster up ($(sinfo -h -o '%P %D node(s) %c CPUs %t'))"

# --- 3. data and the jobs ---
data=()
for s in 1 2; do
  "$bin" synth --out "$state/data/synth$s" --items 6000 --votes-per-item 10 --dim 32 --seed "$s" >/dev/null 2>&1
  data+=(--data "$state/data/synth$s")
done
# 3 split seeds x 4 model seeds x 2 datasets = 24 groups: 6 per shard, about a second each.
flags=("${data[@]}" --n 1,5,10 --arms hard,soft,sls,constant --split-seed 42,43,44 --model-seeds 4
  --epochs 30 --patience 30 --hidden 64)
sb=(--cpus-per-task=1 --open-mode=append --output="$state/logs/%x-%A_%a.out")
export ANNOSAT_BIN="$bin"
array=$(sbatch --parsable "${sb[@]}" --array=0-3 scripts/slurm/sweep.sbatch \
  "${flags[@]}" --work "$state/work" --out "$state/merged")
merge=$(sbatch --parsable "${sb[@]}" --dependency="afterok:$array" scripts/slurm/merge.sbatch \
  "${flags[@]}" --work "$state/work" --out "$state/merged")
step "submitted: array job $array (4 shards), merge job $merge"

# --- 4. kill shard 1 once, mid-way ---
log1="$state/logs/annosat-sweep-${array}_1.out"
for _ in $(seq 600); do
  grep -q "split .* seed .*: .* s" "$log1" 2>/dev/null && break
  sleep 0.1
done
grep -q "split .* seed .*: .* s" "$log1" || { echo "slurm-test: shard 1 never finished a group" >&2; exit 1; }
if grep -q "shard 1/4 done" "$log1"; then
  echo "slurm-test: shard 1 finished before it could be killed (groups too short for this machine)" >&2
  exit 1
fi
scontrol requeue "${array}_1"
# Slurm gives a requeued job a begin time about two minutes out; once it is pending for that
# reason, let it start now (a real cluster would wait; the test need not).
for _ in $(seq 100); do
  if scontrol show job "${array}_1" | grep -q "Reason=BeginTime"; then
    scontrol update JobId="${array}_1" StartTime=now
    break
  fi
  sleep 0.1
done
step "shard 1 requeued after its first group"

# --- 5. wait for the merge; compare with one process ---
state_of() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
for _ in $(seq 1800); do
  s=$(state_of "$merge")
  case "$s" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
  sleep 0.5
done
[ "$(state_of "$merge")" = COMPLETED ] || { echo "slurm-test: merge job $merge ended $(state_of "$merge")" >&2; exit 1; }
step "merge job completed"
restarts=$(grep -c "annosat sweep shard 1/4" "$log1")
[ "$restarts" -ge 2 ] || { echo "slurm-test: shard 1 ran $restarts time(s), expected a second run after the requeue" >&2; exit 1; }
# The second run's first dataset: the groups the killed run had finished are skipped.
resumed=$(awk '/annosat sweep shard 1\/4/ { run++ } run == 2 && /groups \(/ { print; exit }' "$log1" |
  sed -n 's/.*: \([0-9]*\) groups (\([0-9]*\) done).*/\2 of \1/p')
case "$resumed" in "" | "0 of"*) echo "slurm-test: shard 1's second run did not resume: ${resumed:-no log line}" >&2; exit 1 ;; esac
"$bin" sweep "${flags[@]}" --work "$state/work-single" --out "$state/single" >/dev/null 2>&1
diff -r "$state/single" "$state/merged" >&2
files=$(find "$state/merged" -type f | wc -l)
step "merged exports equal the single-process sweep's, byte for byte ($files files)"
echo "slurm-test: passed — 4 shards on a one-node Slurm cluster, shard 1 requeued once and resumed ($resumed groups of its dataset were done), merge after afterok equal to one process ($files files)"
