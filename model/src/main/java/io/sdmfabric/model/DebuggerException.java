package io.sdmfabric.model;

/**
 * A debugger refused or failed a request. The message is the debugger's own text, intact (for gdb,
 * the {@code msg} of its {@code ^error} record), so that users see what gdb said.
 */
public class DebuggerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DebuggerException(String message) {
    super(message);
  }

  public DebuggerException(String message, Throwable cause) {
    super(message, cause);
  }
}
