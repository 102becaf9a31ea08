package io.sdmfabric.frontend;

/** A console line that is not a command; the message says what is wrong and how to fix it. */
public final class ConsoleSyntaxException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** An error with a message for the user. */
  public ConsoleSyntaxException(String message) {
    super(message);
  }
}
