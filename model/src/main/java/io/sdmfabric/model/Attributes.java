package io.sdmfabric.model;

/**
 * The standard attribute definitions of the runtime model, shared by the backends that set them and
 * the front-ends that show them. Numeric attributes whose real values are never negative use {@code
 * -1} as the default meaning "not known"; {@link ModelElement#hasAttribute} tells set from unset
 * exactly.
 */
public final class Attributes {

  private Attributes() {}

  /** Operating-system process id of a rank. */
  public static final AttributeDefinition<Integer> PID =
      new AttributeDefinition<>("pid", Integer.class, "PID", "Operating-system process id", -1);

  /** How many threads a process had when they were last counted. */
  public static final AttributeDefinition<Integer> THREADS =
      new AttributeDefinition<>("threads", Integer.class, "Threads", "Number of threads", 0);

  /**
   * The process id of what serves a compute node's ranks: an agent JVM, or the master's own JVM
   * when it serves them itself.
   */
  public static final AttributeDefinition<Integer> SERVER_PID =
      new AttributeDefinition<>(
          "serverPid", Integer.class, "Server PID", "Process id of the node's server", -1);
}
