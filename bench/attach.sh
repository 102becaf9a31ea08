#!/usr/bin/env bash
# sdm attach to running MPI jobs: how long until every rank is attached, a bt, and the detach.
# Run by `bench/run attach [--launcher mpirun,srun] [--ranks 4,8,16] [--reps 3]`.
#
# For each launcher, N and repetition: starts examples/mpi_iterate.c on N ranks (long enough to
# outlive the measurement) without sdm, waits until it iterates, then runs
# `java -jar cli/target/sdm.jar attach --batch --json TARGET` (the pids under mpirun, the
# job under srun) with its input from a pipe, and prints one line: from starting sdm's JVM to the
# ranks' "loaded" event (attach: master, agent JVM, gdbs), from writing `bt` to its `complete`,
# and from writing `quit` to sdm's exit (detach, master, agent). Then it ends the job.
set -euo pipefail
launchers=mpirun,srun ranks=4,8,16 reps=3
while [ $# -gt 0 ]; do
  case "$1" in
    --launcher) launchers=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
jar=$PWD/cli/target/sdm.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -g -O0 -o "$work/mpi_iterate" examples/mpi_iterate.c
ms() { echo $(( $(date +%s%N) / 1000000 )); }

# Reads sdm's lines until one matches $1; fails after 300 s.
await() {
  local line
  while IFS= read -r -t 300 line <&"${SDM[0]}"; do
    case "$line" in *"$1"*) return 0 ;; esac
  done
  echo "sdm said nothing like $1" >&2; return 1
}

echo "launcher ranks rep attach_ms bt_ms quit_ms"
for launcher in ${launchers//,/ }; do
  for n in ${ranks//,/ }; do
    for rep in $(seq "$reps"); do
      name="sdm-bench-attach-$$-$n-$rep"
      if [ "$launcher" = mpirun ]; then
        mpirun -n "$n" "$work/mpi_iterate" 100000 >"$work/job.out" 2>&1 &
      else
        srun -n "$n" --mpi=pmix --job-name="$name" "$work/mpi_iterate" 100000 >"$work/job.out" 2>&1 &
      fi
      job=$!
      until grep -q iterating "$work/job.out" 2>/dev/null; do sleep 0.2; done
      if [ "$launcher" = mpirun ]; then
        target=$(pgrep -d, -P "$job" -x mpi_iterate)
      else
        target="--slurm $(squeue -h -n "$name" -o %i)"
      fi
      t0=$(ms)
      # shellcheck disable=SC2086  # $target is one or two words
      # The master's JVM options, as ./sdm gives them (runtime's JvmOptions.MASTER).
      coproc SDM { exec java -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseParallelGC -jar "$jar" attach --batch --json $target 2>"$work/sdm.err"; }
      sdm=$SDM_PID
      await '"event":"loaded"'; t1=$(ms)
      echo bt >&"${SDM[1]}"; await '"command":"bt"'; t2=$(ms)
      echo quit >&"${SDM[1]}"; t3=$(ms)
      wait "$sdm" || true
      t4=$(ms)
      echo "$launcher $n $rep $((t1 - t0)) $((t2 - t1)) $((t4 - t3))"
      if [ "$launcher" = srun ]; then scancel -n "$name"; fi
      kill "$job" 2>/dev/null || true
      wait "$job" 2>/dev/null || true
    done
  done
done
