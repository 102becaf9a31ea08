package io.sdmfabric.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.gdbmi.GdbDebugger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EarlyAttachmentsTest {
  @TempDir Path dir;

  /** Writes down what it is told, as "rank:why". */
  private static final class Told implements SpoolAttacher.Listener {
    final List<String> lines = new ArrayList<>();

    @Override
    public void attached(int rank, GdbDebugger gdb) {
      lines.add(rank + ":attached");
    }

    @Override
    public void failed(int rank, String why) {
      lines.add(rank + ":" + why);
    }
  }

  @Test
  void whatCameBeforeTheHandOverIsToldInOrderAndWhatComesAfterAsItComes() {
    // No spool yet: the attacher finds no rank and stops at once.
    try (EarlyAttachments attachments =
        EarlyAttachments.spool(
            dir.resolve("spool"), Path.of("/bin/true"), 3, Duration.ofMillis(50), 16)) {
      attachments.failed(2, "no pid");
      attachments.failed(0, "gone");
      Told told = new Told();

      attachments.handTo(told);
      assertEquals(List.of("2:no pid", "0:gone"), told.lines);

      attachments.failed(1, "late");
      assertEquals(List.of("2:no pid", "0:gone", "1:late"), told.lines);
    }
  }

  @Test
  void aClosedAttachmentHandsNothingOn() {
    EarlyAttachments attachments =
        EarlyAttachments.spool(
            dir.resolve("spool"), Path.of("/bin/true"), 1, Duration.ofMillis(50), 16);
    attachments.failed(0, "gone");
    attachments.close();
    Told told = new Told();

    attachments.handTo(told);

    assertEquals(List.of(), told.lines);
  }
}
