#!/usr/bin/env bash
# The same job spread over nodes and on one: `sdm debug --launcher srun` of examples/mpi_reduce.c
# at 4 nodes x 8 ranks and at 1 node x 32 (Slurm's --overcommit: a test node claims 16 CPUs),
# alternated in one run on the four nodes of dev/lib/nodes.sh, which it brings up and down.
# Run by `bench/run nodes [--ranks 32] [--per-node 8] [--rounds 2] [--reps 30] [--jars A,B]`;
# needs root. `--jars` runs each launch with each jar in turn (default: cli/target/sdm.jar).
#
# Each run is a line of bench.SessionRunner (launch until every rank stopped at combine, bt and
# print p50/p99, quit), followed by the session's messages and bytes that crossed node boundaries
# per command (SDM_MESSAGE_COUNTS: an Artery instrument in every JVM counts sdm's messages that
# leave it) beside the floor of one message each way per tree edge between JVMs. The master runs
# here, on the login; every agent and rank on a node. RSS counts only sdm's own descendants,
# which the agents and ranks under slurmstepd are not.
set -euo pipefail
ranks=32 per_node=8 rounds=2 reps=30 jars=
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift 2 ;;
    --per-node) per_node=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --jars) jars=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
# shellcheck source=dev/lib/nodes.sh
. dev/lib/nodes.sh
counts=$(mktemp -d /var/tmp/sdm-bench-counts.XXXXXX)
# nodes.sh's functions return a status rather than run under set -e: the trap must not stop half way.
trap 'set +e; nodes_down; rm -rf "$counts"' EXIT
nodes_up 4 "$PWD" && nodes_slurm_up || { echo "bench/nodes.sh: the nodes did not come up" >&2; exit 1; }
spread="srun -N $((ranks / per_node)) --ntasks-per-node=$per_node"
one="srun -N 1 --overcommit"
launchers=$spread,$one
for _ in $(seq 2 "$rounds"); do launchers=$launchers,$spread,$one; done
# The program and its build directory must be where every node sees them: /var/tmp, not /tmp.
SLURM_CONF=$SDM_NODES_SLURM_CONF SDM_MESSAGE_COUNTS=$counts \
  java -Djava.io.tmpdir=/var/tmp -cp bench/target/benchmarks.jar io.sdmfabric.bench.SessionRunner \
  --program mpi_reduce --break combine --print mine --launcher "$launchers" \
  --ranks "$ranks" --reps "$reps" ${jars:+--jars "$jars"}
