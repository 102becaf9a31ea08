package io.sdmfabric.model;

import java.util.Objects;

/**
 * One frame of a call stack.
 *
 * @param level 0 for the innermost frame
 * @param address the program counter in this frame
 * @param function the function's name, {@code ??} when unknown
 * @param file the source file's name as compiled, empty without debug info
 * @param line the source line, 0 without debug info
 * @param library the shared object the code is in, empty when it is the program itself or unknown
 */
public record Frame(
    int level, long address, String function, String file, int line, String library) {

  /** The frame of a thread whose location is not known (for example a running thread). */
  public static final Frame UNKNOWN = new Frame(0, 0, "??", "", 0, "");

  public Frame {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(library, "library");
    if (level < 0 || line < 0) {
      throw new IllegalArgumentException("level and line must be >= 0");
    }
  }

  /** This frame without its program counter, which is 0 in the copy. */
  public Frame withoutAddress() {
    return address == 0 ? this : new Frame(level, 0, function, file, line, library);
  }

  /** Whether the frame has a source position. */
  public boolean hasSource() {
    return !file.isEmpty() && line > 0;
  }

  /** {@code func at file:line}, or {@code func} alone without a source position. */
  public String describe() {
    return hasSource() ? function + " at " + file + ":" + line : function;
  }
}
