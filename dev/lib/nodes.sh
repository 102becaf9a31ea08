#!/usr/bin/env bash
# N "nodes" on this machine (2 to 4), for tests that cross node boundaries: each node is a
# network namespace (its own address on a bridge), a UTS namespace (its own hostname, node1 ...)
# and a mount namespace (its own /tmp and /dev/shm, as a real node's are local). This machine's
# own namespace is the login node: the bridge's first address is its, and it reaches every node.
#
#             login (this machine's namespace): 10.202.X.1 on bridge sdmb-SUFFIX
#        ____________|___________________________________
#       |                  |                 |           |
#     node1 .11          node2 .12         node3 .13   node4 .14     (eth0 in each)
#
#   source dev/lib/nodes.sh      # then: nodes_up [N], nodes_slurm_up, nodes_exec K CMD..., nodes_down
#   dev/lib/nodes.sh up [N]|slurm|check|status|down     # by hand
#
# Typical use from a test script:
#   trap nodes_down EXIT         # first: nodes_down is harmless when nothing is up
#   nodes_up 4 "$PWD" && nodes_slurm_up
#
# nodes_up N [SHARED...]: every path SHARED that lies under /tmp stays visible at the same path on
# every node (a checkout under /tmp, say, as a shared file system would be); everything else of
# this machine's is seen by the nodes as it is (/, /root, /var/tmp), but /tmp and /dev/shm.
#
# What lives where: one directory, /var/tmp/sdm-nodes.XXXXXX ($SDM_NODES_DIR; not under /tmp, so
# that every node sees it), holds each node's /tmp, the Slurm configuration, state, spool and
# logs, the munge key and socket, and the helper commands below. Every process the test bed starts
# carries _SDM_CLUSTER_OWNER=$SDM_NODES_DIR in its environment (as dev/lib/cluster.sh marks its
# own), and so does every command run through on-node or rsh, so nodes_down finds them all.
#
# Helper commands, in $SDM_NODES_DIR/bin:
#   on-node HOST CMD...   runs CMD on node HOST (node1 or its address) with this environment
#   rsh HOST CMD...       as ssh would: CMD is a shell command line, run with a login's clean
#                         environment (HOME, PATH, USER, LOGNAME, SHELL); Open MPI's rsh agent
#                         (mpirun --mca plm_rsh_agent $SDM_NODES_RSH)
#   link HOST down|up     cuts or mends the node's link to the bridge (its veth on this side)
#   route HOST cut|mend   drops or restores what the login alone sends to the node (the nodes
#                         still reach each other)
#
# nodes_up exports, and nodes_env prints as export lines for a caller in another process:
#   SDM_NODES_DIR       the directory above
#   SDM_NODES_HOSTS     node1 node2 ... (the nodes' hostnames and Slurm node names)
#   SDM_NODES_ADDRS     their addresses, in the same order
#   SDM_NODES_LOGIN     this machine's address on the bridge (where the nodes reach the login)
#   SDM_NODES_NET       the bridge's network, CIDR (for Open MPI's *_if_include)
#   SDM_NODES_HOSTFILE  an Open MPI hostfile: every node with 16 slots
#   SDM_NODES_RSH       the rsh helper
#   SDM_NODES_ON_NODE   the on-node helper
#   SDM_NODES_LINK      the link helper
#   SDM_NODES_ROUTE     the route helper
# and nodes_slurm_up adds SDM_NODES_SLURM_CONF (a slurmctld here, a slurmd on every node).
#
# Needs root, iproute2, util-linux's unshare and nsenter; Slurm and munge for nodes_slurm_up.
# Sourced by dev/test: no `set -e` here, every function returns a status instead, and all of it is
# `set -u` safe. Messages go to stderr prefixed [nodes]; a failure is one line saying why.

# shellcheck source=dev/lib/cluster.sh
. "$(dirname "${BASH_SOURCE[0]}")/cluster.sh"

: "${SDM_NODES_CPUS:=16}" # CPUs (and Open MPI slots) each node claims
_NODES_POINTER="${TMPDIR:-/tmp}/sdm-nodes.current"
_NODES_VARS="SDM_NODES_DIR SDM_NODES_HOSTS SDM_NODES_ADDRS SDM_NODES_LOGIN SDM_NODES_NET SDM_NODES_HOSTFILE SDM_NODES_RSH SDM_NODES_ON_NODE SDM_NODES_LINK SDM_NODES_ROUTE SDM_NODES_SLURM_CONF"

_nd_say() { printf '[nodes] %s\n' "$*" >&2; }
_nd_fail() { printf '[nodes] %s\n' "$*" >&2; return 1; }

# Runs `ip ARGS`, and on failure prints why in one line.
_nodes_ip() {
  local out
  out=$(ip "$@" 2>&1) || { _nd_fail "ip $* failed: ${out:-no message}"; return 1; }
}

# The directory's suffix (6 characters) names the namespaces and interfaces of this test bed.
_nodes_suffix() { local d=${1:-$SDM_NODES_DIR}; printf '%s' "${d##*.}"; }

# A /24 in 10.202.0.0/16 that no interface here has an address in.
_nodes_free_net() {
  local used x
  used=$(ip -o -4 addr show 2>/dev/null | awk '{print $4}')
  for _ in $(seq 50); do
    x=$((RANDOM % 250 + 1))
    grep -q "^10\.202\.$x\." <<<"$used" || { echo "10.202.$x"; return 0; }
  done
  return 1
}

# The pid that holds node K's namespaces (a sleep), if it lives.
_nodes_holder() {
  local p
  p=$(cat "$SDM_NODES_DIR/node$1/holder.pid" 2>/dev/null) && _cluster_alive "$p" && echo "$p"
}

# ---------------------------------------------------------------------------------- up

# What a node's holder runs in its new namespaces: its hostname, its /tmp (with the shared paths
# bound in first) and /dev/shm, its /etc/hosts, then it sleeps, holding them for nodes_exec.
# shellcheck disable=SC2016  # expanded by the holder's sh
_NODES_HOLDER_SCRIPT='
set -e
dir=$1 k=$2; shift 2
hostname "node$k"
for p in "$@"; do
  mkdir -p "$dir/node$k/tmp/${p#/tmp/}"
  mount --bind "$p" "$dir/node$k/tmp/${p#/tmp/}"
done
mount --rbind "$dir/node$k/tmp" /tmp
mount -t tmpfs -o mode=1777,size=1g sdm-shm /dev/shm
mount --bind "$dir/hosts" /etc/hosts
echo $$ >"$dir/node$k/holder.pid"
exec sleep infinity
'

# Writes the helper commands into DIR/bin.
_nodes_write_helpers() {
  local dir=$1
  mkdir -p "$dir/bin"
  cat >"$dir/bin/on-node" <<EOF
#!/bin/sh
# on-node HOST CMD...: runs CMD on node HOST (nodeK or its address) of the test bed $dir.
host=\$1; shift
k=\$(awk -v h="\$host" '\$1 == h || \$2 == h { print \$3 }' "$dir/nodes")
[ -n "\$k" ] || { echo "on-node: no node \$host in $dir/nodes" >&2; exit 255; }
pid=\$(cat "$dir/node\$k/holder.pid" 2>/dev/null) || { echo "on-node: node\$k is down" >&2; exit 255; }
exec env $_CLUSTER_MARK="$dir" nsenter -t "\$pid" -n -u -m -- "\$@"
EOF
  cat >"$dir/bin/rsh" <<EOF
#!/bin/sh
# rsh HOST CMD...: as ssh would run CMD (a shell command line) on HOST, with a login's environment,
# and the test bed's marks: its own, and the test JVM's (SDM_TEST_FORK), whose leftover check
# tells its processes from those of the JVMs beside it.
host=\$1; shift
exec "$dir/bin/on-node" "\$host" env -i HOME="\${HOME:-/root}" PATH="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
  USER="\$(id -un)" LOGNAME="\$(id -un)" SHELL=/bin/sh $_CLUSTER_MARK="$dir" \${SDM_TEST_FORK:+SDM_TEST_FORK=\$SDM_TEST_FORK} /bin/sh -c "\$*"
EOF
  cat >"$dir/bin/link" <<EOF
#!/bin/sh
# link HOST down|up: cuts or mends node HOST's link to the bridge, on the login's side.
k=\$(awk -v h="\$1" '\$1 == h || \$2 == h { print \$3 }' "$dir/nodes")
[ -n "\$k" ] && [ "\$2" = down -o "\$2" = up ] || { echo "usage: link HOST down|up" >&2; exit 2; }
exec ip link set "sdmv\$k-$(_nodes_suffix "$dir")" "\$2"
EOF
  cat >"$dir/bin/route" <<EOF
#!/bin/sh
# route HOST cut|mend: drops or restores what the login sends to node HOST (a blackhole route),
# the node's link to the other nodes left as it is.
addr=\$(awk -v h="\$1" '\$1 == h || \$2 == h { print \$2 }' "$dir/nodes")
case "\$2" in
  cut) [ -n "\$addr" ] && exec ip route add blackhole "\$addr/32" ;;
  mend) [ -n "\$addr" ] && exec ip route del blackhole "\$addr/32" ;;
esac
echo "usage: route HOST cut|mend" >&2; exit 2
EOF
  chmod 755 "$dir/bin/on-node" "$dir/bin/rsh" "$dir/bin/link" "$dir/bin/route"
}

# Makes the bridge, N nodes and their holders.
_nodes_build() {
  local dir=$1 n=$2 s net k ns addr hosts="" addrs=""; shift 2
  s=$(_nodes_suffix "$dir")
  net=$(_nodes_free_net) || { _nd_fail "no free 10.202.X.0/24 network"; return 1; }
  _nodes_ip link add "sdmb-$s" type bridge || return 1
  _nodes_ip addr add "$net.1/24" dev "sdmb-$s" || return 1
  _nodes_ip link set "sdmb-$s" up || return 1
  printf '127.0.0.1 localhost\n%s.1 %s login\n' "$net" "$(hostname -s)" >"$dir/hosts"
  : >"$dir/nodes"
  for k in $(seq "$n"); do
    ns=sdm-node$k-$s addr=$net.$((10 + k))
    printf '%s node%s\n' "$addr" "$k" >>"$dir/hosts"
    printf 'node%s %s %s\n' "$k" "$addr" "$k" >>"$dir/nodes"
    hosts+="node$k " addrs+="$addr "
  done
  for k in $(seq "$n"); do
    ns=sdm-node$k-$s addr=$net.$((10 + k))
    mkdir -p "$dir/node$k/tmp" && chmod 1777 "$dir/node$k/tmp"
    _nodes_ip netns add "$ns" || return 1
    _nodes_ip -n "$ns" link set lo up || return 1
    _nodes_ip link add "sdmv$k-$s" type veth peer name eth0 netns "$ns" || return 1
    _nodes_ip link set "sdmv$k-$s" master "sdmb-$s" up || return 1
    _nodes_ip -n "$ns" addr add "$addr/24" dev eth0 || return 1
    _nodes_ip -n "$ns" link set eth0 up || return 1
    # nsenter rather than `ip netns exec`, which mounts a sysfs of the namespace's over /sys and
    # so hides /sys/fs/cgroup, without which slurmd does not start.
    setsid env "$_CLUSTER_MARK=$dir" nsenter --net="/var/run/netns/$ns" \
      unshare --uts --mount --propagation private --fork \
      sh -c "$_NODES_HOLDER_SCRIPT" holder "$dir" "$k" "$@" \
      </dev/null >>"$dir/log/node$k.out" 2>&1 &
  done
  for k in $(seq "$n"); do
    _cluster_wait 10 _nodes_holder "$k" \
      || { _nd_fail "node$k did not come up: $(tail -n 1 "$dir/log/node$k.out" 2>/dev/null)"; return 1; }
  done
  _nodes_write_helpers "$dir"
  printf '%s slots=%s\n' $(for a in $addrs; do echo "$a $SDM_NODES_CPUS"; done) >"$dir/hostfile"
  SDM_NODES_HOSTS=${hosts% } SDM_NODES_ADDRS=${addrs% } SDM_NODES_LOGIN=$net.1 SDM_NODES_NET=$net.0/24
}

nodes_up() {
  local n=${1:-4} dir p shared=(); shift || true
  if [ -n "${SDM_NODES_DIR:-}" ] && _nodes_holder 1 >/dev/null; then
    return 0 # already up
  fi
  [ "$(id -u)" -eq 0 ] || { _nd_fail "not root: namespaces need root"; return 1; }
  [[ "$n" =~ ^[2-9]$ ]] || { _nd_fail "between 2 and 9 nodes, not $n"; return 1; }
  for p in ip unshare nsenter setsid; do
    command -v "$p" >/dev/null 2>&1 || { _nd_fail "$p not found (Debian: iproute2, util-linux)"; return 1; }
  done
  for p in "$@"; do
    p=$(realpath -m "$p")
    [[ "$p" == /tmp/* ]] && shared+=("$p")
  done
  dir=$(mktemp -d /var/tmp/sdm-nodes.XXXXXX) || { _nd_fail "mktemp failed"; return 1; }
  # 755: munged refuses a socket in a directory others cannot traverse.
  chmod 755 "$dir" && mkdir -p "$dir/log" && touch "$dir/.sdm-cluster"
  export SDM_NODES_DIR=$dir
  if ! _nodes_build "$dir" "$n" "${shared[@]}"; then
    nodes_down # never leave half of it behind
    return 1
  fi
  export SDM_NODES_HOSTS SDM_NODES_ADDRS SDM_NODES_LOGIN SDM_NODES_NET
  export SDM_NODES_HOSTFILE=$dir/hostfile SDM_NODES_RSH=$dir/bin/rsh \
    SDM_NODES_ON_NODE=$dir/bin/on-node SDM_NODES_LINK=$dir/bin/link SDM_NODES_ROUTE=$dir/bin/route
}

# Runs CMD... on node K (1..N), in its namespaces, with this environment.
nodes_exec() {
  local k=$1; shift
  "$SDM_NODES_DIR/bin/on-node" "node$k" "$@"
}

# Prints the export lines of what nodes_up and nodes_slurm_up set.
nodes_env() {
  local v
  for v in $_NODES_VARS; do
    [ -n "${!v:-}" ] && printf 'export %s=%q\n' "$v" "${!v}"
  done
}

# ---------------------------------------------------------------------------------- slurm

# Writes DIR/slurm.conf for a slurmctld on the login and a slurmd per node (see cluster.sh's for
# the lines that are not defaults); the slurmds share one configuration and tell their files
# apart by node name (%n).
_nodes_write_slurm_conf() {
  local dir=$1 cport=$2 dport=$3 k
  cat >"$dir/slurm.conf" <<EOF
ClusterName=sdmnodes
SlurmctldHost=$(hostname -s)($SDM_NODES_LOGIN)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
TmpFS=/tmp
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/spool/slurmd.%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.%n.log
SlurmdTimeout=30
$(_cluster_conf_policy)
EOF
  while read -r host addr k; do
    printf 'NodeName=%s NodeAddr=%s CPUs=%s State=UNKNOWN\n' "$host" "$addr" "$SDM_NODES_CPUS"
  done <"$dir/nodes" >>"$dir/slurm.conf"
  printf 'PartitionName=nodes Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n' >>"$dir/slurm.conf"
}

# Whether every node is idle.
_nodes_all_idle() {
  local states
  states=$(SLURM_CONF="$SDM_NODES_DIR/slurm.conf" timeout 3 sinfo -h -N -o %T 2>/dev/null | sort -u)
  [ "$states" = idle ]
}

# A slurmctld here and a slurmd on every node, under a munged of their own.
nodes_slurm_up() {
  local dir=${SDM_NODES_DIR:-} ports cport dport host addr k out conf
  [ -n "$dir" ] || { _nd_fail "slurm: no nodes up (nodes_up first)"; return 1; }
  [ -n "${SDM_NODES_SLURM_CONF:-}" ] && _cluster_running "$dir" slurmctld && return 0
  for k in slurmctld slurmd munged srun; do
    command -v "$k" >/dev/null 2>&1 || { _nd_fail "$k not found (run cluster_install)"; return 1; }
  done
  ports=$(_cluster_free_ports) || { _nd_fail "no free TCP ports found"; return 1; }
  read -r cport dport <<<"$ports"
  mkdir -p "$dir/state" "$dir/spool"
  _nodes_write_slurm_conf "$dir" "$cport" "$dport"
  conf=$dir/slurm.conf
  _cluster_start_munge "$dir" || { _nd_fail "munged did not start: $(_cluster_last_error "$dir")"; return 1; }
  env "$_CLUSTER_MARK=$dir" SLURM_CONF="$conf" slurmctld -f "$conf" >>"$dir/log/slurmctld.out" 2>&1 </dev/null \
    || { _nd_fail "slurmctld did not start: $(_cluster_last_error "$dir")"; return 1; }
  while read -r host addr k; do
    mkdir -p "$dir/spool/$host"
    out=$(nodes_exec "$k" env SLURM_CONF="$conf" slurmd -f "$conf" 2>&1 </dev/null) \
      || { _nd_fail "slurmd on $host did not start: $out $(_cluster_last_error "$dir")"; return 1; }
  done <"$dir/nodes"
  _cluster_wait "$SDM_CLUSTER_TIMEOUT" _nodes_all_idle \
    || { _nd_fail "the nodes are not idle after ${SDM_CLUSTER_TIMEOUT}s: $(_cluster_last_error "$dir")"; return 1; }
  export SDM_NODES_SLURM_CONF=$conf
}

# ---------------------------------------------------------------------------------- down

# Safe in `trap nodes_down EXIT`: never exits, tolerates a half-made or absent test bed, does
# nothing the second time. Jobs are cancelled, every marked process (daemons, holders, what ran on
# the nodes) and its children ended, the namespaces, bridge and directory removed.
nodes_down() {
  local dir=${SDM_NODES_DIR:-} s k
  if [ -n "$dir" ] && [ -f "$dir/.sdm-cluster" ]; then
    if [ -f "$dir/slurm.conf" ] && _cluster_running "$dir" slurmctld; then
      SLURM_CONF="$dir/slurm.conf" timeout 5 scancel --quiet --partition=nodes >/dev/null 2>&1
      _cluster_wait 5 _cluster_no_jobs "$dir"
    fi
    _cluster_kill "$dir" 5
    s=$(_nodes_suffix "$dir")
    for k in $(seq 9); do
      [ -e "/var/run/netns/sdm-node$k-$s" ] && { ip netns del "sdm-node$k-$s" 2>/dev/null || _nd_say "could not delete sdm-node$k-$s"; }
    done
    # A test that stopped between route cut and mend leaves a blackhole route on this side.
    [ -f "$dir/nodes" ] && while read -r _ addr _; do
      ip route del blackhole "$addr/32" 2>/dev/null
    done <"$dir/nodes"
    ip link show "sdmb-$s" >/dev/null 2>&1 && { ip link del "sdmb-$s" 2>/dev/null || _nd_say "could not delete bridge sdmb-$s"; }
    # The holders' mounts went with their namespaces; what is left is plain files.
    rm -rf -- "$dir"
  fi
  [ -n "$dir" ] && [ "$(cat "$_NODES_POINTER" 2>/dev/null)" = "$dir" ] && rm -f -- "$_NODES_POINTER"
  for k in $_NODES_VARS; do unset "$k"; done
  return 0
}

# ---------------------------------------------------------------------------------- check

# Checks what the tests rely on: each node has its own hostname, /tmp and address, reaches the
# login and every other node, and the login reaches each node; with Slurm, srun runs a task on
# every node.
nodes_check() {
  local dir=${SDM_NODES_DIR:-} fails=0 host addr k other got
  [ -n "$dir" ] || { _nd_fail "check: no nodes up"; return 1; }
  while read -r host addr k; do
    got=$(nodes_exec "$k" uname -n 2>&1)
    [ "$got" = "$host" ] || { _nd_say "FAILED: node$k calls itself $got"; fails=$((fails + 1)); }
    nodes_exec "$k" sh -c "echo node$k >/tmp/sdm-nodes-check" 2>/dev/null
    timeout 3 bash -c "exec 3<>/dev/tcp/$addr/9" 2>&1 | grep -q refused \
      || { _nd_say "FAILED: the login does not reach $host ($addr)"; fails=$((fails + 1)); }
    for other in $SDM_NODES_ADDRS $SDM_NODES_LOGIN; do
      nodes_exec "$k" timeout 3 bash -c "exec 3<>/dev/tcp/$other/9" 2>&1 | grep -q refused \
        || { _nd_say "FAILED: $host does not reach $other"; fails=$((fails + 1)); }
    done
  done <"$dir/nodes"
  while read -r host addr k; do
    got=$(nodes_exec "$k" cat /tmp/sdm-nodes-check 2>&1)
    [ "$got" = "node$k" ] || { _nd_say "FAILED: node$k's /tmp is not its own ($got)"; fails=$((fails + 1)); }
  done <"$dir/nodes"
  [ -e /tmp/sdm-nodes-check ] && { _nd_say "FAILED: a node wrote into the login's /tmp"; fails=$((fails + 1)); }
  if [ -n "${SDM_NODES_SLURM_CONF:-}" ]; then
    got=$(SLURM_CONF=$SDM_NODES_SLURM_CONF timeout 30 srun -N "$(wc -l <"$dir/nodes")" --ntasks-per-node=1 uname -n 2>&1 | sort | tr '\n' ' ')
    [ "$got" = "$SDM_NODES_HOSTS " ] || { _nd_say "FAILED: srun on every node gave: $got"; fails=$((fails + 1)); }
  fi
  [ "$fails" -eq 0 ] || { _nd_fail "check: $fails checks failed"; return 1; }
  _nd_say "check: all checks passed"
}

nodes_status() {
  local dir=${SDM_NODES_DIR:-}
  [ -n "$dir" ] || { echo "down"; return 1; }
  echo "up: $dir"
  nodes_env
  ip -br addr show "sdmb-$(_nodes_suffix)" 2>&1 | sed 's/^/  /'
  [ -n "${SDM_NODES_SLURM_CONF:-}" ] && SLURM_CONF=$SDM_NODES_SLURM_CONF timeout 5 sinfo -N 2>&1 | sed 's/^/  /'
  return 0
}

# ---------------------------------------------------------------------------------- by hand

_nodes_main() {
  local cmd=${1:-status}; shift || true
  if [ -z "${SDM_NODES_DIR:-}" ] && [ -f "$_NODES_POINTER" ]; then
    # shellcheck disable=SC1090
    . "$(cat "$_NODES_POINTER")/env" 2>/dev/null
  fi
  case "$cmd" in
    up)
      nodes_up "$@" || return 1
      nodes_env >"$SDM_NODES_DIR/env"
      echo "$SDM_NODES_DIR" >"$_NODES_POINTER"
      nodes_env
      ;;
    slurm) nodes_slurm_up && nodes_env >"$SDM_NODES_DIR/env" && nodes_env ;;
    check) nodes_check ;;
    status) nodes_status ;;
    down) nodes_down ;;
    *) echo "usage: $0 up [N] [SHARED...]|slurm|check|status|down" >&2; return 2 ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  _nodes_main "$@"
  exit $?
fi
