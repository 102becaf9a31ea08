package io.sdmfabric.sim;

/**
 * Where a rank's process passes a source line, computed from its call path without stepping through
 * it: a line inside the loop comes back once per loop body, a line outside it at most once. This is
 * what lets a simulated run to a breakpoint cost the same at any iteration count.
 */
final class LineCrossings {
  private final SimulatedProgram program;
  private final SimulatedProgram.Path path;

  LineCrossings(SimulatedProgram program, SimulatedProgram.Path path) {
    this.program = program;
    this.path = path;
  }

  /**
   * The position where a breakpoint at {@code line} stops after {@code ignore} crossings, at or
   * after {@code first}; {@code Integer.MAX_VALUE} when it never does.
   */
  int stoppingOccurrence(int line, int ignore, int first) {
    int start = firstPosition(line);
    if (start < 0) {
      return Integer.MAX_VALUE;
    }
    int stride = stride(line);
    if (stride == 0) {
      return start >= first && ignore == 0 ? start : Integer.MAX_VALUE;
    }
    long k = first <= start ? 0 : ceilDiv(first - start, stride);
    k += ignore;
    return k < program.iterations() ? (int) (start + k * stride) : Integer.MAX_VALUE;
  }

  /** How many times the process passes a line at positions {@code a..b}. */
  int occurrences(int line, int a, int b) {
    int start = firstPosition(line);
    if (start < 0 || b < a) {
      return 0;
    }
    int stride = stride(line);
    if (stride == 0) {
      return start >= a && start <= b ? 1 : 0;
    }
    long kMin = a <= start ? 0 : ceilDiv(a - start, stride);
    long kMax = b < start ? -1 : Math.min((b - start) / stride, program.iterations() - 1L);
    return (int) Math.max(0, kMax - kMin + 1);
  }

  private static long ceilDiv(long x, long y) {
    return -Math.floorDiv(-x, y);
  }

  /** The first position at a line, or -1 when the path never passes it. */
  private int firstPosition(int line) {
    if (line <= 0) {
      return -1;
    }
    Integer slot = path.bodySlotOfLine.get(line);
    if (slot != null) {
      return SimulatedProgram.PROLOGUE + slot;
    }
    for (int s = 0; s < SimulatedProgram.PROLOGUE; s++) {
      if (path.line[s] == line) {
        return s;
      }
    }
    int body = program.bodyLength();
    for (int j = 0; j < SimulatedProgram.EPILOGUE; j++) {
      if (path.line[SimulatedProgram.PROLOGUE + body + j] == line) {
        return SimulatedProgram.PROLOGUE + program.iterations() * body + j;
      }
    }
    return -1;
  }

  /** The distance between two passes of a line: one loop body inside the loop, 0 outside. */
  private int stride(int line) {
    return path.bodySlotOfLine.containsKey(line) ? program.bodyLength() : 0;
  }
}
