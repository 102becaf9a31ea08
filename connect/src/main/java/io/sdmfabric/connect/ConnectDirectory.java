package io.sdmfabric.connect;

import io.sdmfabric.runtime.PrivateDirectory;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * The reverse connect mailbox, {@code ~/.sdm/connect} (mode 0700): {@code sdm connect} leaves
 * {@code ID.request} there, and a front-end answers with {@code ID.accept} (where to connect) or
 * {@code ID.reject} (why not). Front-end and batch job share it through the user's home directory,
 * as on clusters they do. Every file is the user's alone (0600), written whole or not at all.
 */
public final class ConnectDirectory {
  /** A front-end's answer to a request. */
  public sealed interface Answer permits Accepted, Rejected {}

  /** Accepted: connect to {@code address} ({@code HOST:PORT}), or through the relay {@code via}. */
  public record Accepted(String address, Optional<String> via) implements Answer {}

  /** Rejected, and why (may be empty). */
  public record Rejected(String reason) implements Answer {}

  private final Path dir;

  private ConnectDirectory(Path dir) {
    this.dir = dir;
  }

  /**
   * The connect directory, made if missing.
   *
   * @throws IOException when it or sdm's home is not the user's alone; the message says how to fix
   *     it
   */
  public static ConnectDirectory open() throws IOException {
    return open(PrivateDirectory.sdmHome());
  }

  /** The connect directory under sdm's home {@code home}, made if missing. */
  public static ConnectDirectory open(Path home) throws IOException {
    PrivateDirectory.ensure(home);
    return new ConnectDirectory(PrivateDirectory.ensure(home.resolve("connect")));
  }

  public Path dir() {
    return dir;
  }

  /** Leaves {@code request} for a front-end. */
  public void submit(ConnectRequest request) throws IOException {
    PrivateDirectory.write(dir.resolve(request.fileName()), request.toText());
  }

  /**
   * The requests not answered yet, oldest first. Requests whose process on this host is gone
   * (killed before it could clean up) are removed; unreadable files are skipped; {@code warnings}
   * hears of both.
   */
  List<ConnectRequest> pending(Consumer<String> warnings) throws IOException {
    List<ConnectRequest> found = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.request")) {
      for (Path f : files) {
        String id = f.getFileName().toString().replace(".request", "");
        if (Files.exists(dir.resolve(id + ".accept"))
            || Files.exists(dir.resolve(id + ".reject"))) {
          continue;
        }
        ConnectRequest r;
        try {
          r = ConnectRequest.read(f);
        } catch (NoSuchFileException e) {
          continue; // withdrawn meanwhile
        } catch (IOException e) {
          warnings.accept(e.getMessage());
          continue;
        }
        if (r.host().equals(thisHost()) && ProcessHandle.of(r.pid()).isEmpty()) {
          warnings.accept(
              "request " + r.id() + " is stale (its sdm connect, pid " + r.pid() + ", is gone)");
          withdraw(r.id());
          continue;
        }
        found.add(r);
      }
    }
    found.sort(Comparator.comparing(ConnectRequest::created));
    return found;
  }

  /** Answers request {@code id}: connect to {@code address}, or through {@code via}. */
  void accept(String id, String address, Optional<String> via) throws IOException {
    Properties p = new Properties();
    p.setProperty("address", address);
    via.ifPresent(v -> p.setProperty("via", v));
    PrivateDirectory.write(dir.resolve(id + ".accept"), text(p));
  }

  /** Answers request {@code id}: no. */
  void reject(String id, String reason) throws IOException {
    Properties p = new Properties();
    p.setProperty("reason", reason);
    PrivateDirectory.write(dir.resolve(id + ".reject"), text(p));
  }

  /** The answer to request {@code id}, if there is one yet. */
  public Optional<Answer> answer(String id) throws IOException {
    Properties p = new Properties();
    try {
      p.load(
          new StringReader(
              PrivateDirectory.readSmall(dir.resolve(id + ".reject"), ConnectRequest.MAX_BYTES)));
      return Optional.of(new Rejected(p.getProperty("reason", "")));
    } catch (NoSuchFileException e) {
      // Not rejected.
    }
    try {
      p.load(
          new StringReader(
              PrivateDirectory.readSmall(dir.resolve(id + ".accept"), ConnectRequest.MAX_BYTES)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    String address = p.getProperty("address");
    if (address == null) {
      throw new IOException("the answer to request " + id + " names no address");
    }
    return Optional.of(new Accepted(address, Optional.ofNullable(p.getProperty("via"))));
  }

  /** Removes request {@code id} and any answer to it. */
  public void withdraw(String id) {
    for (String suffix : List.of(".request", ".accept", ".reject")) {
      try {
        Files.deleteIfExists(dir.resolve(id + suffix));
      } catch (IOException e) {
        // Not ours to remove, or gone: nothing more to do.
      }
    }
  }

  private static String text(Properties p) {
    java.io.StringWriter w = new java.io.StringWriter();
    try {
      p.store(w, null);
    } catch (IOException e) {
      throw new IllegalStateException("a StringWriter does not fail", e);
    }
    return w.toString();
  }

  private static String thisHost() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
