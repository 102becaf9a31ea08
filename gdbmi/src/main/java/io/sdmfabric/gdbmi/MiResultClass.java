package io.sdmfabric.gdbmi;

/**
 * The outcome of a command, as named after the {@code ^} of a result record.
 *
 * <p>The GDB manual lists exactly these five classes; any other word after {@code ^} is a parse
 * error rather than a new class, because a front end that does not understand the outcome of a
 * command cannot continue safely.
 */
public enum MiResultClass {
  /** {@code ^done}: the command completed; the results are its return values. */
  DONE("done"),
  /** {@code ^running}: the target was resumed (MI keeps emitting it for older front ends). */
  RUNNING("running"),
  /** {@code ^connected}: gdb connected to a remote target. */
  CONNECTED("connected"),
  /** {@code ^error}: the command failed; {@code msg} (and maybe {@code code}) say why. */
  ERROR("error"),
  /** {@code ^exit}: gdb is exiting. */
  EXIT("exit");

  private final String wireName;

  MiResultClass(String wireName) {
    this.wireName = wireName;
  }

  /** The class as gdb spells it after {@code ^}, e.g. {@code "done"}. */
  public String wireName() {
    return wireName;
  }
}
