package io.sdmfabric.server;

import io.sdmfabric.wire.proto.CommandBody;
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
 * @param stopQuiet how long the master holds the stops of the ranks a run, continue or step
 *     resumed, once none has stopped for that long, before it tells what it has: ranks that stop
 *     alike within it are told as one (zero tells each batch as it comes)
 * @param valueClasses how many classes of value replies (distinct values of a {@code print}) each
 *     node passes up one by one for a command that does not ask for another number ({@code
 *     CommandBody.value_classes}); the node folds the others into one summary ({@link
 *     ValueClasses}). {@value #DEFAULT_VALUE_CLASSES} by default
 */
public record FabricConfig(
    Duration eventWindow,
    ToIntFunction<byte[]> hasher,
    LongAdder messagesSent,
    Duration stopQuiet,
    int valueClasses) {

  /**
   * The default of {@link #valueClasses}: about a screen of lines, enough to see what the values
   * look like (at 128 ranks a node of the tree, half of a node's ranks), and the lowest ranks'
   * values as a power of two ({@code [0-63]}). Beyond it a list of values is no longer read, only
   * searched: the summary's range, a rank subset or a raised cap serve that better.
   */
  public static final int DEFAULT_VALUE_CLASSES = 64;

  public FabricConfig {
    Objects.requireNonNull(eventWindow, "eventWindow");
    Objects.requireNonNull(stopQuiet, "stopQuiet");
    Objects.requireNonNull(hasher, "hasher");
    Objects.requireNonNull(messagesSent, "messagesSent");
    if (eventWindow.isNegative()) {
      throw new IllegalArgumentException("eventWindow must not be negative: " + eventWindow);
    }
    if (valueClasses < 1) {
      throw new IllegalArgumentException("valueClasses must be at least 1: " + valueClasses);
    }
  }

  /**
   * A 100 ms event window, the sampled hash, stops held for a quiet second, and {@value
   * #DEFAULT_VALUE_CLASSES} value classes passed up by each node.
   */
  public static FabricConfig defaults() {
    return new FabricConfig(
        Duration.ofMillis(100),
        FabricConfig::sampledHash,
        new LongAdder(),
        Duration.ofSeconds(1),
        DEFAULT_VALUE_CLASSES);
  }

  /**
   * A hash of a body that reads at most 64 of its bytes: its length, both ends and bytes spread
   * over the middle. Bodies are compared byte by byte after the hash anyway, so a weaker hash only
   * costs a comparison now and then; hashing a 30-frame stack (1.5 KB) in full at every level of
   * the tree cost more than the comparison.
   */
  public static int sampledHash(byte[] body) {
    int n = body.length;
    if (n <= 64) {
      return Arrays.hashCode(body);
    }
    int h = n;
    for (int i = 0; i < 16; i++) {
      h = 31 * h + body[i];
      h = 31 * h + body[n - 1 - i];
    }
    int step = (n - 32) / 32;
    for (int i = 16; i < n - 16; i += step) {
      h = 31 * h + body[i];
    }
    return h;
  }

  /** These settings with another event window. */
  public FabricConfig withEventWindow(Duration window) {
    return new FabricConfig(window, hasher, messagesSent, stopQuiet, valueClasses);
  }

  /** These settings with another body hash. */
  public FabricConfig withHasher(ToIntFunction<byte[]> h) {
    return new FabricConfig(eventWindow, h, messagesSent, stopQuiet, valueClasses);
  }

  /** These settings with another quiet period for the stops of resumed ranks. */
  public FabricConfig withStopQuiet(Duration quiet) {
    return new FabricConfig(eventWindow, hasher, messagesSent, quiet, valueClasses);
  }

  /** These settings with another number of value classes each node passes up. */
  public FabricConfig withValueClasses(int classes) {
    return new FabricConfig(eventWindow, hasher, messagesSent, stopQuiet, classes);
  }

  /**
   * The value classes a node passes up for {@code command}: those it asks for, or {@link
   * #valueClasses} when it asks for none (0).
   */
  public int valueClassesFor(CommandBody command) {
    return command.getValueClasses() > 0 ? command.getValueClasses() : valueClasses;
  }
}
