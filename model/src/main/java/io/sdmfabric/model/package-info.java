/**
 * Rank sets, the runtime model of a debug job (job, process and node states with typed attributes),
 * the debug model (breakpoints, frames, threads, typed values) and the per-rank {@link
 * io.sdmfabric.model.Debugger} SPI that every backend implements; and what every module needs
 * alike: POSIX shell quoting ({@link io.sdmfabric.model.Shell}) and the message of a failure
 * ({@link io.sdmfabric.model.Failures}).
 */
package io.sdmfabric.model;
