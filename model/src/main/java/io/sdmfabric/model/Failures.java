package io.sdmfabric.model;

import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What went wrong, for people: a failure from a future unwrapped to the exception that says what
 * happened, and its message. Futures wrap the failure they carry ({@link CompletionException} from
 * {@code join} and dependent stages, {@link ExecutionException} from {@code get}); the wrapper's
 * own message is the cause's {@code toString()}, class name included, which users should not see.
 */
public final class Failures {
  private Failures() {}

  /**
   * The failure inside any number of {@link CompletionException} and {@link ExecutionException}
   * wrappers; {@code error} itself when it is no wrapper, or a wrapper without a cause.
   */
  public static Throwable cause(Throwable error) {
    Objects.requireNonNull(error, "error");
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  /**
   * The message of the failure inside the wrappers ({@link #cause}); never null: the simple name of
   * its class when it has no message (e.g. {@code TimeoutException}).
   */
  public static String message(Throwable error) {
    Throwable e = cause(error);
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
