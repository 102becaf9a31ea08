package io.sdmfabric.model;

/** The actions of gdb's {@code handle SIGNAL ACTIONS}. */
public enum SignalAction {
  STOP,
  NOSTOP,
  PRINT,
  NOPRINT,
  PASS,
  NOPASS;

  /** The word gdb expects, e.g. {@code nostop}. */
  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
