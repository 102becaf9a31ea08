package io.sdmfabric.server;

import io.sdmfabric.wire.CanonicalBytes;
import io.sdmfabric.wire.proto.EventBody;
import java.util.Objects;

/**
 * A reply and, once asked for, its deterministic bytes: the form in which replies are merged. Ranks
 * that share one instance (see {@link ReplyCache}) serialize it once between them.
 */
public final class ReplyBody {
  private final EventBody body;
  private byte[] bytes; // racy single check: every thread computes the same bytes

  private ReplyBody(EventBody body) {
    this.body = Objects.requireNonNull(body, "body");
  }

  /** A reply of its own. */
  public static ReplyBody of(EventBody body) {
    return new ReplyBody(body);
  }

  /** The reply. */
  public EventBody body() {
    return body;
  }

  /** The reply's deterministic serialization; the caller must not change it. */
  public byte[] bytes() {
    byte[] b = bytes;
    if (b == null) {
      b = CanonicalBytes.of(body);
      bytes = b;
    }
    return b;
  }
}
