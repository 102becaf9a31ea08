#!/usr/bin/env bash
# sdm stacks of a running MPI job that sdm did not start: attach, K samples of every thread, detach.
# Run by `bench/run stacks [--launcher mpirun,srun] [--ranks 8,32,64] [--samples 1,3] [--reps 2]
# [--jars A.jar,B.jar] [--cds]`.
#
# For each launcher, N, K and repetition: starts examples/mpi_iterate.c on N ranks without sdm
# (long enough to outlive the measurement), waits until it iterates, then times
# `java -jar cli/target/sdm.jar stacks --samples K --interval 500ms TARGET` (the pids under mpirun,
# the job step under srun) from its start to its exit: JVMs, attach, K samples, detach. Prints one
# line per run, with the tree's size, and checks the job is still running afterwards. With --jars,
# each of the jars (default cli/target/sdm.jar) in turn on the same job, to compare two builds side
# by side. With --cds, each jar runs with a class-data archive recorded by an untimed first run on
# the first job, as ./sdm runs it (the agents are passed the archive too).
set -euo pipefail
launchers=mpirun,srun ranks=8,32,64 samples=1,3 reps=2 jars=$PWD/cli/target/sdm.jar cds=
while [ $# -gt 0 ]; do
  case "$1" in
    --launcher) launchers=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --samples) samples=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --jars) jars=$2; shift 2 ;;
    --cds) cds=yes; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
job=
cleanup() {
  set +e
  [ -n "$job" ] && kill "$job" 2>/dev/null
  scancel -n "sdm-bench-stacks-$$" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
mpicc -g -O0 -o "$work/mpi_iterate" examples/mpi_iterate.c
ms() { echo $(( $(date +%s%N) / 1000000 )); }

echo "launcher ranks samples rep jar stacks_ms tree_lines job_alive_after"
for launcher in ${launchers//,/ }; do
  for n in ${ranks//,/ }; do
    for rep in $(seq "$reps"); do
      name="sdm-bench-stacks-$$"
      if [ "$launcher" = mpirun ]; then
        mpirun --oversubscribe -n "$n" "$work/mpi_iterate" 1000000 >"$work/job.out" 2>&1 &
      else
        srun -n "$n" --overcommit --mpi=pmix --job-name="$name" "$work/mpi_iterate" 1000000 \
          >"$work/job.out" 2>&1 &
      fi
      job=$!
      until grep -q iterating "$work/job.out" 2>/dev/null; do
        kill -0 "$job" 2>/dev/null || { echo "the job did not start:" >&2; cat "$work/job.out" >&2; exit 1; }
        sleep 0.2
      done
      if [ "$launcher" = mpirun ]; then
        target=$(pgrep -d, -P "$job" -x mpi_iterate)
      else
        target="--slurm $(squeue -h -n "$name" -o %i)"
      fi
      for k in ${samples//,/ }; do
        for jar in ${jars//,/ }; do
          # The master's JVM options, as ./sdm gives them (runtime's JvmOptions.MASTER).
          java=(java -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseParallelGC)
          if [ -n "$cds" ]; then
            archive="$work/$(basename "$jar").jsa"
            if [ ! -f "$archive" ]; then
              # shellcheck disable=SC2086
              "${java[@]}" -XX:ArchiveClassesAtExit="$archive" -jar "$jar" stacks $target >/dev/null \
                2>"$work/sdm.err" || { echo "the run that records $archive failed:" >&2; cat "$work/sdm.err" >&2; exit 1; }
            fi
            java+=(-XX:SharedArchiveFile="$archive")
          fi
          t0=$(ms)
          # shellcheck disable=SC2086  # $target is one or two words
          "${java[@]}" -jar "$jar" stacks --samples "$k" --interval 500ms $target >"$work/stacks.out" \
            2>"$work/sdm.err" || { echo "sdm stacks failed:" >&2; cat "$work/sdm.err" >&2; exit 1; }
          t1=$(ms)
          alive=$(kill -0 "$job" 2>/dev/null && echo yes || echo no)
          echo "$launcher $n $k $rep $(basename "$jar")${cds:+,cds} $((t1 - t0)) $(wc -l <"$work/stacks.out") $alive"
        done
      done
      if [ "$launcher" = srun ]; then scancel -n "$name"; fi
      kill "$job" 2>/dev/null || true
      wait "$job" 2>/dev/null || true
      job=
    done
  done
done
