#!/usr/bin/env bash
# The cost of sdm's MPI wait-records library (runtime/.../launch/sdm_mpiwait.c) on a message-rate
# loop. Run by `bench/run mpiwait [--rounds 5] [--seconds 1]`.
#
# Builds the library as sdm does (mpicc -shared -fPIC -O2) and bench/src/main/c/mpi_rate.c, then
# runs mpi_rate on 2 ranks under mpirun ROUNDS times without the library and ROUNDS times with it
# preloaded, alternating, and prints each size's median rate both ways and the difference.
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
mpicc -O2 -o "$work/mpi_rate" bench/src/main/c/mpi_rate.c
for round in $(seq "$rounds"); do
  mpirun --oversubscribe -n 2 "$work/mpi_rate" "$seconds" | sed "s/^/plain /" >>"$work/rates"
  mpirun --oversubscribe -n 2 -x LD_PRELOAD="$work/libsdm_mpiwait.so" "$work/mpi_rate" "$seconds" \
    | sed "s/^/preloaded /" >>"$work/rates"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "bytes plain_msgs_per_s preloaded_msgs_per_s overhead_percent (median of $rounds rounds each, alternating)"
for size in 8 64 1024 8192; do
  plain=$(awk -v s="$size" '$1 == "plain" && $2 == s { print $3 }' "$work/rates" | median)
  preloaded=$(awk -v s="$size" '$1 == "preloaded" && $2 == s { print $3 }' "$work/rates" | median)
  awk -v s="$size" -v p="$plain" -v q="$preloaded" 'BEGIN { printf "%d %.0f %.0f %.1f\n", s, p, q, (p - q) * 100 / p }'
done
