/**
 * The resource manager's view: a Slurm cluster's partitions, nodes, and the user's jobs with their
 * steps, read from Slurm's own commands within a bound ({@link
 * io.sdmfabric.runtime.cluster.Slurm}); and the jobs on this host started by mpirun, mpiexec or
 * prterun, with their ranks ({@link io.sdmfabric.runtime.cluster.LocalLaunchers}). What they find
 * are the model's values ({@link io.sdmfabric.model.QueuedJob}, {@link
 * io.sdmfabric.model.ClusterMachine}, {@link io.sdmfabric.model.LauncherJob}).
 */
package io.sdmfabric.runtime.cluster;
