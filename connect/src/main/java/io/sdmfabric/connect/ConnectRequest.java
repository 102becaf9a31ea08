package io.sdmfabric.connect;

import io.sdmfabric.runtime.PrivateDirectory;
import io.sdmfabric.wire.SessionSecret;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * A reverse connect request, as {@code sdm connect} writes it into {@code
 * ~/.sdm/connect/ID.request} (mode 0600) for a front-end to accept or reject: who asks, from where,
 * since when, to debug what, and the secret of the session it would start. The file is a Java
 * properties file.
 *
 * @param host the batch node's name
 * @param addresses the batch node's addresses, for people deciding whether to accept
 * @param job the Slurm job the request comes from, or empty
 */
public record ConnectRequest(
    String id,
    String user,
    String host,
    List<String> addresses,
    long pid,
    Instant created,
    String directory,
    List<String> command,
    String job,
    SessionSecret secret) {

  /** The largest request file read: a request is a few hundred bytes and its command line. */
  static final int MAX_BYTES = 64 << 10;

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  public ConnectRequest {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(secret, "secret");
    addresses = List.copyOf(addresses);
    command = List.copyOf(command);
    if (!id.matches("[0-9a-f]{8}")) {
      throw new IllegalArgumentException("not a request id: " + id);
    }
    if (command.isEmpty()) {
      throw new IllegalArgumentException("a request needs a command");
    }
  }

  /** A new request from this process to run {@code command}, with a new id and secret. */
  public static ConnectRequest fromHere(List<String> command) {
    byte[] id = new byte[4];
    new SecureRandom().nextBytes(id);
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      host = "localhost";
    }
    return new ConnectRequest(
        HexFormat.of().formatHex(id),
        System.getProperty("user.name"),
        host,
        localAddresses(),
        ProcessHandle.current().pid(),
        Instant.now(),
        Path.of("").toAbsolutePath().toString(),
        command,
        Optional.ofNullable(System.getenv("SLURM_JOB_ID")).orElse(""),
        SessionSecret.random());
  }

  /**
   * This node's addresses that others may reach it at (up, neither loopback nor link-local), or the
   * loopback one if none.
   */
  private static List<String> localAddresses() {
    List<String> found = new ArrayList<>();
    try {
      for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (n.isUp() && !n.isLoopback()) {
          n.inetAddresses()
              .filter(a -> !a.isLinkLocalAddress())
              .forEach(a -> found.add(a.getHostAddress()));
        }
      }
    } catch (SocketException e) {
      // No interfaces to list: the host name says enough.
    }
    return found.isEmpty() ? List.of("127.0.0.1") : found;
  }

  /** The file name of this request in the connect directory. */
  public String fileName() {
    return id + ".request";
  }

  /** The text of the request file. */
  String toText() {
    Properties p = new Properties();
    p.setProperty("id", id);
    p.setProperty("user", user);
    p.setProperty("host", host);
    p.setProperty("addresses", String.join(" ", addresses));
    p.setProperty("pid", Long.toString(pid));
    p.setProperty("created", created.toString());
    p.setProperty("directory", directory);
    p.setProperty("job", job);
    p.setProperty("command.count", Integer.toString(command.size()));
    for (int i = 0; i < command.size(); i++) {
      p.setProperty("command." + i, command.get(i));
    }
    p.setProperty("secret", secret.hex());
    StringWriter w = new StringWriter();
    try {
      p.store(w, "sdm reverse connect request: answer it with sdm listen (accept or reject)");
    } catch (IOException e) {
      throw new IllegalStateException("a StringWriter does not fail", e);
    }
    return w.toString();
  }

  /**
   * The request in {@code file}.
   *
   * @throws IOException when it cannot be read or is not a complete request; the message says why
   */
  static ConnectRequest read(Path file) throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(PrivateDirectory.readSmall(file, MAX_BYTES)));
    try {
      int count = Integer.parseInt(required(p, "command.count", file));
      List<String> command = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        command.add(required(p, "command." + i, file));
      }
      String addresses = p.getProperty("addresses", "").strip();
      return new ConnectRequest(
          required(p, "id", file),
          required(p, "user", file),
          required(p, "host", file),
          addresses.isEmpty() ? List.of() : List.of(addresses.split("\\s+")),
          Long.parseLong(required(p, "pid", file)),
          Instant.parse(required(p, "created", file)),
          p.getProperty("directory", ""),
          command,
          p.getProperty("job", ""),
          SessionSecret.fromHex(required(p, "secret", file)));
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IOException("not a reverse connect request: " + file + ": " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IOException("not a reverse connect request: " + file + ": " + e.getMessage(), e);
    }
  }

  private static String required(Properties p, String key, Path file) throws IOException {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IOException("not a reverse connect request: " + file + " has no " + key);
    }
    return v;
  }

  /** One line for people: who, where, since when, what. */
  String describe() {
    return user
        + "@"
        + host
        + " ("
        + String.join(", ", addresses)
        + ")"
        + (job.isEmpty() ? "" : ", Slurm job " + job)
        + ", since "
        + TIME.format(created)
        + ": "
        + String.join(" ", command);
  }

  @Override
  public String toString() {
    return "ConnectRequest[" + id + " " + describe() + "]";
  }
}
