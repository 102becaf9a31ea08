package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reverse connect mailbox: requests and answers as files of the user's alone. */
class ConnectDirectoryTest {
  @TempDir Path tmp;

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void aMissingHomeIsMadePrivateAndARequestIsWrittenForTheUserAlone() throws IOException {
    Path home = tmp.resolve("home/.sdm");
    ConnectDirectory dir = ConnectDirectory.open(home);
    assertEquals("rwx------", mode(home));
    assertEquals("rwx------", mode(dir.dir()));
    ConnectRequest r = ConnectRequest.fromHere(List.of("srun", "-n", "4", "./app"));
    dir.submit(r);
    Path file = dir.dir().resolve(r.fileName());
    assertEquals("rw-------", mode(file));
    ConnectRequest back = ConnectRequest.read(file);
    assertEquals(r.id(), back.id());
    assertEquals(r.command(), back.command());
    assertEquals(r.secret().hex(), back.secret().hex());
    assertEquals(r.created(), back.created());
    assertEquals(List.of(r.id()), dir.pending(w -> {}).stream().map(ConnectRequest::id).toList());
  }

  @Test
  void anAnsweredRequestIsNoLongerPendingAndItsAnswerReadsBack() throws IOException {
    ConnectDirectory dir = ConnectDirectory.open(tmp.resolve(".sdm"));
    ConnectRequest yes = ConnectRequest.fromHere(List.of("srun", "./a"));
    ConnectRequest no = ConnectRequest.fromHere(List.of("srun", "./b"));
    dir.submit(yes);
    dir.submit(no);
    assertEquals(Optional.empty(), dir.answer(yes.id()));
    dir.accept(yes.id(), "10.0.0.1:4000", Optional.of("login:5000"));
    dir.reject(no.id(), "not now");
    assertEquals(List.of(), dir.pending(w -> {}));
    assertEquals(
        Optional.of(new ConnectDirectory.Accepted("10.0.0.1:4000", Optional.of("login:5000"))),
        dir.answer(yes.id()));
    assertEquals(Optional.of(new ConnectDirectory.Rejected("not now")), dir.answer(no.id()));
    dir.withdraw(yes.id());
    dir.withdraw(no.id());
    try (var files = Files.list(dir.dir())) {
      assertEquals(List.of(), files.toList());
    }
  }

  /** A request like {@code sdm connect}'s here, but from a process that is gone. */
  static ConnectRequest whoseProcessIsGone() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    ConnectRequest r = ConnectRequest.fromHere(List.of("srun", "./a"));
    return new ConnectRequest(
        r.id(),
        r.user(),
        r.host(),
        r.addresses(),
        gone.pid(),
        r.created(),
        r.directory(),
        r.command(),
        r.job(),
        r.secret());
  }

  @Test
  void aRequestWhoseProcessIsGoneIsRemovedAsStale() throws Exception {
    ConnectDirectory dir = ConnectDirectory.open(tmp.resolve(".sdm"));
    ConnectRequest stale = whoseProcessIsGone();
    dir.submit(stale);
    List<String> warnings = new ArrayList<>();
    assertEquals(List.of(), dir.pending(warnings::add));
    assertTrue(warnings.get(0).contains("is stale"), warnings.toString());
    assertTrue(Files.notExists(dir.dir().resolve(stale.fileName())));
  }

  @Test
  void aDirectoryOthersCanReadIsRefusedWithTheFix() throws IOException {
    Path home = tmp.resolve(".sdm");
    ConnectDirectory.open(home);
    Files.setPosixFilePermissions(
        home.resolve("connect"), PosixFilePermissions.fromString("rwxr-xr-x"));
    IOException e = assertThrows(IOException.class, () -> ConnectDirectory.open(home));
    assertTrue(e.getMessage().contains("has mode rwxr-xr-x"), e.getMessage());
    assertTrue(e.getMessage().contains("chmod 700 " + home.resolve("connect")), e.getMessage());
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx-w----"));
    e = assertThrows(IOException.class, () -> ConnectDirectory.open(home));
    assertTrue(e.getMessage().contains("chmod 700 " + home), e.getMessage());
  }

  @Test
  void aSymbolicLinkIsNotAcceptedAsTheDirectory() throws IOException {
    Path real = Files.createDirectory(tmp.resolve("elsewhere"));
    Path home = Files.createSymbolicLink(tmp.resolve(".sdm"), real);
    IOException e = assertThrows(IOException.class, () -> ConnectDirectory.open(home));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
  }

  @Test
  void requestsThatAreLinksFifosOrHugeAreRefusedUnreadAndTheRealOneIsStillListed()
      throws Exception {
    ConnectDirectory dir = ConnectDirectory.open(tmp.resolve(".sdm"));
    ConnectRequest real = ConnectRequest.fromHere(List.of("srun", "./app"));
    dir.submit(real);
    Path elsewhere = tmp.resolve("elsewhere.request");
    Files.writeString(elsewhere, real.toText().replace(real.id(), "0badc0de"));
    Files.createSymbolicLink(dir.dir().resolve("deadbeef.request"), Path.of("/dev/zero"));
    Files.createSymbolicLink(dir.dir().resolve("0badc0de.request"), elsewhere);
    Path fifo = dir.dir().resolve("f1f0f1f0.request");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, mkfifo.waitFor());
    Files.write(dir.dir().resolve("0123abcd.request"), new byte[ConnectRequest.MAX_BYTES + 1]);

    List<String> warnings = new ArrayList<>();
    List<ConnectRequest> pending = dir.pending(warnings::add);

    assertEquals(List.of(real.id()), pending.stream().map(ConnectRequest::id).toList());
    assertEquals(4, warnings.size(), warnings.toString());
    assertTrue(
        warnings.stream().filter(w -> w.contains("not a regular file")).count() == 3,
        warnings.toString());
    assertTrue(warnings.stream().anyMatch(w -> w.contains("over the limit")), warnings.toString());
  }
}
