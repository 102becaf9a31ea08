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
# The spool must be this user's alone: made here (mkdir, never -p: it fails if the name is taken),
# or found as the directory another rank of this node made: a directory, not a link, owned by this
# user, closed to everyone else. One that another user made first, or a link, is refused rather
# than written into, and the rank does not start.
if ! made=$(mkdir "$spool" 2>&1); then
  why=
  if [ -L "$spool" ]; then
    why="it is a symbolic link"
  elif [ ! -e "$spool" ]; then
    why="it cannot be made: $made"
  elif [ ! -d "$spool" ]; then
    why="it is not a directory"
  elif [ "$(stat -c %u "$spool")" != "$(id -u)" ]; then
    why="it is owned by $(stat -c %U "$spool"), not by $(id -un)"
  elif [ $(( 0$(stat -c %a "$spool") & 077 )) -ne 0 ]; then
    why="it has mode $(stat -c %a "$spool"), not 700"
  fi
  if [ -n "$why" ]; then
    echo "sdm: rank $rank does not start: the spool directory $spool on $(uname -n) is not this user's alone: $why" >&2
    exit 127
  fi
fi
if [ "$rank" = 0 ] && [ -n "${SLURM_JOB_ID:-}" ]; then
  echo "sdm-job $SLURM_JOB_ID ${SLURM_STEP_NODELIST:-${SLURM_JOB_NODELIST:-}} ${SLURM_STEP_NUM_NODES:-${SLURM_JOB_NUM_NODES:-1}}"
fi
# The library runs inside the rank, so it is preloaded only if it is the user's alone, as sdm's JVM
# checks it where it builds it (MpiWaitLibrary, PrivateDirectory): a regular file (not a link) of
# this user's that nobody else can write, in a directory of this user's closed to everyone else
# (mode 700), whose parent is one too. Missing on this node (a home that is not shared), it is
# left out in silence; there but not the user's alone, the rank runs without it and says why.
# private PATH TYPE MASK WHAT: why PATH is not a TYPE of this user's with no mode bit of MASK (WHAT
# says what those bits allow); nothing if it is.
private() {
  if [ -L "$1" ]; then
    echo "$1 is a symbolic link"
  elif [ "$(stat -c %F "$1" 2>&1)" != "$2" ]; then
    echo "$1 is not a $2"
  elif [ "$(stat -c %u "$1")" != "$(id -u)" ]; then
    echo "$1 is owned by $(stat -c %U "$1"), not by $(id -un)"
  elif [ $(( 0$(stat -c %a "$1") & $3 )) -ne 0 ]; then
    echo "$1 has mode $(stat -c %a "$1"): $4"
  fi
}
if [ "$preload" != - ] && [ -e "$preload" ]; then
  dir=$(dirname "$preload")
  why=$(private "$(dirname "$dir")" directory 077 "not 700")
  why=${why:-$(private "$dir" directory 077 "not 700")}
  why=${why:-$(private "$preload" "regular file" 022 "others can write it")}
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
# The pid file is created exclusively (noclobber: O_EXCL once the name is free) and renamed into
# place (mv -T: over a link, never into a directory it names), so nothing there is written through.
rm -f "$spool/.rank.$rank"
(set -C; echo "$$$held" >"$spool/.rank.$rank") && mv -fT "$spool/.rank.$rank" "$spool/rank.$rank" || exit 127
[ -n "$held" ] || kill -STOP $$
exec "$@"
