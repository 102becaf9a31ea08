package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * A server's routing entry for one child: its actor and the range of tree nodes {@code [node, end)}
 * its subtree covers (see {@link BinomialTree}), which serve ranks {@code [node - 1, end - 1)}.
 */
public record ChildLink(ActorRef<ServerNode.Command> ref, int node, int end) {
  public ChildLink {
    Objects.requireNonNull(ref, "ref");
    if (node < 1 || end <= node) {
      throw new IllegalArgumentException("bad child range [" + node + ", " + end + ")");
    }
  }

  /** The ranks of the child's subtree. */
  public RankSet ranks() {
    return RankSet.range(node - 1, end - 1);
  }
}
