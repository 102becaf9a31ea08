# sdm's rank shim, run by the job's launcher as:
#   sh -c SHIM sdm-rank SPOOL PRELOAD HOLD PROGRAM [ARGS...]
# It records this rank's pid in the node's spool directory, stops itself until the node's agent
# has attached gdb, then becomes the program: gdb follows the exec and debugs it from its start.
# PRELOAD is sdm's MPI wait-records library, preloaded where this node has it, or - for none (an
# empty argument would not do: mpirun drops it). HOLD is where the rank waits for its gdb: exec
# (here, before the program starts) or init (at the end of MPI_Init, where the preloaded library
# stops the rank; here instead when the library is not preloaded). The pid file says which:
# "PID" or "PID init".
spool=$1
preload=$2
hold=$3
shift 3
rank=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-${SLURM_PROCID:-}}}}
if [ -z "$rank" ]; then
  echo "sdm: no rank in the environment (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID): start it with mpirun or srun" >&2
  exit 127
fi
size=${OMPI_COMM_WORLD_SIZE:-${PMIX_SIZE:-${PMI_SIZE:-${SLURM_NTASKS:-}}}}
export SDM_RANK="$rank" SDM_SIZE="$size"
umask 077
# A node may start a thousand ranks at once, each a process or two a millisecond apart: the shim
# runs two (id and one stat of everything it checks) and the first rank of a node a third (mkdir);
# the rest are the shell's own.
uid=$(id -u)
nl='
'
format='%F|%u|%U|%a'
# alone STAT TYPE MASK WHAT NAME: sets why to why NAME, whose stat line (format) is STAT, is not a
# TYPE of this user's with no mode bit of MASK (WHAT says what those bits allow); empty if it is.
alone() {
  a_type=${1%%|*}
  a_rest=${1#*|}
  a_uid=${a_rest%%|*}
  a_rest=${a_rest#*|}
  a_owner=${a_rest%%|*}
  a_mode=${a_rest#*|}
  why=
  if [ "$a_type" = "symbolic link" ]; then
    why="$5 is a symbolic link"
  elif [ "$a_type" != "$2" ]; then
    why="$5 is not a $2"
  elif [ "$a_uid" != "$uid" ]; then
    why="$5 is owned by $a_owner, not by $(id -un)"
  elif [ $(( 0$a_mode & $3 )) -ne 0 ]; then
    why="$5 has mode $a_mode: $4"
  fi
}
# The spool must be this user's alone: made here (mkdir, never -p: it fails if the name is taken),
# or found as the directory another rank of this node made: a directory, not a link, owned by this
# user, closed to everyone else. One that another user made first, or a link, is refused rather
# than written into, and the rank does not start.
made=
if [ ! -e "$spool" ] && [ ! -L "$spool" ]; then
  made=$(mkdir "$spool" 2>&1) # another rank may make it first: then it is checked as found
fi
# The library runs inside the rank, so it is preloaded only if it is the user's alone, as sdm's JVM
# checks it where it builds it (MpiWaitLibrary, PrivateDirectory): a regular file (not a link) of
# this user's that nobody else can write, in a directory of this user's closed to everyone else
# (mode 700), whose parent is one too. Missing on this node (a home that is not shared), it is
# left out in silence; there but not the user's alone, the rank runs without it and says why.
lib=
if [ "$preload" != - ] && [ -e "$preload" ]; then
  lib=${preload%/*}
  if ! seen=$(stat -c "$format" -- "$spool" "${lib%/*}" "$lib" "$preload" 2>/dev/null); then
    lib= # the spool is missing, or the library went since: the spool is seen alone
  fi
fi
if [ -z "$lib" ] && ! seen=$(stat -c "$format" -- "$spool" 2>/dev/null); then
  why="it cannot be made: ${made:-it is gone}"
else
  alone "${seen%%"$nl"*}" directory 077 "not 700" it
fi
if [ -n "$why" ]; then
  echo "sdm: rank $rank does not start: the spool directory $spool on $(uname -n) is not this user's alone: $why" >&2
  exit 127
fi
if [ "$rank" = 0 ] && [ -n "${SLURM_JOB_ID:-}" ]; then
  echo "sdm-job $SLURM_JOB_ID ${SLURM_STEP_NODELIST:-${SLURM_JOB_NODELIST:-}} ${SLURM_STEP_NUM_NODES:-${SLURM_JOB_NUM_NODES:-1}}"
fi
if [ -n "$lib" ]; then
  seen=${seen#*"$nl"}
  alone "${seen%%"$nl"*}" directory 077 "not 700" "${lib%/*}"
  seen=${seen#*"$nl"}
  [ -n "$why" ] || alone "${seen%%"$nl"*}" directory 077 "not 700" "$lib"
  [ -n "$why" ] || alone "${seen#*"$nl"}" "regular file" 022 "others can write it" "$preload"
  if [ -n "$why" ]; then
    echo "sdm: rank $rank runs without sdm's MPI wait-records library (no MPI wait-for graph): it is not this user's alone on $(uname -n): $why" >&2
  elif [ -r "$preload" ]; then
    export LD_PRELOAD="$preload${LD_PRELOAD:+:$LD_PRELOAD}"
  fi
fi
case "$hold:${LD_PRELOAD:-}" in
  init:"$preload"*)
    export SDM_HOLD_IN_INIT=1
    held=" init"
    ;;
  *) held= ;;
esac
# The pid file is created exclusively (noclobber: O_EXCL once the name is free) in one write, which
# the agent reads only once it ends in a newline. Whatever is at that name already (a link, a FIFO,
# which noclobber would open without O_EXCL) is removed first, never written through.
pidfile=$spool/rank.$rank
if [ -e "$pidfile" ] || [ -L "$pidfile" ]; then
  rm -f "$pidfile"
fi
set -C
echo "$$$held" >"$pidfile" || exit 127
set +C
[ -n "$held" ] || kill -STOP $$
exec "$@"
