package io.sdmfabric.gdbmi;

/**
 * A syntactically valid MI value does not have the shape the caller expected: a field is missing or
 * has another kind of value (a tuple where a string was expected, ...).
 *
 * <p>Unchecked because it signals a mismatch between this program and the gdb it talks to (a
 * changed or unexpected output), not a condition callers can plan for at every field access. The
 * message names the field and what was found so that the mismatch can be fixed from a log.
 */
public final class MiShapeException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was expected and what was found, naming the field
   */
  public MiShapeException(String message) {
    super(message);
  }
}
