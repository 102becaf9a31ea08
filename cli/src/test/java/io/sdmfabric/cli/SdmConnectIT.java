package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.runtime.PrivateDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reverse connect end to end: {@code sdm connect} in front of a launch command (in a real Slurm
 * batch job, or started by the test), {@code sdm listen} accepting or rejecting its request, both
 * from the fat jar; and the refusals that keep a user's requests safe.
 */
@Tag("gdb")
@Tag("mpi")
@Tag("slurm")
class SdmConnectIT {
  @TempDir Path tmp;
  private Path home;

  @BeforeAll
  static void needsGdb() {
    assumeTrue(Sdm.works("gdb", "--version"), "gdb is not installed");
  }

  @AfterEach
  void nothingIsLeftBehind() throws Exception {
    Sdm.assertNothingLeftBehind();
    if (home != null && Files.isDirectory(home.resolve("connect"))) {
      try (Stream<Path> files = Files.list(home.resolve("connect"))) {
        assertEquals(List.of(), files.toList(), "request files left in " + home);
      }
    }
  }

  /** sdm's home for this test, private, so that the user's own ~/.sdm is left alone. */
  private Map<String, String> env() throws IOException {
    if (home == null) {
      home =
          Files.createDirectory(
              tmp.resolve(".sdm"),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    return Map.of(PrivateDirectory.HOME_ENV, home.toString());
  }

  private static void contains(String text, String part, Object context) {
    assertTrue(text.contains(part), "missing \"" + part + "\" in\n" + context);
  }

  /** Waits until sdm connect has left its request. */
  private void awaitRequest() throws Exception {
    awaitRequests(1);
  }

  /** Waits until there are {@code count} requests; their ids, oldest first. */
  private List<String> awaitRequests(int count) throws Exception {
    Path dir = home.resolve("connect");
    for (int i = 0; i < 300; i++) {
      if (Files.isDirectory(dir)) {
        try (Stream<Path> files = Files.list(dir)) {
          List<Path> requests = files.filter(f -> f.toString().endsWith(".request")).toList();
          if (requests.size() >= count) {
            return requests.stream()
                .sorted(
                    java.util.Comparator.comparing(
                        f -> {
                          try {
                            return Files.getLastModifiedTime(f);
                          } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                          }
                        }))
                .map(f -> f.getFileName().toString().replace(".request", ""))
                .toList();
          }
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("fewer than " + count + " requests appeared in " + dir);
  }

  @Test
  void twoRequestsAreTwoSessionsOfOneFrontEnd() throws Exception {
    assumeTrue(
        Sdm.works("mpirun", "-n", "1", "true"),
        "mpirun -n 1 true fails (as root it needs OMPI_ALLOW_RUN_AS_ROOT=1"
            + " OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; dev/test sets them)");
    assumeTrue(Sdm.works("mpicc", "--version"), "mpicc is not installed");
    Map<String, String> env = env();
    String program = Sdm.mpiExample("mpi_reduce").toString();
    try (Sdm.Background first = new Sdm.Background(env, "connect", "mpirun", "-n", "2", program)) {
      String a = awaitRequests(1).get(0);
      try (Sdm.Background second =
          new Sdm.Background(env, "connect", "mpirun", "-n", "3", program)) {
        String b = awaitRequests(2).stream().filter(id -> !id.equals(a)).findFirst().orElseThrow();
        Sdm.Result r =
            Sdm.runWithEnv(
                env,
                String.join(
                    "\n",
                    "accept " + a,
                    "break combine",
                    "run",
                    "wait 60",
                    "accept " + b,
                    "sessions",
                    "break combine",
                    "run",
                    "wait 60",
                    "print mine",
                    "session 1",
                    "print mine",
                    "quit",
                    "procs",
                    "quit",
                    "sessions",
                    "exit",
                    ""),
                "listen",
                "--batch");
        assertEquals(0, r.exitCode(), r.toString());
        contains(r.out(), "session 1: 2 ranks, mpirun", r);
        contains(r.out(), "session 2: 3 ranks, mpirun", r);
        contains(r.out(), "* session 2: 3 ranks", r);
        contains(r.out(), "  session 1: 2 ranks", r);
        // While both are open, each session's lines carry its number.
        contains(r.out(), "{2} [2] mine = -3", r);
        contains(r.out(), "{1} [1] mine = 2", r);
        contains(r.out(), "session 1 ended: the master ended the session: the job has ended", r);
        // Session 2 alone again: its lines are plain.
        assertTrue(
            r.out().lines().anyMatch(l -> l.startsWith("stopped ") && l.endsWith(" [0-2]")),
            r.toString());
        contains(r.out(), "session 2 ended: the master ended the session: the job has ended", r);
        contains(r.out(), "no sessions", r);
        assertEquals(0, first.await().exitCode());
        assertEquals(0, second.await().exitCode());
      }
    }
  }

  /**
   * A job of MPICH's, launched by its mpirun (hydra) or by srun through Slurm's PMI-2 plugin, with
   * the same {@code sdm connect} in front of the same launch command as under Open MPI.
   */
  @ParameterizedTest
  @ValueSource(strings = {"mpich:mpirun", "mpich:srun"})
  void anMpichJobIsDebuggedFromTheFrontEndThatAcceptsItsRequest(String launcher) throws Exception {
    Sdm.Mpi mpi = Sdm.Mpi.of(launcher);
    mpi.assume();
    Map<String, String> env = new java.util.HashMap<>(env());
    env.putAll(mpi.env());
    List<String> connect = new java.util.ArrayList<>(List.of("connect", mpi.launcher()));
    connect.addAll(mpi.launcherOptions());
    connect.addAll(List.of("-n", "3", mpi.example("mpi_reduce").toString()));
    try (Sdm.Background job = new Sdm.Background(env, connect.toArray(String[]::new))) {
      awaitRequest();
      Sdm.Result r =
          Sdm.runWithEnv(
              env,
              "accept\nbreak combine\nrun\nwait 60\nbt\nprint mine\nquit\n",
              "listen",
              "--batch");
      assertEquals(0, r.exitCode(), r.toString());
      contains(r.out(), "session 1: 3 ranks, " + mpi.launcher(), r);
      contains(r.out(), "main at mpi_reduce.c:19  [0-2]", r);
      contains(r.out(), "  combine at mpi_reduce.c:9  [0-2]", r);
      contains(r.out(), "[2] mine = -3", r);
      contains(r.out(), "session 1 ended: the master ended the session: the job has ended", r);
      assertEquals(0, job.await().exitCode(), job.err());
    }
  }

  @Test
  void aSlurmBatchJobIsDebuggedFromTheFrontEndThatAcceptsItsRequest() throws Exception {
    assumeTrue(
        System.getenv("SLURM_CONF") != null && Sdm.works("srun", "-n", "1", "true"),
        "no Slurm to submit a batch job to (dev/test starts one and sets SLURM_CONF)");
    assumeTrue(Sdm.works("mpicc", "--version"), "mpicc is not installed");
    Map<String, String> env = env();
    Path log = tmp.resolve("job.out");
    String job =
        Sdm.sbatch(
            env,
            tmp,
            List.of("-n 4"),
            "connect",
            "srun",
            "-n",
            "4",
            Sdm.mpiExample("mpi_reduce").toString());
    try {
      Sdm.Result r =
          Sdm.runWithEnv(
              env,
              "requests wait 60\naccept\nbreak combine\nrun\nwait 60\nbt\nprint mine\nquit\n",
              "listen",
              "--batch");
      assertEquals(0, r.exitCode(), r.toString());
      contains(r.out(), "Slurm job " + job, r);
      contains(r.out(), "session 1: 4 ranks, srun", r);
      contains(r.out(), "[0-3] loaded", r);
      contains(r.out(), "main at mpi_reduce.c:19  [0-3]", r);
      contains(r.out(), "  combine at mpi_reduce.c:9  [0-3]", r);
      contains(r.out(), "[2] mine = -3", r);
      contains(r.out(), "session 1 ended: the master ended the session: the job has ended", r);
      // The agents' going, as the job ends at the front-end's word, is no news to it.
      assertTrue(!r.out().contains("rank lost"), r.toString());
      awaitJobEnd(job);
      String batchLog = Files.readString(log);
      contains(batchLog, "accepted; connected to the front-end", batchLog);
      contains(batchLog, "the front-end left: the front-end quit; ending the job", batchLog);
    } finally {
      new ProcessBuilder("scancel", job).start().waitFor(10, TimeUnit.SECONDS);
      awaitJobEnd(job);
    }
  }

  private static void awaitJobEnd(String job) throws Exception {
    for (int i = 0; i < 300; i++) {
      Process q = new ProcessBuilder("squeue", "-h", "-j", job).redirectErrorStream(true).start();
      String out = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      q.waitFor();
      if (!out.contains(job)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("Slurm job " + job + " is still there");
  }

  @Test
  void aRejectedRequestEndsSdmConnectSayingSo() throws Exception {
    Map<String, String> env = env();
    try (Sdm.Background connect =
        new Sdm.Background(env, "connect", "srun", "-n", "2", "/bin/true")) {
      Sdm.Result listen =
          Sdm.runWithEnv(env, "requests wait 60\nreject not today\nexit\n", "listen", "--batch");
      assertEquals(0, listen.exitCode(), listen.toString());
      contains(listen.out(), "rejected request", listen);
      Sdm.Result r = connect.await();
      assertEquals(1, r.exitCode(), r.toString());
      contains(r.err(), "sdm connect: reverse connect request rejected: not today", r);
    }
  }

  @Test
  void sigtermWhileWaitingWithdrawsTheRequest() throws Exception {
    Map<String, String> env = env();
    try (Sdm.Background connect =
        new Sdm.Background(env, "connect", "srun", "-n", "2", "/bin/true")) {
      awaitRequest();
      connect.process().destroy(); // SIGTERM
      assertTrue(connect.process().waitFor(30, TimeUnit.SECONDS), connect.err());
      assertEquals(143, connect.process().exitValue(), connect.err());
    }
    // nothingIsLeftBehind checks that the request file is gone.
  }

  @Test
  void noAnswerWithinTheTimeoutWithdrawsTheRequest() throws Exception {
    Sdm.Result r =
        Sdm.runWithEnv(env(), "", "connect", "--timeout", "1s", "mpirun", "-n", "2", "/bin/true");
    assertEquals(1, r.exitCode(), r.toString());
    contains(r.err(), "no front-end answered within 1s", r);
  }

  @Test
  void aHomeOthersCanReadIsRefusedWithTheFix() throws Exception {
    Map<String, String> env = env();
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String[] command :
        List.of(
            new String[] {"connect", "srun", "-n", "2", "/bin/true"},
            new String[] {"listen", "--batch"})) {
      Sdm.Result r = Sdm.runWithEnv(env, "", command);
      assertEquals(2, r.exitCode(), r.toString());
      contains(r.err(), "has mode rwxr-xr-x", r);
      contains(r.err(), "chmod 700 " + home, r);
    }
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
  }

  @Test
  void aHomeOwnedBySomeoneElseIsRefused() throws Exception {
    assumeTrue(
        System.getProperty("user.name").equals("root"), "only root can give a directory away");
    Map<String, String> env = env();
    Files.setOwner(
        home, home.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
    try {
      Sdm.Result r = Sdm.runWithEnv(env, "", "connect", "srun", "-n", "2", "/bin/true");
      assertEquals(2, r.exitCode(), r.toString());
      contains(r.err(), "is owned by nobody, not by root", r);
    } finally {
      Files.setOwner(
          home, home.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("root"));
    }
  }

  @Test
  void aLaunchCommandThatIsNotOneIsRefusedBeforeAnyRequest() throws Exception {
    Sdm.Result r = Sdm.runWithEnv(env(), "", "connect", "srun", "-n", "4", "./no-such-program");
    assertEquals(2, r.exitCode(), r.toString());
    contains(r.err(), "sdm connect: no program in the launch command", r);
  }
}
