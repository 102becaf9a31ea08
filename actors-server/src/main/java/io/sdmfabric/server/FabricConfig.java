package io.sdmfabric.server;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToIntFunction;

/**
 * Settings shared by the server actors of one JVM.
 *
 * @param eventWindow how long unsolicited events (stops, exits, output) wait for others to merge
 *     with, counted from when the first of them was reported, not per tree level
 * @param hasher the hash of reply bodies used to bucket them before byte comparison; only tests
 *     change it (to force collisions)
 * @param messagesSent counts the messages server actors send to each other, for benchmarks
 */
public record FabricConfig(
    Duration eventWindow, ToIntFunction<byte[]> hasher, LongAdder messagesSent) {

  public FabricConfig {
    Objects.requireNonNull(eventWindow, "eventWindow");
    Objects.requireNonNull(hasher, "hasher");
    Objects.requireNonNull(messagesSent, "messagesSent");
    if (eventWindow.isNegative()) {
      throw new IllegalArgumentException("eventWindow must not be negative: " + eventWindow);
    }
  }

  /** A 100 ms event window and the standard hash. */
  public static FabricConfig defaults() {
    return new FabricConfig(Duration.ofMillis(100), Arrays::hashCode, new LongAdder());
  }

  /** These settings with another event window. */
  public FabricConfig withEventWindow(Duration window) {
    return new FabricConfig(window, hasher, messagesSent);
  }

  /** These settings with another body hash. */
  public FabricConfig withHasher(ToIntFunction<byte[]> h) {
    return new FabricConfig(eventWindow, h, messagesSent);
  }
}
