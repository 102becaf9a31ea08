package io.sdmfabric.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link RefusedMessages}' lines, on a clock the test moves. */
class RefusedMessagesTest {
  private final List<String> lines = new ArrayList<>();
  private final AtomicLong now = new AtomicLong(42L);
  private final RefusedMessages refusals = new RefusedMessages(lines::add, now::get);

  @Test
  void aRefusalIsOneEscapedLinePerSenderAndIntervalThenACount() {
    for (int i = 0; i < 50; i++) {
      refusals.refused("ab12", "\u001b]0;t\u0007\r\nfake", "does not open\u001b[2J");
    }
    refusals.refused("", "M", "not a sealed message of this session's fabric");
    refusals.undecoded();
    now.addAndGet(RefusedMessages.INTERVAL.toNanos());
    refusals.flush();
    assertEquals(
        List.of(
            "sdm: refused a message from sender ab12 (manifest \"\\x1b]0;t\\x07\\x0d\\x0afake\"):"
                + " does not open\\x1b[2J",
            "sdm: refused a message from no sender named (manifest \"M\"): not a sealed message of"
                + " this session's fabric",
            "sdm: dropped a message from another JVM that did not decode (not one of sdm's sealed"
                + " messages: Pekko's own, forged or garbled)",
            "sender ab12: 49 more refused messages not shown (at most 1 line per source every 10"
                + " s)"),
        lines);
  }

  @Test
  void aLongManifestIsQuotedInPart() {
    refusals.refused("ab12", "x".repeat(100_000), "why");
    assertEquals(
        "sdm: refused a message from sender ab12 (manifest \""
            + "x".repeat(RefusedMessages.MANIFEST_CHARS)
            + "... (100000 chars)\"): why",
        lines.get(0));
  }
}
