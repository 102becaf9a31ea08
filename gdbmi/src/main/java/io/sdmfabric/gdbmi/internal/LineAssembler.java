package io.sdmfabric.gdbmi.internal;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Cuts a byte stream into lines, however the writer chunked it: gdb 13 writes MI output to a pipe
 * one byte per {@code write()}, and a reader that assumes whole lines per read breaks. A line is
 * handed on without its {@code \n} (and without a {@code \r} before it).
 */
public final class LineAssembler {
  private final Consumer<byte[]> lines;
  private byte[] buffer = new byte[1024];
  private int length;

  /** Assembles lines for a consumer that receives each complete line. */
  public LineAssembler(Consumer<byte[]> lines) {
    this.lines = lines;
  }

  /** Feeds {@code count} bytes of {@code chunk} from {@code offset}. */
  public void feed(byte[] chunk, int offset, int count) {
    int end = offset + count;
    int start = offset;
    for (int i = offset; i < end; i++) {
      if (chunk[i] == '\n') {
        append(chunk, start, i - start);
        emit();
        start = i + 1;
      }
    }
    append(chunk, start, end - start);
  }

  /**
   * The bytes of an unfinished last line, which are lost when the stream ends without a newline.
   */
  public int pending() {
    return length;
  }

  private void append(byte[] chunk, int from, int count) {
    if (count == 0) {
      return;
    }
    if (length + count > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + count));
    }
    System.arraycopy(chunk, from, buffer, length, count);
    length += count;
  }

  private void emit() {
    int end = length > 0 && buffer[length - 1] == '\r' ? length - 1 : length;
    lines.accept(Arrays.copyOf(buffer, end));
    length = 0;
  }
}
