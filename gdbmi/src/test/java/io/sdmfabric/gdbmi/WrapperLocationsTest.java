package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Breakpoint locations inside sdm's MPI library are disabled, others left alone; the records are
 * gdb 13's, from a breakpoint on MPI_Barrier in a program with the library preloaded.
 */
class WrapperLocationsTest {
  private final List<String> sent = new ArrayList<>();
  private final WrapperLocations wrappers = new WrapperLocations(c -> sent.add(c.text()));

  private void record(String line) throws MiParseException {
    MiRecord r = MiParser.parse(line.getBytes(StandardCharsets.UTF_8));
    if (r instanceof MiAsyncRecord a) {
      wrappers.onAsync(a);
    } else {
      wrappers.onResult((MiResultRecord) r);
    }
  }

  private static final String MODIFIED =
      "=breakpoint-modified,bkpt={number=\"1\",type=\"breakpoint\",disp=\"keep\",enabled=\"y\","
          + "addr=\"<MULTIPLE>\",times=\"0\",original-location=\"MPI_Barrier\",locations=["
          + "{number=\"1.1\",enabled=\"y\",addr=\"0x00007ffff7ed74c0\",at=\"<PMPI_Barrier>\","
          + "thread-groups=[\"i1\"]},"
          + "{number=\"1.2\",enabled=\"y\",addr=\"0x00007ffff7fba6a0\",at=\"<MPI_Barrier>\","
          + "thread-groups=[\"i1\"]}]}";

  @Test
  void aLocationInTheLibraryIsDisabledOnceTheLibraryIsKnown() throws Exception {
    record(MODIFIED);
    assertEquals(List.of(), sent); // the library is not loaded yet: nothing is its
    record(
        "=library-loaded,id=\"/root/.sdm/mpiwait/0123/libsdm_mpiwait.so\",target-name=\"x\","
            + "host-name=\"x\",symbols-loaded=\"0\",thread-group=\"i1\","
            + "ranges=[{from=\"0x00007ffff7fb9000\",to=\"0x00007ffff7fbc000\"}]");
    record(MODIFIED);
    assertEquals(List.of("-break-disable 1.2"), sent);
    record(MODIFIED.replace("number=\"1.2\",enabled=\"y\"", "number=\"1.2\",enabled=\"n\""));
    assertEquals(List.of("-break-disable 1.2"), sent);
  }

  @Test
  void theReplyToABreakInsertIsLookedAtToo() throws Exception {
    record(
        "=library-loaded,id=\"/h/.sdm/mpiwait/k/libsdm_mpiwait.so\",target-name=\"x\","
            + "host-name=\"x\",symbols-loaded=\"0\",thread-group=\"i1\","
            + "ranges=[{from=\"0x00007ffff7fb9000\",to=\"0x00007ffff7fbc000\"}]");
    record("5^done," + MODIFIED.substring(MODIFIED.indexOf("bkpt=")));
    assertEquals(List.of("-break-disable 1.2"), sent);
  }
}
