package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.RankSet;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The reader of the wait records agrees with the library that writes them (the C source in the
 * runtime module): the calls' numbers, the sizes, and bytes laid out as the structure is.
 */
class MpiWaitRecordsTest {
  private static final Path SOURCE =
      Path.of("..", "runtime", "src", "main", "resources", "io", "sdmfabric", "runtime", "launch")
          .resolve("sdm_mpiwait.c");

  private static String source() throws Exception {
    return Files.readString(SOURCE);
  }

  @Test
  void theCallsAreNumberedAsTheLibraryNumbersThem() throws Exception {
    String s = source();
    String body =
        s.substring(
            s.indexOf("enum sdm_call {") + 15, s.indexOf("};", s.indexOf("enum sdm_call {")));
    List<String> names = new ArrayList<>();
    for (String word : body.split("[,\\s]+")) {
      if (word.startsWith("SDM_")) {
        String rest = word.substring(4).toLowerCase(Locale.ROOT);
        names.add(
            word.equals("SDM_NONE")
                ? ""
                : "MPI_" + Character.toUpperCase(rest.charAt(0)) + rest.substring(1));
      }
    }
    assertEquals(MpiWaitRecords.CALLS, names);
  }

  @Test
  void theSizesAreTheLibrarys() throws Exception {
    String s = source();
    assertEquals(MpiWaitRecords.SIZE, number(s, "sizeof\\(struct sdm_state\\) == (\\d+)"));
    assertEquals(MpiWaitRecords.REQUESTS, number(s, "#define SDM_REQUESTS (\\d+)"));
    assertEquals(MpiWaitRecords.WAITING, number(s, "#define SDM_WAITING (\\d+)"));
    assertEquals(MpiWaitRecords.COMMS, number(s, "#define SDM_COMMS (\\d+)"));
    assertEquals(MpiWaitRecords.RUNS, number(s, "#define SDM_RUNS (\\d+)"));
    assertEquals(MpiWaitRecords.VERSION, number(s, "\\.version = (\\d+)"));
  }

  private static int number(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (!m.find()) {
      throw new AssertionError("no " + regex + " in " + SOURCE);
    }
    return Integer.parseInt(m.group(1));
  }

  /** Records of world rank 2 of 4, its members as the library lays them out. */
  private static ByteBuffer records() {
    ByteBuffer b = ByteBuffer.allocate(MpiWaitRecords.SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.put("SDMWAIT\0".getBytes(StandardCharsets.US_ASCII));
    b.putInt(8, 2).putInt(12, 2).putInt(16, 4);
    int comms = 32 + 24 + 8 * 64 + 8 + 24 * 128;
    b.putInt(comms, 4).putInt(comms + 4, 1).putLong(comms + 280, 11); // world: 0-3
    b.putInt(comms + 24, 0).putInt(comms + 28, 3);
    int odd = comms + 288; // slot 1: world ranks 3 and 1, in that order
    b.putInt(odd, 2).putInt(odd + 4, 2).putLong(odd + 280, 22);
    b.putInt(odd + 24, 3).putInt(odd + 28, 3).putInt(odd + 32, 1).putInt(odd + 36, 1);
    return b;
  }

  @Test
  void aBlockingReceiveOnASubcommunicatorNamesItsPeerAsAWorldRank() {
    ByteBuffer b = records();
    b.putInt(32 + 4, 1).putInt(32 + 8, 9).putInt(32 + 12, 1).putInt(32, 5); // MPI_Recv from 1
    MpiWait w = MpiWaitRecords.decode(b.array());
    assertEquals(
        new MpiWait(
            MpiWait.State.WAITING,
            "MPI_Recv",
            false,
            false,
            List.of(new MpiWait.Peer(1, 9, "MPI_Recv")),
            new MpiWait.Comm(22, 2, RankSet.of(1, 3), false),
            0),
        w);
  }

  @Test
  void aCollectiveHasItsNumberAndAWaitallItsRequests() {
    ByteBuffer b = records();
    b.putInt(32 + 4, -2).putInt(32 + 8, -1).putInt(32 + 12, 0).putLong(32 + 16, 3).putInt(32, 25);
    assertEquals(
        new MpiWait(
            MpiWait.State.WAITING,
            "MPI_Allreduce",
            false,
            false,
            List.of(),
            new MpiWait.Comm(11, 4, RankSet.all(4), true),
            3),
        MpiWaitRecords.decode(b.array()));
    ByteBuffer w = records();
    int ring = 32 + 24 + 8 * 64 + 8;
    w.putLong(ring - 8, 130); // 130 started: the latest in slot 1, the one before in slot 0
    w.putInt(ring + 24, 13)
        .putInt(ring + 24 + 4, -1)
        .putInt(ring + 24 + 8, 4)
        .putLong(ring + 24 + 16, 77);
    w.putInt(ring, 9)
        .putInt(ring + 4, 2)
        .putInt(ring + 8, 4)
        .putLong(ring + 16, 77); // older, same handle
    w.putInt(24, 2)
        .putLong(32 + 24, 77)
        .putLong(32 + 32, 99); // waits on 77, and 99: not in the ring
    w.putInt(32 + 4, -2).putInt(32, 15); // MPI_Waitall
    MpiWait waitall = MpiWaitRecords.decode(w.array());
    assertEquals("MPI_Waitall", waitall.call());
    assertEquals(List.of(new MpiWait.Peer(MpiWait.Peer.ANY, 4, "MPI_Irecv")), waitall.peers());
  }

  @Test
  void noCallIsIdleAndOtherBytesAreUnknown() {
    assertEquals(MpiWait.IDLE, MpiWaitRecords.decode(records().array()));
    assertEquals(MpiWait.UNKNOWN, MpiWaitRecords.decode(new byte[MpiWaitRecords.SIZE]));
    assertEquals(MpiWait.UNKNOWN, MpiWaitRecords.decode(records().putInt(12, -1).array()));
  }
}
