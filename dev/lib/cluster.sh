#!/usr/bin/env bash
# A private single-host OpenMPI + Slurm for end-to-end tests under real mpirun and srun.
#
#   source dev/lib/cluster.sh            # then: cluster_install, cluster_up, cluster_smoke, cluster_down
#   dev/lib/cluster.sh install|up|smoke|status|down      # by hand
#
# Typical use from a test script:
#   trap cluster_down EXIT     # first: cluster_down is harmless when nothing is up
#   cluster_install && cluster_up && cluster_smoke
#
# Everything cluster_up starts (munged, slurmctld, slurmd) lives under one directory it creates,
# ${TMPDIR:-/tmp}/sdm-cluster.XXXXXX: config, state, spool, logs, munge key and socket. Nothing
# under /etc, /run or /var is written, so cluster_down leaves the machine as it found it.
#
# Measured on Debian 12, 2 cores, root, Slurm 22.05.8, OpenMPI 4.1.4 (3 runs, median first):
#   cluster_install, already installed:  64 ms (62-72 ms; dpkg-query only)
#   cluster_install, nothing installed:  ~16 s (apt-get update 1.0 s + install 14.8 s, timed by
#                                        hand with the same apt-get commands)
#   cluster_up (until srun -n 2 works):  0.30 s (0.30-0.33 s)
#   cluster_smoke:                       1.33 s
#   cluster_down:                        1.6 s (1.4-2.2 s); ~0.3 s of it is stopping the daemons,
#                                        the rest waits for this container's init to reap them
#
# Sourced by dev/test: no `set -e` here, every function returns a status instead, and all of it
# is `set -u` safe. Messages go to stderr prefixed [cluster]; a failure is one line saying why.

# Tunables (environment).
: "${SDM_CLUSTER_CPUS:=32}"        # CPUs the node claims; srun -n N needs N <= this (see below)
: "${SDM_CLUSTER_TIMEOUT:=30}"     # seconds cluster_up waits for the node and a first srun

# Debian's packages. The pmix plugin is in slurm-wlm-basic-plugins (a slurmd dependency), but it
# dlopen()s .../pmix2/lib/libpmix.so, the unversioned name that only libpmix-dev ships, and no
# Slurm package depends on it: without libpmix-dev `srun --mpi=pmix` fails. gcc is for mpicc.
_CLUSTER_PACKAGES="openmpi-bin libopenmpi-dev slurm-wlm munge libpmix-dev gcc"
_CLUSTER_COMMANDS="mpirun mpicc srun sinfo scontrol scancel slurmctld slurmd munged munge"
# Every daemon is started with this variable in its environment, set to the cluster directory.
# slurmstepd inherits it from slurmd, so down finds every process of its cluster (even when pid
# files are gone) without matching by process name, which could hit someone else's Slurm.
_CLUSTER_MARK=_SDM_CLUSTER_OWNER
# Lets `cluster.sh down|status|smoke` by hand find the cluster that `cluster.sh up` started.
_CLUSTER_POINTER="${TMPDIR:-/tmp}/sdm-cluster.current"
# When cluster_up fails it removes its directory, so it keeps the daemons' logs here.
_CLUSTER_FAILED_LOG="${TMPDIR:-/tmp}/sdm-cluster-failed.log"

_cl_say() { printf '[cluster] %s\n' "$*" >&2; }
_cl_fail() { printf '[cluster] %s\n' "$*" >&2; return 1; }

# ---------------------------------------------------------------------------------- install

# Prints what is missing: package names where dpkg exists, else command names.
_cluster_missing() {
  local p c out=""
  if command -v dpkg-query >/dev/null 2>&1; then
    for p in $_CLUSTER_PACKAGES; do
      dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || out+="$p "
    done
  else
    for c in $_CLUSTER_COMMANDS; do command -v "$c" >/dev/null 2>&1 || out+="$c "; done
  fi
  printf '%s' "${out% }"
}

cluster_install() {
  local missing log="${TMPDIR:-/tmp}/sdm-cluster-install.log"
  missing=$(_cluster_missing)
  [ -z "$missing" ] && return 0
  [ "$(id -u)" -eq 0 ] || { _cl_fail "cannot install $missing: not root"; return 1; }
  command -v apt-get >/dev/null 2>&1 || { _cl_fail "cannot install $missing: no apt-get"; return 1; }
  _cl_say "installing $missing (log: $log)"
  # shellcheck disable=SC2086  # $missing is a list of package names
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } \
      >"$log" 2>&1; then
    _cl_fail "apt-get failed ($log): $(grep -E '^E:' "$log" | tail -n 1)"; return 1
  fi
  missing=$(_cluster_missing)
  [ -z "$missing" ] || { _cl_fail "still missing after apt-get: $missing ($log)"; return 1; }
}

# ---------------------------------------------------------------------------------- helpers

# Runs CMD... every 0.2 s until it succeeds or SECONDS pass.
_cluster_wait() {
  local end=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -ge "$end" ] && return 1
    sleep 0.2
  done
}

# A zombie still answers kill -0, so look at the process state.
_cluster_alive() {
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}

# PIDs whose environment marks them as started for cluster DIR (any cluster when DIR is empty).
_cluster_pids() {
  local f pids="" re="^$_CLUSTER_MARK=${1:-}"
  [ -n "${1:-}" ] && re+='$'
  # shellcheck disable=SC2013  # /proc/N/environ paths have no spaces
  for f in $(grep -lsz -- "$re" /proc/[0-9]*/environ 2>/dev/null); do
    f=${f#/proc/}; f=${f%/environ}
    [ "$f" != "$$" ] && [ "$f" != "${BASHPID:-}" ] && pids+="$f "
  done
  printf '%s' "$pids"
}

# Whether cluster DIR has a live process named NAME.
_cluster_running() {
  local p
  for p in $(_cluster_pids "$1"); do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ] && _cluster_alive "$p" && return 0
  done
  return 1
}

# PID and all its descendants: an srun task's processes are children of slurmstepd, not marked.
_cluster_tree() {
  local c
  printf '%s ' "$1"
  for c in $(pgrep -P "$1" 2>/dev/null); do _cluster_tree "$c"; done
}

# Two TCP ports, 20000-59999, that nothing listens on or uses now.
_cluster_free_ports() {
  local used p
  used=" $(ss -Htan 2>/dev/null | awk '{n=split($4,a,":"); printf "%s ", a[n]}') "
  for _ in $(seq 100); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    case "$used" in *" $p "*|*" $((p + 1)) "*) continue ;; esac
    echo "$p $((p + 1))"; return 0
  done
  return 1
}

# ---------------------------------------------------------------------------------- up

# Writes DIR/slurm.conf. Why the lines that are not defaults:
#  - SlurmUser/SlurmdUser root: no slurm user or /var/spool ownership to prepare.
#  - proctrack/linuxproc, task/none: no cgroup setup (none in containers, none we want to touch).
#  - CPUs=$SDM_CLUSTER_CPUS with config_overrides: slurmd trusts the config, not the hardware;
#    with the real 2 CPUs `srun -n 4` waits forever. CR_CPU (not the default *_Memory) so jobs
#    without --mem do not each claim the whole node and run one at a time.
#  - MpiDefault=pmix: OpenMPI programs under srun work without --mpi.
#  - NodeAddr/SlurmctldHost on 127.0.0.1: no dependence on DNS or the host's real interfaces.
#  - KillWait=2: scancel and down finish quickly. MailProg: no mailer here, slurmctld logs an error.
_cluster_write_conf() {
  local dir=$1 host=$2 cport=$3 dport=$4
  cat >"$dir/slurm.conf" <<EOF
ClusterName=sdm
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
TmpFS=$dir/tmp
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
$(_cluster_conf_policy)
NodeName=$host NodeAddr=127.0.0.1 CPUs=$SDM_CLUSTER_CPUS State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

# The lines of slurm.conf that say how jobs run, shared with dev/lib/nodes.sh's cluster.
_cluster_conf_policy() {
  cat <<EOF
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=pmix
SwitchType=switch/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=2
MailProg=/bin/true
InactiveLimit=0
EOF
}

# Munge rather than auth/none: auth/none and cred/none are test-only plugins that newer Slurm
# releases no longer ship, and they let any local user act as anyone. A private munged (own key,
# socket and pid file in DIR, pointed to by AuthInfo=socket=) costs ~5 ms to start and does not
# touch /etc/munge or /run/munge, nor depend on a system munged running.
_cluster_start_munge() {
  local dir=$1
  mkdir -m 700 "$dir/munge"
  head -c 1024 /dev/urandom >"$dir/munge/munge.key" && chmod 600 "$dir/munge/munge.key"
  env "$_CLUSTER_MARK=$dir" munged --socket="$dir/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed" \
    --log-file="$dir/log/munged.log" >>"$dir/log/munged.out" 2>&1 </dev/null || return 1
  munge -n -S "$dir/munge.socket" | unmunge -S "$dir/munge.socket" >/dev/null 2>&1
}

# Both daemons fork into the background themselves once their config is read.
_cluster_start_slurm() {
  local dir=$1 d
  for d in slurmctld slurmd; do
    env "$_CLUSTER_MARK=$dir" SLURM_CONF="$dir/slurm.conf" \
      "$d" -f "$dir/slurm.conf" >>"$dir/log/$d.out" 2>&1 </dev/null || return 1
  done
}

# sinfo keeps retrying for many seconds when slurmctld is not there, hence the timeout.
_cluster_node_idle() {
  [ "$(timeout 3 sinfo -h -N -n "$1" -o %T 2>/dev/null)" = idle ]
}

# Waits for the node to be idle: 1 on timeout, 3 as soon as slurmctld or slurmd has died.
_cluster_wait_idle() {
  local dir=$1 host=$2 end=$((SECONDS + SDM_CLUSTER_TIMEOUT))
  while :; do
    _cluster_running "$dir" slurmctld && _cluster_running "$dir" slurmd || return 3
    _cluster_node_idle "$host" && return 0
    [ "$SECONDS" -ge "$end" ] && return 1
    sleep 0.2
  done
}

# The most telling line the daemons logged, for the one-line failure reason: a fatal one if
# any, else the last error that is not routine on a fresh state directory.
_cluster_last_error() {
  local line
  line=$(grep -hiE 'fatal' "$1"/log/* 2>/dev/null | tail -n 1)
  [ -n "$line" ] || line=$(grep -hiE 'error' "$1"/log/* 2>/dev/null \
    | grep -viE 'state save file|Triggers may be lost|No such file or directory' | tail -n 1)
  printf '%s (logs: %s)' "${line:-no error logged}" "$_CLUSTER_FAILED_LOG"
}

_cluster_save_logs() {
  local f
  for f in "$1"/slurm.conf "$1"/log/*; do
    [ -f "$f" ] && { echo "===== $f"; cat "$f"; }
  done >"$_CLUSTER_FAILED_LOG" 2>/dev/null
}

# One attempt with fresh ports: 0 when up, 1 after printing why not, 2 when a port was taken
# between choosing it and binding it (the caller retries).
_cluster_up_once() {
  local dir=$1 host=$2 ports cport dport left rc start=$SECONDS
  ports=$(_cluster_free_ports) || { _cl_fail "no free TCP ports found"; return 1; }
  read -r cport dport <<<"$ports"
  _cluster_write_conf "$dir" "$host" "$cport" "$dport"
  export SLURM_CONF="$dir/slurm.conf"
  _cluster_start_munge "$dir" || { _cl_fail "munged did not start: $(_cluster_last_error "$dir")"; return 1; }
  _cluster_start_slurm "$dir" || { _cl_fail "slurm did not start: $(_cluster_last_error "$dir")"; return 1; }
  _cluster_wait_idle "$dir" "$host"; rc=$?
  if [ "$rc" -ne 0 ]; then
    grep -qs 'Address already in use' "$dir"/log/* && return 2
    [ "$rc" -eq 3 ] && { _cl_fail "slurmctld or slurmd exited: $(_cluster_last_error "$dir")"; return 1; }
    _cl_fail "node $host not idle after ${SDM_CLUSTER_TIMEOUT}s: $(_cluster_last_error "$dir")"; return 1
  fi
  # The first srun gets what is left of the time limit, but at least 5 s.
  left=$((start + SDM_CLUSTER_TIMEOUT - SECONDS)); [ "$left" -ge 5 ] || left=5
  timeout "$left" srun -n 2 true >>"$dir/log/first-srun.out" 2>&1; rc=$?
  [ "$rc" -eq 124 ] && { _cl_fail "srun -n 2 true hung for ${left}s: $(_cluster_last_error "$dir")"; return 1; }
  [ "$rc" -eq 0 ] || { _cl_fail "srun -n 2 true failed: $(tail -n 1 "$dir/log/first-srun.out") (logs: $_CLUSTER_FAILED_LOG)"; return 1; }
}

cluster_up() {
  local dir host try rc c
  if [ -n "${SDM_CLUSTER_DIR:-}" ]; then
    _cluster_running "$SDM_CLUSTER_DIR" slurmctld && _cluster_running "$SDM_CLUSTER_DIR" slurmd \
      && return 0                      # already up
    _cluster_stop "$SDM_CLUSTER_DIR" 0 # what is left of a cluster that died
  fi
  [ "$(id -u)" -eq 0 ] || { _cl_fail "not root: slurmd must run as root to start jobs"; return 1; }
  for c in $_CLUSTER_COMMANDS; do
    command -v "$c" >/dev/null 2>&1 || { _cl_fail "$c not found (run cluster_install)"; return 1; }
  done
  host=$(hostname -s)
  for try in 1 2 3; do
    # 755: munged refuses a socket in a directory others cannot traverse; the key stays 700.
    dir=$(mktemp -d "${TMPDIR:-/tmp}/sdm-cluster.XXXXXX") || { _cl_fail "mktemp failed"; return 1; }
    chmod 755 "$dir" && mkdir -p "$dir"/{state,spool,tmp,log} && touch "$dir/.sdm-cluster"
    export SDM_CLUSTER_DIR=$dir
    _cluster_up_once "$dir" "$host"; rc=$?
    [ "$rc" -eq 0 ] && break
    # Never leave a half-started cluster behind. KILL at once: its state is worthless, and a
    # slurmd whose slurmctld died ignores TERM for 10 s or more while it retries registering.
    _cluster_save_logs "$dir"
    _cluster_stop "$dir" 0
    [ "$rc" -eq 2 ] || return 1
    _cl_say "a port was taken meanwhile, retrying ($try/3)"
  done
  [ "$rc" -eq 0 ] || { _cl_fail "could not find free ports in 3 tries"; return 1; }
  export SLURM_CONF="$dir/slurm.conf" SDM_CLUSTER_HOST="$host"
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  # The machine has fewer cores than the tests want ranks: let mpirun place several per core.
  export OMPI_MCA_rmaps_base_oversubscribe=1
}

# ---------------------------------------------------------------------------------- down

# Safe in `trap cluster_down EXIT`: never exits, tolerates a half-started or absent cluster,
# does nothing the second time. Cancels jobs first so no slurmstepd outlives slurmd.
cluster_down() {
  _cluster_stop "${SDM_CLUSTER_DIR:-}" 10
}

# Stops cluster DIR, giving daemons GRACE seconds to exit on TERM.
_cluster_stop() {
  local dir=$1 grace=$2
  # Clients hang for many seconds without slurmctld, so only ask it when it runs.
  if [ "$grace" -gt 0 ] && [ -n "$dir" ] && [ -f "$dir/slurm.conf" ] && _cluster_running "$dir" slurmctld; then
    SLURM_CONF="$dir/slurm.conf" timeout 5 scancel --quiet --partition=debug >/dev/null 2>&1
    _cluster_wait 5 _cluster_no_jobs "$dir"
  fi
  [ -n "$dir" ] && _cluster_kill "$dir" "$grace"
  _cluster_remove_dir "$dir"
  unset SDM_CLUSTER_DIR SDM_CLUSTER_HOST
  [ "${SLURM_CONF:-}" = "$dir/slurm.conf" ] && unset SLURM_CONF
  return 0
}

_cluster_no_jobs() {
  local out
  out=$(SLURM_CONF="$1/slurm.conf" timeout 3 squeue -h -o %i 2>/dev/null) && [ -z "$out" ]
}

# TERM every marked process and its children, wait up to GRACE s, then KILL what is left.
# Then give init up to 3 s to reap them: until it does they are zombies that `pgrep slurmd`
# still lists (some container inits reap only every second or so).
# shellcheck disable=SC2086  # $pids is a list of process ids
_cluster_kill() {
  local dir=$1 grace=$2 pids p
  pids=$(_cluster_pids "$dir")
  [ -z "$pids" ] && return 0
  for p in $pids; do pids+=" $(_cluster_tree "$p")"; done
  if [ "$grace" -gt 0 ]; then
    kill -TERM $pids 2>/dev/null
    _cluster_wait "$grace" _cluster_none_alive $pids || kill -KILL $pids 2>/dev/null
  else
    kill -KILL $pids 2>/dev/null
  fi
  _cluster_wait 5 _cluster_none_alive $pids || _cl_say "still running after KILL: $pids"
  _cluster_wait 3 _cluster_none_exist $pids
}

_cluster_none_exist() {
  local p
  for p in "$@"; do [ -e "/proc/$p" ] && return 1; done
  return 0
}

_cluster_none_alive() {
  local p
  for p in "$@"; do _cluster_alive "$p" && return 1; done
  return 0
}

# Only a directory this script made (it holds .sdm-cluster), so a bad variable cannot rm -rf.
_cluster_remove_dir() {
  local dir=$1
  [ -n "$dir" ] && [ -f "$dir/.sdm-cluster" ] && rm -rf -- "$dir"
  [ "$(cat "$_CLUSTER_POINTER" 2>/dev/null)" = "$dir" ] && rm -f -- "$_CLUSTER_POINTER"
  return 0
}

# ---------------------------------------------------------------------------------- smoke

# Runs CMD... (60 s at most), prints its output, and checks that the sorted output is EXPECTED.
_cluster_check() {
  local title=$1 expected=$2 out; shift 2
  _cl_say "\$ $title"
  out=$(timeout 60 "$@" 2>&1)
  local rc=$?
  printf '%s\n' "$out" | sed 's/^/    /' >&2
  if [ "$rc" -ne 0 ]; then _cl_fail "FAILED (exit $rc): $title"; return 1; fi
  if [ "$(printf '%s\n' "$out" | sort)" != "$(printf '%s\n' "$expected" | sort)" ]; then
    _cl_fail "FAILED (unexpected output): $title"; return 1
  fi
}

cluster_smoke() {
  local dir=${SDM_CLUSTER_DIR:-} host hello fails=0
  if [ -z "$dir" ] || [ ! -f "$dir/slurm.conf" ]; then
    _cl_fail "smoke: no cluster up (cluster_up first)"; return 1
  fi
  host=$(hostname)
  hello="$dir/hello"
  cat >"$hello.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("hello from rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
EOF
  mpicc -o "$hello" "$hello.c" 2>&1 | sed 's/^/    /' >&2
  [ -x "$hello" ] || { _cl_fail "smoke: mpicc could not build $hello.c"; return 1; }
  local four_hosts four_ranks
  four_hosts=$(printf '%s\n' "$host" "$host" "$host" "$host")
  four_ranks=$(for r in 0 1 2 3; do echo "hello from rank $r of 4"; done)
  _cluster_check "mpirun --oversubscribe -n 4 hostname" "$four_hosts" \
    mpirun --oversubscribe -n 4 hostname || fails=$((fails + 1))
  _cluster_check "srun -n 4 hostname" "$four_hosts" srun -n 4 hostname || fails=$((fails + 1))
  _cluster_check "mpirun -n 4 hello" "$four_ranks" mpirun -n 4 "$hello" || fails=$((fails + 1))
  _cluster_check "srun --mpi=pmix -n 4 hello" "$four_ranks" \
    srun --mpi=pmix -n 4 "$hello" || fails=$((fails + 1))
  [ "$fails" -eq 0 ] || { _cl_fail "smoke: $fails of 4 checks failed"; return 1; }
  _cl_say "smoke: all 4 checks passed"
}

# ---------------------------------------------------------------------------------- status

# Prints the state, the daemons and sinfo; returns 0 only when slurmctld and slurmd both run.
cluster_status() {
  local dir=${SDM_CLUSTER_DIR:-} pids d state=up
  [ -n "$dir" ] || { echo "down"; return 1; }
  pids=$(_cluster_pids "$dir")
  [ -n "$pids" ] || { echo "down (directory $dir, no daemons)"; return 1; }
  for d in slurmctld slurmd; do _cluster_running "$dir" "$d" || state="broken ($d not running)"; done
  echo "$state: $dir"
  echo "export SLURM_CONF=$dir/slurm.conf"
  pids=${pids% }
  ps -o pid=,comm= -p "${pids// /,}" 2>/dev/null | sed 's/^/  /'
  [ "$state" = up ] || return 1
  SLURM_CONF="$dir/slurm.conf" timeout 5 sinfo 2>&1 | sed 's/^/  /'
}

# ---------------------------------------------------------------------------------- by hand

# Run as a program, state passes between invocations through $_CLUSTER_POINTER.
_cluster_main() {
  local cmd=${1:-status}
  if [ -z "${SDM_CLUSTER_DIR:-}" ] && [ -f "$_CLUSTER_POINTER" ]; then
    SDM_CLUSTER_DIR=$(cat "$_CLUSTER_POINTER")
    export SLURM_CONF="$SDM_CLUSTER_DIR/slurm.conf"
    [ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
  fi
  case "$cmd" in
    install) cluster_install ;;
    up)
      cluster_up || return 1
      echo "$SDM_CLUSTER_DIR" >"$_CLUSTER_POINTER"
      echo "export SLURM_CONF=$SLURM_CONF"
      [ "$(id -u)" -eq 0 ] && echo "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
      echo "export OMPI_MCA_rmaps_base_oversubscribe=1"
      ;;
    smoke) cluster_smoke ;;
    status) cluster_status ;;
    down) cluster_down ;;
    *) echo "usage: $0 install|up|smoke|status|down" >&2; return 2 ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  _cluster_main "$@"
  exit $?
fi
