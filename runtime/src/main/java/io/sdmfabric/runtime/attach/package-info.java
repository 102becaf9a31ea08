/**
 * Finding the ranks of a running job sdm did not start: processes by host and pid, their ranks read
 * from their environments (here or through a remote shell), checked as one job; or a Slurm job
 * step's nodes and tasks.
 */
package io.sdmfabric.runtime.attach;
