package io.sdmfabric.model;

import java.util.Objects;

/**
 * How the debugger handles one signal.
 *
 * @param name e.g. {@code SIGSEGV}
 * @param stop the program stops when it gets the signal
 * @param print the debugger reports the signal
 * @param pass the program sees the signal
 * @param description e.g. {@code Segmentation fault}
 */
public record SignalInfo(
    String name, boolean stop, boolean print, boolean pass, String description) {

  public SignalInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
  }
}
