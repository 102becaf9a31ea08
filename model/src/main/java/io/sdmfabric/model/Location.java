package io.sdmfabric.model;

import java.util.Objects;

/** Where a breakpoint goes: a source line or a function. */
public sealed interface Location permits Location.Line, Location.Function {

  /** A line in a source file, e.g. {@code solver.c:212}. */
  record Line(String file, int line) implements Location {
    public Line {
      Objects.requireNonNull(file, "file");
      if (file.isBlank() || line < 1) {
        throw new IllegalArgumentException("a line location needs a file and a line >= 1");
      }
    }

    @Override
    public String toString() {
      return file + ":" + line;
    }
  }

  /** A function by name, e.g. {@code MPI_Barrier}. */
  record Function(String name) implements Location {
    public Function {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("a function location needs a name");
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * Parses the console form: {@code FILE:LINE} is a line, anything else a function name.
   *
   * @throws IllegalArgumentException for a blank location or a non-positive line
   */
  static Location parse(String text) {
    String t = text.strip();
    int colon = t.lastIndexOf(':');
    if (colon > 0 && colon < t.length() - 1) {
      String tail = t.substring(colon + 1);
      if (tail.chars().allMatch(Character::isDigit)) {
        try {
          return new Line(t.substring(0, colon), Integer.parseInt(tail));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("line number out of range: " + tail, e);
        }
      }
    }
    return new Function(t);
  }
}
