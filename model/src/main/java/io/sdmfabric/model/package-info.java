/**
 * Rank sets, the runtime model of a debug job (job, process and node states with typed attributes),
 * the debug model (breakpoints, frames, threads, typed values) and the per-rank {@link
 * io.sdmfabric.model.Debugger} SPI that every backend implements.
 */
package io.sdmfabric.model;
