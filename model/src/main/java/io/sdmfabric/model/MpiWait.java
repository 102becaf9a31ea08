package io.sdmfabric.model;

import java.util.List;
import java.util.Objects;

/**
 * What one stopped rank waits for in MPI, as sdm's interposition library records it in the rank
 * (the MPI call it is blocked in, or the requests that call waits on), its peers as ranks of {@code
 * MPI_COMM_WORLD}.
 *
 * @param state whether the rank keeps records, and whether it waits
 * @param call the MPI call it is blocked in ({@code MPI_Send}); empty unless {@link State#WAITING}
 * @param polling the call is an {@code MPI_Test*} that found its requests not done: the rank polls
 *     for them rather than being blocked in MPI
 * @param any it waits for any one of {@code peers}, not for all ({@code MPI_Waitany}, {@code
 *     MPI_Waitsome}, {@code MPI_Testany}, {@code MPI_Testsome})
 * @param peers the point-to-point operations it waits on; empty for a collective
 * @param comm the communicator of the call, or of its first request
 * @param sequence a collective's number among the collectives on {@code comm}, from 1; 0 otherwise
 */
public record MpiWait(
    State state,
    String call,
    boolean polling,
    boolean any,
    List<Peer> peers,
    Comm comm,
    long sequence) {
  /** A rank without records: sdm's library is not in it, or not yet started. */
  public static final MpiWait UNKNOWN =
      new MpiWait(State.UNKNOWN, "", false, false, List.of(), Comm.NONE, 0);

  /** A rank in no MPI call that waits. */
  public static final MpiWait IDLE =
      new MpiWait(State.IDLE, "", false, false, List.of(), Comm.NONE, 0);

  public MpiWait {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(call, "call");
    peers = List.copyOf(peers);
    Objects.requireNonNull(comm, "comm");
  }

  /** Whether a rank keeps records, and whether it waits. */
  public enum State {
    /** No records: sdm's library is not in the rank, or MPI has not started. */
    UNKNOWN,
    /** In no MPI call that waits. */
    IDLE,
    /** Blocked in an MPI call, or polling for requests. */
    WAITING
  }

  /** Whether the call is a collective: it waits for the members of {@code comm}. */
  public boolean collective() {
    return state == State.WAITING && sequence > 0;
  }

  /**
   * A point-to-point operation waited on.
   *
   * @param rank the peer as a rank of {@code MPI_COMM_WORLD}; {@link #ANY} for any member of the
   *     communicator ({@code MPI_ANY_SOURCE}); {@link #UNKNOWN_RANK} when its communicator's
   *     members are not known
   * @param tag the tag; -1 for any ({@code MPI_ANY_TAG})
   * @param call the operation: the blocking call, or the call that started the request ({@code
   *     MPI_Irecv})
   */
  public record Peer(int rank, int tag, String call) {
    public static final int ANY = -1;
    public static final int UNKNOWN_RANK = -2;

    public Peer {
      Objects.requireNonNull(call, "call");
    }

    /** Whether this receives: its peer is a source. */
    public boolean receives() {
      // MPI_Recv, MPI_Irecv, MPI_Sendrecv (its peer here is the source), MPI_Probe.
      return call.toLowerCase(java.util.Locale.ROOT).contains("recv") || call.equals("MPI_Probe");
    }
  }

  /**
   * A communicator, the same on every rank.
   *
   * @param key a hash of its members, equal on the ranks of the same communicator
   * @param size its number of ranks
   * @param members its ranks as ranks of {@code MPI_COMM_WORLD}; empty when not known
   * @param world whether it is {@code MPI_COMM_WORLD}
   */
  public record Comm(long key, int size, RankSet members, boolean world) {
    public static final Comm NONE = new Comm(0, 0, RankSet.empty(), false);

    public Comm {
      Objects.requireNonNull(members, "members");
    }

    /** {@code MPI_COMM_WORLD}, or a communicator of N ranks with its members. */
    public String describe() {
      return world
          ? "MPI_COMM_WORLD"
          : "a communicator of "
              + size
              + " ranks"
              + (members.isEmpty() ? "" : " [" + members + "]");
    }
  }
}
