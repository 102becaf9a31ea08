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

  /** Path of the executable a job or process runs. */
  public static final AttributeDefinition<String> EXECUTABLE =
      new AttributeDefinition<>(
          "executable", String.class, "Executable", "Path of the program being debugged", "");

  /** Working directory a job's processes start in. */
  public static final AttributeDefinition<String> WORKING_DIRECTORY =
      new AttributeDefinition<>(
          "workingDirectory",
          String.class,
          "Working directory",
          "Directory the processes start in",
          "");

  /** Host name of a compute node or of the node a process runs on. */
  public static final AttributeDefinition<String> HOST =
      new AttributeDefinition<>("host", String.class, "Host", "Host name", "");
}
