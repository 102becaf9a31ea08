/**
 * The GDB/MI layer: a grammar-driven parser of gdb's machine interface output, a driver that runs
 * {@code gdb --interpreter=mi3} with a pseudo-terminal for the inferior, and {@code GdbDebugger},
 * the real-gdb implementation of the Debugger SPI.
 */
package io.sdmfabric.gdbmi;
