package io.sdmfabric.wire;

import java.io.IOException;

/**
 * Bytes on a front-end protocol connection that are not a frame: a length over the limit, bytes
 * that do not parse as a {@code Frame}, a frame with nothing in it, or a connection that ended in
 * the middle of one. The message says which, for the other side's {@code Refused}.
 */
public final class FrameException extends IOException {
  private static final long serialVersionUID = 1L;

  public FrameException(String message) {
    super(message);
  }

  public FrameException(String message, Throwable cause) {
    super(message, cause);
  }
}
