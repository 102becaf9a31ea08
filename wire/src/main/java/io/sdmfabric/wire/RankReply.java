package io.sdmfabric.wire;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.EventBody;
import java.util.Objects;

/**
 * Ranks that replied, or reported, the same body: the body as it travelled ({@link #body()}, whose
 * bytes are the merge key), and decoded ({@link #reply()}), which is what front-ends read. Two are
 * equal when their ranks and bodies are.
 *
 * <p>Not a record because it keeps the decoded reply, decoded once when first asked for: an event
 * reaches a renderer and the process table, and a reply nobody reads (a gateway forwarding it) is
 * never decoded.
 */
public final class RankReply {
  private final RankSet ranks;
  private final EventBody body;
  // Decoding is pure, so two threads that race here decode equal replies; volatile publishes it.
  private volatile Reply reply;

  /** The reply {@code body} of {@code ranks}. */
  public RankReply(RankSet ranks, EventBody body) {
    this.ranks = Objects.requireNonNull(ranks, "ranks");
    this.body = Objects.requireNonNull(body, "body");
  }

  /** The ranks that replied. */
  public RankSet ranks() {
    return ranks;
  }

  /** Their body, as it crossed the wire. */
  public EventBody body() {
    return body;
  }

  /**
   * Their body decoded ({@link Reply#decode}): never throws, a body no model value can hold is a
   * {@link Reply.Malformed}.
   */
  public Reply reply() {
    Reply r = reply;
    if (r == null) {
      r = Reply.decode(body);
      reply = r;
    }
    return r;
  }

  /**
   * The name of their body's kind as {@code debug.proto} spells it ({@link Reply#kindName}), for a
   * front-end that names a reply it does not show otherwise.
   */
  public String kind() {
    return Reply.kindName(body);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RankReply other && ranks.equals(other.ranks) && body.equals(other.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ranks, body);
  }

  @Override
  public String toString() {
    return "RankReply[ranks=" + ranks + ", body=" + body + "]";
  }
}
