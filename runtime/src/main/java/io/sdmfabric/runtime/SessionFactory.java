package io.sdmfabric.runtime;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.runtime.launch.JobLauncher;
import io.sdmfabric.runtime.launch.LauncherFamily;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Picks and starts the session that serves a {@link LaunchRequest}: in this JVM, a gdb for every
 * {@code ranksPerGdb} ranks ({@link EmbeddedSession}, without a launcher); through a launcher with
 * an agent per node ({@link LaunchedSession}, or {@link PmixSession} for a launcher that serves
 * PMIx tools); or in a running PRRTE DVM ({@link PmixSession#direct}). And the sessions over a
 * running job's processes, attached to through a remote shell or through PMIx.
 */
public final class SessionFactory {
  private SessionFactory() {}

  /**
   * Starts the ranks of {@code request} and the session over them; what the chosen transport or key
   * passing leaves exposed is said on {@code err}.
   *
   * @throws IOException when they cannot be started; the message says why
   * @throws IllegalArgumentException when the request mixes what does not go together, or a setting
   *     is wrong; the message says why, naming the option
   */
  public static MasterSession open(LaunchRequest request, PrintStream err) throws IOException {
    return open(request, err, p -> {});
  }

  /**
   * {@link #open(LaunchRequest, PrintStream)}, telling {@code progress} how far the start has come
   * as it goes (from other threads too: it must be thread-safe): how many ranks have a debugger, or
   * have registered with the master.
   */
  public static MasterSession open(
      LaunchRequest request, PrintStream err, Consumer<StartProgress> progress) throws IOException {
    return StartListener.during(progress, () -> start(request, err));
  }

  private static MasterSession start(LaunchRequest request, PrintStream err) throws IOException {
    DistributedSettings distributed = request.distributed();
    if (request.dvm().isPresent()) {
      if (request.launcher().isPresent()
          || request.launcherFamily().isPresent()
          || !request.launcherOptions().isEmpty()) {
        throw new IllegalArgumentException(
            "--dvm starts the job in the DVM: no --launcher, --launcher-family or launcher options");
      }
      return PmixSession.direct(
          request.dvm().getAsLong(),
          request.size(),
          request.program(),
          request.args(),
          request.fromExec(),
          new PmixSession.Wiring(
              distributed.transport(err),
              distributed.addressOrNull(),
              distributed.wireUp(),
              request.ranksPerGdb(),
              request.config(),
              distributed.keys(err)),
          err);
    }
    if (request.launcher().isEmpty()) {
      if (request.launcherFamily().isPresent()) {
        throw new IllegalArgumentException("--launcher-family needs --launcher");
      }
      if (!request.launcherOptions().isEmpty()) {
        throw new IllegalArgumentException(
            "unknown options "
                + String.join(" ", request.launcherOptions())
                + " (launcher options need --launcher)");
      }
      return EmbeddedSession.start(request.size(), request.ranksPerGdb(), request.config());
    }
    // The wire-up time is checked before the launcher is asked what it is.
    Duration wireUp = distributed.wireUp();
    JobLauncher job =
        JobLauncher.of(
            request.launcher().get(), request.launcherFamily().map(LauncherFamily::named));
    LaunchedSession.Spec spec =
        new LaunchedSession.Spec(
            job,
            request.launcherOptions(),
            request.size(),
            request.program(),
            request.args(),
            distributed.transport(err),
            distributed.addressOrNull(),
            wireUp,
            request.ranksPerGdb(),
            request.fromExec(),
            request.config(),
            distributed.keys(err));
    return job.servesPmixTools() ? PmixSession.launch(spec, err) : LaunchedSession.start(spec, err);
  }

  /**
   * A session over the running processes of a job, and the ranks it attached to (stopped where they
   * were); the job's other ranks are not attached.
   */
  public record Attached(MasterSession session, RankSet attached) {
    public Attached {
      Objects.requireNonNull(session, "session");
      Objects.requireNonNull(attached, "attached");
    }
  }

  /**
   * Attaches to the processes {@code spec} names, reached through a remote shell ({@link
   * AttachedSession}).
   *
   * @throws IOException when they cannot be attached to; the message says why
   */
  public static Attached attach(AttachedSession.Spec spec, PrintStream err) throws IOException {
    return attach(spec, err, p -> {});
  }

  /**
   * {@link #attach(AttachedSession.Spec, PrintStream)}, telling {@code progress} how many ranks
   * have registered with the master as they do (from other threads: it must be thread-safe).
   */
  public static Attached attach(
      AttachedSession.Spec spec, PrintStream err, Consumer<StartProgress> progress)
      throws IOException {
    AttachedSession s = StartListener.during(progress, () -> AttachedSession.start(spec, err));
    return new Attached(s, s.attached());
  }

  /**
   * Attaches to the processes of the job {@code spec} names through the PMIx tool interface ({@link
   * PmixSession#attach}).
   *
   * @throws IOException when they cannot be attached to; the message says why
   */
  public static Attached attach(PmixSession.AttachSpec spec, PrintStream err) throws IOException {
    return attach(spec, err, p -> {});
  }

  /**
   * {@link #attach(PmixSession.AttachSpec, PrintStream)}, telling {@code progress} how many ranks
   * have registered with the master as they do (from other threads: it must be thread-safe).
   */
  public static Attached attach(
      PmixSession.AttachSpec spec, PrintStream err, Consumer<StartProgress> progress)
      throws IOException {
    PmixSession s = StartListener.during(progress, () -> PmixSession.attach(spec, err));
    return new Attached(s, s.attached());
  }
}
