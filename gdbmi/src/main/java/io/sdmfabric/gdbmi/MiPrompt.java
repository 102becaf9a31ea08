package io.sdmfabric.gdbmi;

/**
 * The {@code (gdb)} line that ends each batch of output.
 *
 * <p>It carries no data; it tells the front end that gdb has finished reacting to the last input
 * and is ready for more. A singleton so that it can be compared with {@code ==} and used in
 * exhaustive switches over {@link MiRecord}.
 */
public enum MiPrompt implements MiRecord {
  /** The only prompt. */
  INSTANCE
}
