package io.sdmfabric.runtime.launch;

import io.sdmfabric.runtime.PrivateDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * sdm's MPI wait-records library ({@code sdm_mpiwait.c}, in the jar), which the rank shim preloads
 * into the ranks of the jobs sdm launches so that sdm can tell who waits for whom in MPI. It is
 * built with the job's own {@code mpicc} (the first on the {@code PATH}), so it matches the job's
 * MPI whatever that is, into {@code mpiwait/KEY/} of sdm's home, a directory of the user's alone;
 * KEY is a hash of the source and of {@code mpicc -show}, so a new source or another MPI builds
 * anew, and every later launch with the same ones takes the one built.
 */
public final class MpiWaitLibrary {
  /** How long mpicc may take. */
  private static final long COMPILE_SECONDS = 60;

  private MpiWaitLibrary() {}

  /**
   * The library for the job's MPI, built if need be.
   *
   * @throws IOException saying why there is none: no mpicc, or it failed
   */
  public static Path build() throws IOException {
    String source = source();
    String mpi = run(List.of("mpicc", "-show"), "mpicc -show").strip();
    Path dir = PrivateDirectory.sdmHome().resolve("mpiwait").resolve(key(source + "\n" + mpi));
    Path library = dir.resolve("libsdm_mpiwait.so");
    // Checked each time, the library built before too: it runs inside every rank.
    PrivateDirectory.ensure(dir.getParent());
    PrivateDirectory.ensure(dir);
    if (Files.isRegularFile(library, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return library;
    }
    Path c = dir.resolve("sdm_mpiwait.c");
    PrivateDirectory.write(c, source);
    Path building = Files.createTempFile(dir, "libsdm_mpiwait", ".so");
    try {
      run(
          List.of("mpicc", "-shared", "-fPIC", "-O2", "-o", building.toString(), c.toString()),
          "mpicc of sdm's MPI library");
      Files.move(building, library, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(building);
    }
    return library;
  }

  private static String source() throws IOException {
    try (InputStream in = MpiWaitLibrary.class.getResourceAsStream("sdm_mpiwait.c")) {
      if (in == null) {
        throw new IOException("sdm_mpiwait.c is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String key(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The standard output of {@code command}; fails with its output when it fails. */
  private static String run(List<String> command, String what) throws IOException {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException(command.get(0) + " is not on the PATH", e);
    }
    try {
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(COMPILE_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(what + " took more than " + COMPILE_SECONDS + " s");
      }
      String text = new String(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IOException(what + " failed: " + text.strip());
      }
      return text;
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(what + " was interrupted", e);
    }
  }
}
