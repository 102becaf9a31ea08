#!/usr/bin/env bash
# Three "hosts" on this machine for end-to-end tests of `sdm relay`, made with ip netns and veth
# pairs, as on a cluster whose compute nodes can reach only the login node:
#
#   compute ---------------- login ---------------- frontend
#   $SDM_NETNS_COMPUTE       $SDM_NETNS_LOGIN_C     $SDM_NETNS_FRONTEND
#                            $SDM_NETNS_LOGIN_F
#
#   source dev/lib/netns.sh              # then: netns_up, netns_check, netns_down
#   dev/lib/netns.sh up|check|status|down        # by hand
#
# Typical use from a test script:
#   trap netns_down EXIT       # first: netns_down is harmless when nothing is up
#   netns_up && netns_check
#   ip netns exec "$SDM_NETNS_LOGIN_NS" java -jar sdm.jar relay --listen "$SDM_NETNS_LOGIN_C:0" ...
#
# compute's default route goes through login, but login does not forward (ip_forward=0 in its
# namespace): a packet from compute to the front-end reaches login and is dropped there without
# an answer (login's IpInAddrErrors counts it), so a connection attempt times out, as behind a
# silent firewall. The same holds the other way: the front-end's default route is login too.
# Each namespace has its loopback up. Every name (namespaces, interfaces) ends in a suffix of 6
# hex digits chosen per run, so that runs in parallel do not clash; the addresses are the same in
# every run, which is fine since each run's namespaces are private. The veth ends are created
# inside the namespaces, so nothing is added to the host's own namespace; netns_down deletes the
# three namespaces (their interfaces go with them) after ending any process still running in them.
#
# netns_up exports:
#   SDM_NETNS_SUFFIX                   this run's suffix
#   SDM_NETNS_COMPUTE_NS               namespace names: sdm-compute-SUFFIX,
#   SDM_NETNS_LOGIN_NS                   sdm-login-SUFFIX,
#   SDM_NETNS_FRONTEND_NS                sdm-frontend-SUFFIX
#   SDM_NETNS_COMPUTE                  compute's address
#   SDM_NETNS_LOGIN_C                  login's address as compute sees it
#   SDM_NETNS_LOGIN_F                  login's address as the front-end sees it
#   SDM_NETNS_FRONTEND                 the front-end's address
# and netns_env prints them as export lines, for a caller in another process (a Java test).
#
# Needs root and iproute2 (ip; dev/test installs it when missing); the checks use bash's /dev/tcp
# and coreutils' timeout, so nothing else is needed. Measured on Debian 12, 2 cores, root,
# iproute2 6.1, kernel 6.18 (3 runs):
#   netns_up:     0.4-1.2 s
#   netns_check:  3.2-3.4 s: the probes that must fail wait out their 3 s
#   netns_down:   0.3-0.8 s
#
# Sourced by scripts and tests: no `set -e` here, every function returns a status instead, and all
# of it is `set -u` safe. Messages go to stderr prefixed [netns]; a failure is one line saying why.

# The two links, login's end first (.1), then the other host's (.2).
_NETNS_NET_C=10.200.1
_NETNS_NET_F=10.200.2
# Lets `netns.sh check|status|down` by hand find what `netns.sh up` made.
_NETNS_POINTER="${TMPDIR:-/tmp}/sdm-netns.current"

_nn_say() { printf '[netns] %s\n' "$*" >&2; }
_nn_fail() { printf '[netns] %s\n' "$*" >&2; return 1; }

# Sets the names of run SUFFIX (not exported: netns_up exports them once they exist).
_netns_names() {
  SDM_NETNS_SUFFIX=$1
  SDM_NETNS_COMPUTE_NS=sdm-compute-$1
  SDM_NETNS_LOGIN_NS=sdm-login-$1
  SDM_NETNS_FRONTEND_NS=sdm-frontend-$1
  SDM_NETNS_COMPUTE=$_NETNS_NET_C.2
  SDM_NETNS_LOGIN_C=$_NETNS_NET_C.1
  SDM_NETNS_LOGIN_F=$_NETNS_NET_F.1
  SDM_NETNS_FRONTEND=$_NETNS_NET_F.2
}

_netns_exists() { [ -e "/var/run/netns/$1" ]; }

# Runs `ip ARGS`, and on failure prints why in one line: what was run and what ip said.
_netns_ip() {
  local out
  out=$(ip "$@" 2>&1) || { _nn_fail "ip $* failed: ${out:-no message}"; return 1; }
}

# Six hex digits that no namespace of ours uses yet.
_netns_new_suffix() {
  local s
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    s=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
    _netns_exists "sdm-compute-$s" || _netns_exists "sdm-login-$s" || _netns_exists "sdm-frontend-$s" \
      || { echo "$s"; return 0; }
  done
  return 1
}

# ---------------------------------------------------------------------------------- up

_netns_build() {
  local c=$SDM_NETNS_COMPUTE_NS l=$SDM_NETNS_LOGIN_NS f=$SDM_NETNS_FRONTEND_NS s=$SDM_NETNS_SUFFIX ns
  for ns in "$c" "$l" "$f"; do
    _netns_ip netns add "$ns" || return 1
    _netns_ip -n "$ns" link set lo up || return 1
  done
  # Interface names: at most 15 characters; sdmc = compute's end, sdmlc/sdmlf = login's ends.
  _netns_ip link add "sdmc-$s" netns "$c" type veth peer name "sdmlc-$s" netns "$l" || return 1
  _netns_ip link add "sdmf-$s" netns "$f" type veth peer name "sdmlf-$s" netns "$l" || return 1
  _netns_ip -n "$c" addr add "$SDM_NETNS_COMPUTE/24" dev "sdmc-$s" || return 1
  _netns_ip -n "$l" addr add "$SDM_NETNS_LOGIN_C/24" dev "sdmlc-$s" || return 1
  _netns_ip -n "$l" addr add "$SDM_NETNS_LOGIN_F/24" dev "sdmlf-$s" || return 1
  _netns_ip -n "$f" addr add "$SDM_NETNS_FRONTEND/24" dev "sdmf-$s" || return 1
  _netns_ip -n "$c" link set "sdmc-$s" up || return 1
  _netns_ip -n "$l" link set "sdmlc-$s" up || return 1
  _netns_ip -n "$l" link set "sdmlf-$s" up || return 1
  _netns_ip -n "$f" link set "sdmf-$s" up || return 1
  # Both send everything else to login, so that login's not forwarding is all that keeps them
  # apart (netns_check makes sure it does).
  _netns_ip -n "$c" route add default via "$SDM_NETNS_LOGIN_C" || return 1
  _netns_ip -n "$f" route add default via "$SDM_NETNS_LOGIN_F" || return 1
  # New namespaces start with forwarding off unless net.core.devconf_inherit_init_net says to
  # copy the host's; say it explicitly rather than depend on either.
  # /proc/sys/net is the namespace's own for a process inside it (no procps needed for sysctl).
  local out
  out=$(ip netns exec "$l" sh -c 'echo 0 >/proc/sys/net/ipv4/ip_forward' 2>&1) \
    || { _nn_fail "turning forwarding off in $l failed: $out"; return 1; }
}

netns_up() {
  local s
  if [ -n "${SDM_NETNS_SUFFIX:-}" ] && _netns_exists "sdm-compute-$SDM_NETNS_SUFFIX" \
      && _netns_exists "sdm-login-$SDM_NETNS_SUFFIX" && _netns_exists "sdm-frontend-$SDM_NETNS_SUFFIX"; then
    return 0 # already up
  fi
  [ "$(id -u)" -eq 0 ] || { _nn_fail "not root: ip netns needs root"; return 1; }
  command -v ip >/dev/null 2>&1 || { _nn_fail "ip not found (Debian: apt-get install iproute2)"; return 1; }
  s=$(_netns_new_suffix) || { _nn_fail "no free namespace names found"; return 1; }
  _netns_names "$s"
  if ! _netns_build; then
    netns_down # never leave half of it behind
    return 1
  fi
  export SDM_NETNS_SUFFIX SDM_NETNS_COMPUTE_NS SDM_NETNS_LOGIN_NS SDM_NETNS_FRONTEND_NS \
    SDM_NETNS_COMPUTE SDM_NETNS_LOGIN_C SDM_NETNS_LOGIN_F SDM_NETNS_FRONTEND
}

# Prints the export lines of what netns_up set, for a caller in another process.
netns_env() {
  local v
  for v in SDM_NETNS_SUFFIX SDM_NETNS_COMPUTE_NS SDM_NETNS_LOGIN_NS SDM_NETNS_FRONTEND_NS \
      SDM_NETNS_COMPUTE SDM_NETNS_LOGIN_C SDM_NETNS_LOGIN_F SDM_NETNS_FRONTEND; do
    [ -n "${!v:-}" ] && printf 'export %s=%s\n' "$v" "${!v}"
  done
}

# ---------------------------------------------------------------------------------- down

# Safe in `trap netns_down EXIT`: never exits, tolerates a half-made or absent network, does
# nothing the second time. Processes still in the namespaces get TERM, then KILL after 5 s: a
# namespace that a process still holds outlives `ip netns del`.
# shellcheck disable=SC2086  # $pids is a list of process ids
netns_down() {
  local s=${SDM_NETNS_SUFFIX:-} ns pids="" end
  if [[ "$s" =~ ^[0-9a-f]{6}$ ]]; then
    for ns in "sdm-compute-$s" "sdm-login-$s" "sdm-frontend-$s"; do
      _netns_exists "$ns" && pids+=" $(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')"
    done
    pids=$(echo $pids)
    if [ -n "$pids" ]; then
      kill -TERM $pids 2>/dev/null
      end=$((SECONDS + 5))
      while kill -0 $pids 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do sleep 0.1; done
      kill -KILL $pids 2>/dev/null
    fi
    for ns in "sdm-compute-$s" "sdm-login-$s" "sdm-frontend-$s"; do
      _netns_exists "$ns" && { ip netns del "$ns" 2>/dev/null || _nn_say "could not delete $ns"; }
    done
  fi
  [ -n "$s" ] && [ "$(cat "$_NETNS_POINTER" 2>/dev/null)" = "$s" ] && rm -f -- "$_NETNS_POINTER"
  unset SDM_NETNS_SUFFIX SDM_NETNS_COMPUTE_NS SDM_NETNS_LOGIN_NS SDM_NETNS_FRONTEND_NS \
    SDM_NETNS_COMPUTE SDM_NETNS_LOGIN_C SDM_NETNS_LOGIN_F SDM_NETNS_FRONTEND
  return 0
}

# ---------------------------------------------------------------------------------- check

# Whether namespace NS reaches ADDR over TCP: "reachable" when a connection to port 9 (where
# nothing listens) is accepted or refused, "unreachable" when no route, no answer within 3 s, or
# an ICMP error says so.
_netns_probe() {
  local out rc
  out=$(ip netns exec "$1" timeout 3 bash -c "exec 3<>/dev/tcp/$2/9" 2>&1); rc=$?
  if [ "$rc" -eq 0 ] || [[ "$out" == *"Connection refused"* ]]; then
    echo reachable
  else
    echo unreachable
  fi
}

# One line per check: WHAT, expected, found.
_netns_expect() {
  local from=$1 to=$2 addr=$3 want=$4 got label
  got=$(_netns_probe "$from" "$addr")
  label=${from#sdm-}; label=${label%-*}
  if [ "$got" = "$want" ]; then
    _nn_say "ok: $to ($addr) is $got from $label"
  else
    _nn_fail "FAILED: $to ($addr) should be $want from $label, is $got"
  fi
}

# Checks what the tests rely on: compute and the front-end reach login, login reaches both, and
# neither compute nor the front-end reaches the other. The probes run at once: the two that must
# fail take their whole 3 s.
netns_check() {
  local c=${SDM_NETNS_COMPUTE_NS:-} l=${SDM_NETNS_LOGIN_NS:-} f=${SDM_NETNS_FRONTEND_NS:-}
  local fails=0 dir i from to addr want pids=()
  if [ -z "$c" ] || ! _netns_exists "$c"; then
    _nn_fail "check: no namespaces up (netns_up first)"; return 1
  fi
  dir=$(mktemp -d "${TMPDIR:-/tmp}/sdm-netns-check.XXXXXX") || { _nn_fail "mktemp failed"; return 1; }
  i=0
  while read -r from to addr want; do
    _netns_expect "$from" "$to" "$addr" "$want" 2>"$dir/$i" &
    pids+=("$!"); i=$((i + 1))
  done <<PROBES
$c login $SDM_NETNS_LOGIN_C reachable
$l compute $SDM_NETNS_COMPUTE reachable
$l frontend $SDM_NETNS_FRONTEND reachable
$f login $SDM_NETNS_LOGIN_F reachable
$c frontend $SDM_NETNS_FRONTEND unreachable
$f compute $SDM_NETNS_COMPUTE unreachable
PROBES
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fails=$((fails + 1))
    cat "$dir/$i" >&2
  done
  rm -rf -- "$dir"
  [ "$(ip netns exec "$l" cat /proc/sys/net/ipv4/ip_forward 2>/dev/null)" = 0 ] \
    || { _nn_say "FAILED: login forwards (net.ipv4.ip_forward is not 0)"; fails=$((fails + 1)); }
  [ "$fails" -eq 0 ] || { _nn_fail "check: $fails of 7 checks failed"; return 1; }
  _nn_say "check: all 7 checks passed"
}

# ---------------------------------------------------------------------------------- status

# Prints the namespaces and their addresses; returns 0 only when all three exist.
netns_status() {
  local s=${SDM_NETNS_SUFFIX:-} ns state=up
  [ -n "$s" ] || { echo "down"; return 1; }
  for ns in "sdm-compute-$s" "sdm-login-$s" "sdm-frontend-$s"; do
    _netns_exists "$ns" || state="broken ($ns missing)"
  done
  echo "$state: suffix $s"
  netns_env
  for ns in "sdm-compute-$s" "sdm-login-$s" "sdm-frontend-$s"; do
    _netns_exists "$ns" || continue
    echo "  $ns:"
    ip -n "$ns" -brief addr 2>&1 | sed 's/^/    /'
    ip -n "$ns" route 2>&1 | sed 's/^/    route: /'
  done
  [ "$state" = up ]
}

# ---------------------------------------------------------------------------------- by hand

# Run as a program, state passes between invocations through $_NETNS_POINTER.
_netns_main() {
  local cmd=${1:-status}
  if [ -z "${SDM_NETNS_SUFFIX:-}" ] && [ -f "$_NETNS_POINTER" ]; then
    _netns_names "$(cat "$_NETNS_POINTER")"
  fi
  case "$cmd" in
    up)
      netns_up || return 1
      echo "$SDM_NETNS_SUFFIX" >"$_NETNS_POINTER"
      netns_env
      ;;
    check) netns_check ;;
    status) netns_status ;;
    down) netns_down ;;
    *) echo "usage: $0 up|check|status|down" >&2; return 2 ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  _netns_main "$@"
  exit $?
fi
