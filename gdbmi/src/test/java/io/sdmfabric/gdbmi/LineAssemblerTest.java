package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.gdbmi.internal.LineAssembler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineAssemblerTest {
  private static final String TEXT =
      "1^done\r\n*stopped,reason=\"exited\"\n(gdb) \n~\"é\"\npartial";

  private static List<String> feedInChunksOf(int size) {
    byte[] bytes = TEXT.getBytes(StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>();
    LineAssembler a = new LineAssembler(l -> lines.add(new String(l, StandardCharsets.UTF_8)));
    for (int i = 0; i < bytes.length; i += size) {
      a.feed(bytes, i, Math.min(size, bytes.length - i));
    }
    assertEquals("partial".length(), a.pending());
    return lines;
  }

  @Test
  void assemblesLinesWrittenOneByteAtATime() {
    List<String> expected = List.of("1^done", "*stopped,reason=\"exited\"", "(gdb) ", "~\"é\"");
    assertEquals(expected, feedInChunksOf(1));
    assertEquals(expected, feedInChunksOf(3));
    assertEquals(expected, feedInChunksOf(10_000));
  }
}
