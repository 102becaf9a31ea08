/**
 * Starting a job through its real launcher (mpirun, srun): the launchers' command lines, the rank
 * shim that records each rank's pid and stops it before its exec, the node-local spool it writes,
 * and the merging of the ranks' output that comes through the launcher.
 */
package io.sdmfabric.runtime.launch;
