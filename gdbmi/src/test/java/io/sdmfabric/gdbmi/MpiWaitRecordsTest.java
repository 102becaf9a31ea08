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
    assertEquals(MpiWaitRecords.NEXT, number(s, "offsetof\\(struct sdm_state, next\\) == (\\d+)"));
    assertEquals(
        MpiWaitRecords.RING, number(s, "offsetof\\(struct sdm_state, requests\\) == (\\d+)"));
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
    b.putInt(8, MpiWaitRecords.VERSION).putInt(12, 2).putInt(16, 4);
    int comms = MpiWaitRecords.RING + 24 * MpiWaitRecords.REQUESTS;
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
    b.putInt(32 + 4, 1).putInt(32 + 8, 9).putInt(32, call(5, 1)); // MPI_Recv from 1 on slot 1
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
    b.putInt(32 + 4, -2).putInt(32 + 8, -1).putLong(32 + 16, 3).putInt(32, call(25, 0));
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
    int ring = MpiWaitRecords.RING;
    w.put(MpiWaitRecords.NEXT, (byte) 2); // the latest in slot 1, the one before in slot 0
    w.putInt(ring + 24, call(13, 0))
        .putInt(ring + 24 + 4, -1)
        .putInt(ring + 24 + 8, 4)
        .putLong(ring + 24 + 16, 77);
    w.putInt(ring, call(9, 0))
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

  /** The first 32 bits of an operation: its call, and its communicator's slot above. */
  private static int call(int call, int slot) {
    return call | slot << 16;
  }

  /** Records of a rank in MPI_Waitall on the request with handle 77 alone. */
  private static ByteBuffer waitingOn77() {
    ByteBuffer w = records();
    w.putInt(24, 1).putLong(32 + 24, 77);
    w.putInt(32 + 4, -2).putInt(32, call(15, 0));
    return w;
  }

  /** Puts a start into slot {@code slot} of the ring. */
  private static void start(ByteBuffer b, int slot, int call, int commSlot, int peer, long handle) {
    int at = MpiWaitRecords.RING + 24 * slot;
    b.putInt(at, call(call, commSlot))
        .putInt(at + 4, peer)
        .putInt(at + 8, 5)
        .putLong(at + 16, handle);
  }

  @Test
  void theSlotBeingWrittenIsPassedOver() {
    ByteBuffer w = waitingOn77();
    w.put(MpiWaitRecords.NEXT, (byte) 7);
    start(w, 7, 9, 0, 3, 77); // being written: its parts may be another start's
    start(w, 6, 13, 0, 0, 77); // the latest start of 77
    assertEquals(
        List.of(new MpiWait.Peer(0, 5, "MPI_Irecv")), MpiWaitRecords.decode(w.array()).peers());
    ByteBuffer only = waitingOn77();
    only.put(MpiWaitRecords.NEXT, (byte) 7);
    start(only, 7, 9, 0, 3, 77);
    assertEquals(List.of(), MpiWaitRecords.decode(only.array()).peers());
  }

  @Test
  void theRingWrapsRoundAtItsByteAndKeepsTheLatest255Starts() {
    ByteBuffer w = waitingOn77();
    w.put(MpiWaitRecords.NEXT, (byte) 0); // the latest start in slot 255
    start(w, 255, 9, 0, 1, 77);
    start(w, 254, 13, 0, 2, 77);
    assertEquals(
        List.of(new MpiWait.Peer(1, 5, "MPI_Isend")), MpiWaitRecords.decode(w.array()).peers());
    ByteBuffer oldest = waitingOn77();
    oldest.put(MpiWaitRecords.NEXT, (byte) 1); // slot 2 is the oldest start kept, 255 back
    start(oldest, 2, 10, 0, 3, 77);
    assertEquals(
        List.of(new MpiWait.Peer(3, 5, "MPI_Issend")),
        MpiWaitRecords.decode(oldest.array()).peers());
  }

  @Test
  void aStartOnASubcommunicatorHasItsSlotBesideItsCall() {
    ByteBuffer w = waitingOn77();
    w.put(MpiWaitRecords.NEXT, (byte) 1);
    start(w, 0, 9, 1, 0, 77); // to rank 0 of slot 1: world rank 3
    MpiWait wait = MpiWaitRecords.decode(w.array());
    assertEquals(List.of(new MpiWait.Peer(3, 5, "MPI_Isend")), wait.peers());
    assertEquals(new MpiWait.Comm(22, 2, RankSet.of(1, 3), false), wait.comm());
  }

  @Test
  void noCallIsIdleAndOtherBytesAreUnknown() {
    assertEquals(MpiWait.IDLE, MpiWaitRecords.decode(records().array()));
    assertEquals(MpiWait.UNKNOWN, MpiWaitRecords.decode(new byte[MpiWaitRecords.SIZE]));
    assertEquals(MpiWait.UNKNOWN, MpiWaitRecords.decode(records().putInt(12, -1).array()));
    assertEquals(MpiWait.UNKNOWN, MpiWaitRecords.decode(records().putInt(8, 2).array()));
  }
}
