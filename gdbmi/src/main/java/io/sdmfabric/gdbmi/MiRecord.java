package io.sdmfabric.gdbmi;

/**
 * One line of GDB/MI output, as described in the GDB manual's "GDB/MI Output Syntax" section.
 *
 * <p>gdb writes one record per line: a result record ({@code ^done}, ...) answering a command, an
 * async record ({@code *stopped}, {@code =thread-created}, ...) reporting a state change, a stream
 * record ({@code ~"text"}) carrying console, target or log text, or the {@code (gdb)} prompt that
 * ends a batch. The set is closed so that consumers can switch over it exhaustively. Instances are
 * produced by {@link MiParser} and are immutable.
 */
public sealed interface MiRecord permits MiResultRecord, MiAsyncRecord, MiStreamRecord, MiPrompt {}
