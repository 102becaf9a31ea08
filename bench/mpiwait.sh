#!/usr/bin/env bash
# The cost of sdm's MPI wait-records library (runtime/.../launch/sdm_mpiwait.c) on a message-rate
# loop. Run by `bench/run mpiwait [--rounds 9] [--seconds 2] [--blocks 200] [--before FILE.c]
# [--keep RATES]` (RATES: a file to keep each run's figures in).
#
# Builds the library as sdm does (mpicc -shared -fPIC -O2), a library of empty wrappers of the
# same calls the loop makes (what any PMPI tool costs before it does anything), optionally another
# version of the library from FILE.c (--before: e.g. `git show main:PATH`, to compare before and
# after in one run; bench/src/main/c/mpiwait_bound.c there gives the least any library that records
# every start costs), and bench/src/main/c/mpi_rate.c. Then runs mpi_rate on 2 ranks under mpirun,
# each rank bound to a core of its own, ROUNDS times each way: plain twice (the second plain is the
# noise floor: what a difference between two identical runs looks like), with the empty wrappers,
# with the --before library and with sdm's library preloaded. The ways take turns, and each round
# starts one later in the turn so that none is always first. mpi_rate runs each size SECONDS cut
# into BLOCKS blocks and gives the median of the calm blocks (those in which the kernel switched
# neither rank out for another process), the best block and the median of all; this prints, per
# size and way, the median over the rounds of each (and the lowest and highest of the rounds'), and
# each way's cost against plain: (plain - way) / plain of the medians.
#
# --sides adds two ways to the two-rank loop only: sdm's library preloaded into rank 0 alone (the
# sender: MPI_Isend, MPI_Waitall, MPI_Recv) and into rank 1 alone (the receiver), so that a cost
# seen on two ranks can be told to come from one side's calls, or from how the two ranks' timing
# meets (at 64 bytes the two-rank rate of Open MPI's shared memory has a fast and a slow regime,
# and a slower sender alone can tip it from one to the other).
#
# Two ranks that poll for each other's messages lose whole rounds when another process on this
# 2-core machine takes one's core, so the same is measured two more ways, less sensitive to the
# machine's load: in each turn, bench/src/main/c/mpi_self.c runs the loop's calls on one rank to
# itself (64 MPI_Irecv, 64 MPI_Isend, one MPI_Waitall) for SECONDS / 2 per size in blocks of 5 ms,
# and its tables give the same figures; last, when valgrind is installed, the instructions each
# library adds per message of mpi_self's loop (callgrind, counting only inside it), which no other
# process changes.
set -euo pipefail
rounds=9 seconds=2 blocks=200 before= keep= sides=
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --blocks) blocks=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --sides) sides=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -shared -fPIC -O2 -o "$work/libsdm_mpiwait.so" runtime/src/main/resources/io/sdmfabric/runtime/launch/sdm_mpiwait.c
cat >"$work/empty.c" <<'C'
#include <mpi.h>
int MPI_Isend(const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request *r) {
  return PMPI_Isend(b, n, t, d, g, c, r);
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *r) {
  return PMPI_Irecv(b, n, t, s, g, c, r);
}
int MPI_Waitall(int n, MPI_Request *r, MPI_Status *s) { return PMPI_Waitall(n, r, s); }
int MPI_Send(const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c) {
  return PMPI_Send(b, n, t, d, g, c);
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Status *st) {
  return PMPI_Recv(b, n, t, s, g, c, st);
}
int MPI_Barrier(MPI_Comm c) { return PMPI_Barrier(c); }
C
mpicc -shared -fPIC -O2 -o "$work/libempty.so" "$work/empty.c"
ways="plain plain2 empty"
if [ -n "$before" ]; then
  mpicc -shared -fPIC -O2 -o "$work/libbefore.so" "$before"
  ways="$ways before"
fi
ways="$ways sdm"
[ -n "$sides" ] && ways="$ways sdm-send sdm-recv"
mpicc -O2 -o "$work/mpi_rate" bench/src/main/c/mpi_rate.c
mpicc -O2 -o "$work/mpi_self" bench/src/main/c/mpi_self.c
preload_of() {
  case "$1" in
    plain | plain2) preload=() ;;
    empty) preload=(-x LD_PRELOAD="$work/libempty.so") ;;
    before) preload=(-x LD_PRELOAD="$work/libbefore.so") ;;
    sdm) preload=(-x LD_PRELOAD="$work/libsdm_mpiwait.so") ;;
    sdm-send | sdm-recv) preload=() ;;
  esac
}
run() {
  local preload rate_args ranks self_seconds self_blocks
  preload_of "$1"
  rate_args=("$work/mpi_rate" "$seconds" "$blocks")
  case "$1" in
    sdm-send) ranks=(-n 1 -x LD_PRELOAD="$work/libsdm_mpiwait.so" "${rate_args[@]}" : -n 1 "${rate_args[@]}") ;;
    sdm-recv) ranks=(-n 1 "${rate_args[@]}" : -n 1 -x LD_PRELOAD="$work/libsdm_mpiwait.so" "${rate_args[@]}") ;;
    *) ranks=(-n 2 "${preload[@]}" "${rate_args[@]}") ;;
  esac
  mpirun --bind-to core "${ranks[@]}" \
    | sed "s/^/$1 /" >>"$work/rates" || echo "# round $round: $1's mpi_rate failed" >&2
  case "$1" in sdm-send | sdm-recv) return ;; esac # one rank to itself has no sides
  self_seconds=$(awk -v s="$seconds" 'BEGIN { print s / 2 }')
  self_blocks=$(awk -v s="$seconds" 'BEGIN { b = int(s / 2 / 0.005); print b < 1 ? 1 : b }')
  mpirun -n 1 --bind-to core "${preload[@]}" "$work/mpi_self" -t "$self_seconds" "$self_blocks" \
    | sed "s/^/$1 /" >>"$work/self" || echo "# round $round: $1's mpi_self failed" >&2
}
read -r -a turn <<<"$ways"
echo "# $(date -u '+%F %T UTC'); load before: $(uptime | sed 's/.*load average: //')"
for round in $(seq "$rounds"); do
  for i in $(seq 0 $((${#turn[@]} - 1))); do
    run "${turn[$(((i + round) % ${#turn[@]}))]}"
  done
done
echo "# $(date -u '+%F %T UTC'); load after: $(uptime | sed 's/.*load average: //')"
if [ -n "$keep" ]; then cp "$work/rates" "$keep"; cp "$work/self" "$keep.self"; fi
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
lowest() { sort -g | head -1; }
highest() { sort -g | tail -1; }
for table in rates:5 rates:4 rates:3 self:5 self:4; do
  file=$work/${table%:*} column=${table#*:}
  case "$column" in
    3) what="median of all blocks" ;;
    4) what="best block" ;;
    5) what="calm blocks' median (rounds with none left out; in parentheses, how many blocks were calm)" ;;
  esac
  if [ "${table%:*}" = rates ]; then loop="mpi_rate, 2 ranks"; else loop="mpi_self, 1 rank to itself"; fi
  echo "# $loop: messages per second, the $what of each run: median over the rounds [lowest-highest]; cost against plain"
  printf "%-6s" bytes
  for way in $ways; do printf " %-34s" "$way"; done
  echo
  for size in 8 64 1024 8192; do
    of() { awk -v w="$1" -v s="$size" -v c="$column" '$1 == w && $2 == s && $c > 0 { print $c }' "$file"; }
    plain=$(of plain | median)
    printf "%-6s" "$size"
    for way in $ways; do
      values=$(of "$way")
      calm=$(awk -v w="$way" -v s="$size" '$1 == w && $2 == s { n += $6 } END { print n + 0 }' "$file")
      if [ -z "$values" ]; then printf " %-34s" "-"; continue; fi
      m=$(median <<<"$values") lo=$(lowest <<<"$values") hi=$(highest <<<"$values")
      cell=$(awk -v m="$m" -v lo="$lo" -v hi="$hi" -v p="$plain" -v w="$way" -v c="$column" -v n="$calm" \
        'BEGIN { x = (w == "plain" || p == "" || p == 0) ? "" : sprintf(" %+.1f%%", (p - m) * 100 / p);
                 printf "%.0f [%.0f-%.0f]%s%s", m, lo, hi, x, c == 5 ? " (" n ")" : "" }')
      printf " %-34s" "$cell"
    done
    echo
  done
done
if command -v valgrind >/dev/null; then
  self_rounds=1000
  echo "# instructions per message, mpi_self $self_rounds rounds of 64 messages of 8 bytes to itself under callgrind"
  for way in $ways; do
    case "$way" in plain2 | sdm-send | sdm-recv) continue ;; esac
    preload_of "$way"
    count=$(mpirun -n 1 "${preload[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      --collect-atstart=no --toggle-collect=exchange "$work/mpi_self" "$self_rounds" 8 2>&1 \
      | awk '/Collected :/ { print $NF }')
    [ "$way" = plain ] && base=$count
    awk -v w="$way" -v c="$count" -v b="$base" -v m=$(((self_rounds + 1) * 64)) \
      'BEGIN { printf "%-6s %.1f per message (%+.1f against plain)\n", w, c / m, (c - b) / m }'
  done
fi
