package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A server's routing entry for one child: its actor, the range of tree nodes {@code [node, end)}
 * its subtree covers (see {@link BinomialTree}), and the ranks those nodes serve.
 */
public record ChildLink(ActorRef<ServerNode.Command> ref, int node, int end, RankSet ranks) {
  public ChildLink {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(ranks, "ranks");
    if (node < 1 || end <= node) {
      throw new IllegalArgumentException("bad child range [" + node + ", " + end + ")");
    }
  }
}
