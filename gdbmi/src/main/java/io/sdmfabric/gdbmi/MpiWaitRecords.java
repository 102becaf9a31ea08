package io.sdmfabric.gdbmi;

import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.RankSet;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the wait records of sdm's MPI interposition library ({@code sdm_mpiwait.c} of the runtime):
 * the bytes of its {@code sdm_wait_state} as gdb reads them from a stopped rank. The layout is the
 * C structure's, in the byte order of the machine (x86-64 and aarch64 alike: little-endian); the
 * two change together, with the version.
 *
 * <p>Version 3: an operation's call and communicator slot share its first 32 bits (16 each), and
 * the ring of requests started has 256 slots numbered by a byte, {@code next}, the slot being
 * written. The reader passes over that slot, whatever it holds, so that the library writes a
 * start's parts in any order and with nothing emptied first; the others, from {@code next - 1}
 * back, are the 255 latest starts (a slot never written has call 0).
 */
final class MpiWaitRecords {
  /** The symbol the library keeps its records in. */
  static final String SYMBOL = "sdm_wait_state";

  static final int VERSION = 3;
  static final int REQUESTS = 256;
  static final int WAITING = 64;
  static final int COMMS = 16;
  static final int RUNS = 32;

  private static final int OP = 24;
  private static final int COMM = 288;
  private static final int BLOCKING = 32;
  private static final int WAITING_AT = BLOCKING + OP;

  /** Where the number of the ring's slot being written is: one byte. */
  static final int NEXT = WAITING_AT + 8 * WAITING;

  /** Where the ring of requests started is. */
  static final int RING = NEXT + 8;

  private static final int COMMS_AT = RING + OP * REQUESTS;

  /** The size of the records. */
  static final int SIZE = COMMS_AT + COMM * COMMS;

  /** The calls by the library's numbers ({@code enum sdm_call}); 0 is none. */
  static final List<String> CALLS =
      List.of(
          "",
          "MPI_Send",
          "MPI_Ssend",
          "MPI_Bsend",
          "MPI_Rsend",
          "MPI_Recv",
          "MPI_Sendrecv",
          "MPI_Sendrecv_replace",
          "MPI_Probe",
          "MPI_Isend",
          "MPI_Issend",
          "MPI_Ibsend",
          "MPI_Irsend",
          "MPI_Irecv",
          "MPI_Wait",
          "MPI_Waitall",
          "MPI_Waitany",
          "MPI_Waitsome",
          "MPI_Test",
          "MPI_Testall",
          "MPI_Testany",
          "MPI_Testsome",
          "MPI_Barrier",
          "MPI_Bcast",
          "MPI_Reduce",
          "MPI_Allreduce",
          "MPI_Gather",
          "MPI_Gatherv",
          "MPI_Scatter",
          "MPI_Scatterv",
          "MPI_Allgather",
          "MPI_Allgatherv",
          "MPI_Alltoall",
          "MPI_Alltoallv",
          "MPI_Reduce_scatter",
          "MPI_Reduce_scatter_block",
          "MPI_Scan",
          "MPI_Exscan",
          "MPI_Finalize");

  private MpiWaitRecords() {}

  /** The rank's wait as {@code bytes} record it; {@link MpiWait#UNKNOWN} for other bytes. */
  static MpiWait decode(byte[] bytes) {
    if (bytes.length < SIZE
        || !new String(bytes, 0, 8, StandardCharsets.US_ASCII).equals("SDMWAIT\0")) {
      return MpiWait.UNKNOWN;
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (b.getInt(8) != VERSION || b.getInt(12) < 0) {
      return MpiWait.UNKNOWN; // another version, or MPI not started
    }
    boolean polling = b.getInt(20) != 0;
    int waits = Math.min(Math.max(b.getInt(24), 0), WAITING);
    boolean any = b.getInt(28) != 0;
    int call = call(b, BLOCKING);
    if (call <= 0 || call >= CALLS.size()) {
      return MpiWait.IDLE;
    }
    String name = CALLS.get(call);
    long sequence = b.getLong(BLOCKING + 16);
    if (sequence > 0 && b.getInt(BLOCKING + 4) == -2) {
      return new MpiWait(
          MpiWait.State.WAITING,
          name,
          false,
          false,
          List.of(),
          comm(b, slot(b, BLOCKING)),
          sequence);
    }
    List<MpiWait.Peer> peers = new ArrayList<>();
    MpiWait.Comm comm;
    if (b.getInt(BLOCKING + 4) == -2) {
      // A wait or test: the requests it waits on, each as its latest start in the ring.
      comm = MpiWait.Comm.NONE;
      for (int i = 0; i < waits; i++) {
        int at = started(b, b.getLong(WAITING_AT + 8 * i));
        if (at < 0) {
          continue; // started too long before (not in the ring any more), or a null request
        }
        MpiWait.Comm c = comm(b, slot(b, at));
        comm = peers.isEmpty() ? c : comm;
        peers.add(peer(b, at, CALLS.get(call(b, at))));
      }
    } else {
      comm = comm(b, slot(b, BLOCKING));
      peers.add(peer(b, BLOCKING, name));
    }
    return new MpiWait(MpiWait.State.WAITING, name, polling, any, peers, comm, 0);
  }

  /**
   * Where the ring has the latest start of the request with {@code handle}; -1 if nowhere. The slot
   * at {@code next} is being written, or is the oldest, about to be: it is passed over.
   */
  private static int started(ByteBuffer b, long handle) {
    int next = Byte.toUnsignedInt(b.get(NEXT));
    for (int back = 1; back < REQUESTS; back++) {
      int at = RING + OP * ((next - back + REQUESTS) % REQUESTS);
      int call = call(b, at);
      if (b.getLong(at + 16) == handle && call > 0 && call < CALLS.size()) {
        return at;
      }
    }
    return -1;
  }

  /** The call of the operation at {@code at}: the low 16 bits of its first 32. */
  private static int call(ByteBuffer b, int at) {
    return Short.toUnsignedInt(b.getShort(at));
  }

  /** The communicator slot of the operation at {@code at}: the high 16 bits of its first 32. */
  private static int slot(ByteBuffer b, int at) {
    return Short.toUnsignedInt(b.getShort(at + 2));
  }

  /** The operation at {@code at}, its peer translated to a rank of MPI_COMM_WORLD. */
  private static MpiWait.Peer peer(ByteBuffer b, int at, String call) {
    int peer = b.getInt(at + 4);
    int tag = b.getInt(at + 8);
    int slot = slot(b, at);
    int world;
    if (peer == -1) {
      world = MpiWait.Peer.ANY;
    } else if (slot == 0) {
      world = peer;
    } else {
      world = worldRank(b, slot, peer);
    }
    return new MpiWait.Peer(world, tag, call);
  }

  /** Rank {@code rank} of the communicator in slot {@code slot} as a rank of MPI_COMM_WORLD. */
  private static int worldRank(ByteBuffer b, int slot, int rank) {
    if (slot < 0 || slot >= COMMS) {
      return MpiWait.Peer.UNKNOWN_RANK;
    }
    int at = COMMS_AT + COMM * slot;
    int runs = b.getInt(at + 4);
    int left = rank;
    for (int r = 0; r < runs && r < RUNS; r++) {
      int first = b.getInt(at + 24 + 8 * r);
      int last = b.getInt(at + 28 + 8 * r);
      if (left <= last - first) {
        return first + left;
      }
      left -= last - first + 1;
    }
    return MpiWait.Peer.UNKNOWN_RANK;
  }

  private static MpiWait.Comm comm(ByteBuffer b, int slot) {
    if (slot < 0 || slot >= COMMS) {
      return MpiWait.Comm.NONE;
    }
    int at = COMMS_AT + COMM * slot;
    int size = b.getInt(at);
    int runs = b.getInt(at + 4);
    RankSet.Builder members = RankSet.builder();
    for (int r = 0; r < runs && r < RUNS; r++) {
      members.addRange(b.getInt(at + 24 + 8 * r), b.getInt(at + 28 + 8 * r) + 1);
    }
    return new MpiWait.Comm(
        b.getLong(at + 280), size, runs < 0 ? RankSet.empty() : members.build(), slot == 0);
  }
}
