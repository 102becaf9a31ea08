#!/usr/bin/env bash
# The cost of sdm's MPI wait-records library (runtime/.../launch/sdm_mpiwait.c) on a message-rate
# loop. Run by `bench/run mpiwait [--rounds 5] [--seconds 1]`.
#
# Builds the library as sdm does (mpicc -shared -fPIC -O2), a library of empty wrappers of the
# same calls the loop makes (what any PMPI tool costs before it does anything), and
# bench/src/main/c/mpi_rate.c; then runs mpi_rate on 2 ranks under mpirun ROUNDS times each way,
# plain, with the empty wrappers and with sdm's library preloaded, in turn, and prints each size's
# median rates and the differences to plain.
set -euo pipefail
rounds=5 seconds=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
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
mpicc -O2 -o "$work/mpi_rate" bench/src/main/c/mpi_rate.c
for round in $(seq "$rounds"); do
  mpirun --oversubscribe -n 2 "$work/mpi_rate" "$seconds" | sed "s/^/plain /" >>"$work/rates"
  mpirun --oversubscribe -n 2 -x LD_PRELOAD="$work/libempty.so" "$work/mpi_rate" "$seconds" \
    | sed "s/^/empty /" >>"$work/rates"
  mpirun --oversubscribe -n 2 -x LD_PRELOAD="$work/libsdm_mpiwait.so" "$work/mpi_rate" "$seconds" \
    | sed "s/^/preloaded /" >>"$work/rates"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "bytes plain_msgs_per_s empty_wrappers_msgs_per_s sdm_msgs_per_s empty_cost_percent sdm_cost_percent (medians of $rounds rounds, in turn)"
for size in 8 64 1024 8192; do
  plain=$(awk -v s="$size" '$1 == "plain" && $2 == s { print $3 }' "$work/rates" | median)
  empty=$(awk -v s="$size" '$1 == "empty" && $2 == s { print $3 }' "$work/rates" | median)
  preloaded=$(awk -v s="$size" '$1 == "preloaded" && $2 == s { print $3 }' "$work/rates" | median)
  awk -v s="$size" -v p="$plain" -v e="$empty" -v q="$preloaded" \
    'BEGIN { printf "%d %.0f %.0f %.0f %.1f %.1f\n", s, p, e, q, (p - e) * 100 / p, (p - q) * 100 / p }'
done
