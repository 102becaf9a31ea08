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

  /** Exit status of a process in {@link ProcessState#EXITED}, 0 to 255. */
  public static final AttributeDefinition<Integer> EXIT_CODE =
      new AttributeDefinition<>(
          "exitCode", Integer.class, "Exit code", "Exit status of a process that exited", -1);

  /** Name of the signal that ended a process in {@link ProcessState#EXITED_SIGNALLED}. */
  public static final AttributeDefinition<String> SIGNAL_NAME =
      new AttributeDefinition<>(
          "signalName",
          String.class,
          "Signal",
          "Name of the signal that terminated the process, e.g. SIGSEGV",
          "");

  /** Where a suspended process stopped, as {@code file:line} or a function name. */
  public static final AttributeDefinition<String> LOCATION =
      new AttributeDefinition<>(
          "location", String.class, "Location", "Where the process is stopped", "");

  /** Host name of a compute node or of the node a process runs on. */
  public static final AttributeDefinition<String> HOST =
      new AttributeDefinition<>("host", String.class, "Host", "Host name", "");
}
