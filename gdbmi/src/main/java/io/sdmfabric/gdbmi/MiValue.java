package io.sdmfabric.gdbmi;

/**
 * A value in GDB/MI output: a constant c-string, a tuple {@code {...}} or a list {@code [...]}.
 *
 * <p>This is the generic syntax tree; what a value means depends on the command that produced it
 * and is decided by the typed layer above. Closed so that consumers can switch exhaustively.
 */
public sealed interface MiValue permits MiConst, MiTuple, MiList {}
