package io.sdmfabric.server;

import io.sdmfabric.model.RankSet;
import java.util.Arrays;
import java.util.Objects;

/**
 * Ranks that gave the same reply, and the reply: an {@code EventBody} in its deterministic
 * serialization. Two groups are equal when their ranks are equal and their bodies are the same
 * bytes.
 */
public record ReplyGroup(RankSet ranks, byte[] body) {
  public ReplyGroup {
    Objects.requireNonNull(ranks, "ranks");
    Objects.requireNonNull(body, "body");
  }

  /** The body's bytes; the caller must not change them (no copy is made: groups are hot). */
  @Override
  public byte[] body() {
    return body;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReplyGroup g && ranks.equals(g.ranks) && Arrays.equals(body, g.body);
  }

  @Override
  public int hashCode() {
    return 31 * ranks.hashCode() + Arrays.hashCode(body);
  }

  @Override
  public String toString() {
    return "ReplyGroup[" + ranks + ", " + body.length + " bytes]";
  }
}
