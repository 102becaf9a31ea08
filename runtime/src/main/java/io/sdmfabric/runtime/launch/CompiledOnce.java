package io.sdmfabric.runtime.launch;

import io.sdmfabric.runtime.PrivateDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

/**
 * A C source in sdm's jar, compiled on this machine for what it runs with (the MPI wait-records
 * library with the job's mpicc, the PMIx tool helper against the launcher's libpmix), once: into
 * {@code AREA/KEY/} of sdm's home, a directory of the user's alone, KEY a hash of the source and of
 * the set-up it is built for (the compiler's {@code -show}, the PMIx installation), so that a new
 * source or another set-up builds anew and every later use takes the one built. It is built under a
 * temporary name and renamed when complete, so that a half-built file is never taken.
 */
final class CompiledOnce {
  /** How long a compiler, or any command run here, may take. */
  static final long COMMAND_SECONDS = 60;

  private CompiledOnce() {}

  /**
   * The compiled {@code source} (a resource beside this class), built if need be.
   *
   * @param area the directory of sdm's home for builds of this source
   * @param output the built file's name
   * @param setup what it is built for, part of the key
   * @param compile the compiler's command line, from the source's path and the file to write
   * @throws IOException when the compiler fails (with its output) or the directory is not private
   */
  static Path build(
      String source,
      String area,
      String output,
      String setup,
      BiFunction<Path, Path, List<String>> compile)
      throws IOException {
    String text = resource(source);
    Path dir = PrivateDirectory.sdmHome().resolve(area).resolve(key(text + "\n" + setup));
    Path built = dir.resolve(output);
    // Checked each time, the file built before too: it runs inside every rank, or as the tool.
    PrivateDirectory.ensure(dir.getParent());
    PrivateDirectory.ensure(dir);
    if (Files.isRegularFile(built, LinkOption.NOFOLLOW_LINKS)) {
      return built;
    }
    Path c = dir.resolve(source);
    PrivateDirectory.write(c, text);
    Path building = Files.createTempFile(dir, output, ".building");
    try {
      run(compile.apply(c, building), "compiling " + source);
      Files.move(building, built, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(building);
    }
    return built;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CompiledOnce.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException(name + " is missing from the jar");
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
  static String run(List<String> command, String what) throws IOException {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException(command.get(0) + " is not on the PATH", e);
    }
    try {
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(what + " took more than " + COMMAND_SECONDS + " s");
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
