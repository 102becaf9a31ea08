package io.sdmfabric.wire;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.EventBody;
import java.util.Objects;

/** Ranks that replied, or reported, the same body. */
public record RankReply(RankSet ranks, EventBody body) {
  public RankReply {
    Objects.requireNonNull(ranks, "ranks");
    Objects.requireNonNull(body, "body");
  }
}
