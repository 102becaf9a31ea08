/**
 * A simulated program and debugger: deterministic stacks, values, breakpoints, hangs and crashes
 * per rank, for tests and for measuring the fabric at scales one machine cannot hold with gdb.
 */
package io.sdmfabric.sim;
