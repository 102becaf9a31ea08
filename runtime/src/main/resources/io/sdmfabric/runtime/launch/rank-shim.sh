# sdm's rank shim, run by the job's launcher as: sh -c SHIM sdm-rank SPOOL PROGRAM [ARGS...]
# It records this rank's pid in the node's spool directory, stops itself until the node's agent
# has attached gdb, then becomes the program: gdb follows the exec and debugs it from its start.
spool=$1
shift
rank=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-${SLURM_PROCID:-}}}}
if [ -z "$rank" ]; then
  echo "sdm: no rank in the environment (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID): start it with mpirun or srun" >&2
  exit 127
fi
size=${OMPI_COMM_WORLD_SIZE:-${PMIX_SIZE:-${PMI_SIZE:-${SLURM_NTASKS:-}}}}
export SDM_RANK="$rank" SDM_SIZE="$size"
umask 077
# The spool must be this user's alone: made here (mkdir fails if it is there), or found as the
# directory another rank of this node made: owned by this user, not a link, mode 0700. One that
# another user made first, or a link, is refused rather than written into.
if ! mkdir "$spool" 2>/dev/null; then
  if [ ! -d "$spool" ] || [ -L "$spool" ] || [ "$(stat -c %u "$spool")" != "$(id -u)" ] \
    || [ $(( 0$(stat -c %a "$spool") & 077 )) -ne 0 ]; then
    echo "sdm: the spool directory $spool on $(hostname) is not this user's alone (another user's, a link, or open to others): rank $rank does not start" >&2
    exit 127
  fi
fi
if [ "$rank" = 0 ] && [ -n "${SLURM_JOB_ID:-}" ]; then
  echo "sdm-job $SLURM_JOB_ID ${SLURM_STEP_NODELIST:-${SLURM_JOB_NODELIST:-}} ${SLURM_STEP_NUM_NODES:-${SLURM_JOB_NUM_NODES:-1}}"
fi
# Created exclusively (noclobber: O_EXCL), so that nothing planted there is written through.
rm -f "$spool/.rank.$rank"
(set -C; echo $$ >"$spool/.rank.$rank") && mv -f "$spool/.rank.$rank" "$spool/rank.$rank" || exit 127
kill -STOP $$
exec "$@"
