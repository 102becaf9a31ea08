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
mkdir -p "$spool" || exit 127
if [ "$rank" = 0 ] && [ -n "${SLURM_JOB_ID:-}" ]; then
  echo "sdm-job $SLURM_JOB_ID ${SLURM_STEP_NODELIST:-${SLURM_JOB_NODELIST:-}} ${SLURM_STEP_NUM_NODES:-${SLURM_JOB_NUM_NODES:-1}}"
fi
echo $$ >"$spool/.rank.$rank" && mv -f "$spool/.rank.$rank" "$spool/rank.$rank" || exit 127
kill -STOP $$
exec "$@"
