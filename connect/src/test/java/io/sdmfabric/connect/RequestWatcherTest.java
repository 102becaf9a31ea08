package io.sdmfabric.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How sdm listen hears of requests: each announced once, as it appears; stale ones never. */
class RequestWatcherTest {
  private static final long WAIT_S = 20;

  @TempDir Path tmp;

  private final LinkedBlockingQueue<String> said = new LinkedBlockingQueue<>();
  private ConnectDirectory dir;
  private RequestWatcher watcher;

  @BeforeEach
  void open() throws Exception {
    dir = ConnectDirectory.open(tmp.resolve(".sdm"));
    watcher = new RequestWatcher(dir, said::add);
  }

  @AfterEach
  void close() {
    watcher.close();
  }

  private String next() throws InterruptedException {
    String line = said.poll(WAIT_S, TimeUnit.SECONDS);
    assertNotNull(line, "nothing said within " + WAIT_S + " s");
    return line;
  }

  private static ConnectRequest request(String program) {
    return ConnectRequest.fromHere(List.of("srun", program));
  }

  @Test
  void aRequestWaitingAtTheStartIsAnnouncedAsTheWatchStarts() throws Exception {
    ConnectRequest r = request("./a");
    dir.submit(r);
    watcher.start();
    String announced = said.poll();
    assertTrue(announced.startsWith("request " + r.id() + ": " + r.describe()), announced);
    assertTrue(announced.endsWith("(accept " + r.id() + " | reject " + r.id() + ")"), announced);
  }

  @Test
  void aRequestThatAppearsLaterIsAnnouncedOnce() throws Exception {
    watcher.start();
    ConnectRequest first = request("./a");
    dir.submit(first);
    assertTrue(next().startsWith("request " + first.id() + ": "));
    ConnectRequest second = request("./b");
    dir.submit(second);
    // The first is read again on every poll until the second appears; it is not said again.
    assertTrue(next().startsWith("request " + second.id() + ": "));
    assertEquals(List.of(), new ArrayList<>(said));
  }

  @Test
  void aStaleRequestIsNotAnnouncedAndItsRemovalIsSaidOnce() throws Exception {
    dir.submit(ConnectDirectoryTest.whoseProcessIsGone());
    ConnectRequest live = request("./a");
    watcher.start();
    String warning = next();
    assertTrue(warning.startsWith("sdm listen: ") && warning.contains("is stale"), warning);
    dir.submit(live);
    assertTrue(next().startsWith("request " + live.id() + ": "));
    assertEquals(List.of(), new ArrayList<>(said));
  }

  @Test
  void awaitingPendingReturnsARequestThatAppearsWhileItWaits() throws Exception {
    ConnectRequest r = request("./a");
    CompletableFuture<List<ConnectRequest>> awaited =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return watcher.awaitPending(Duration.ofSeconds(WAIT_S));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    dir.submit(r);
    assertEquals(
        List.of(r.id()),
        awaited.get(2 * WAIT_S, TimeUnit.SECONDS).stream().map(ConnectRequest::id).toList());
  }

  @Test
  void awaitingPendingWithNoneComingReturnsNoneAtTheLimit() throws Exception {
    assertEquals(List.of(), watcher.awaitPending(Duration.ofMillis(1)));
  }
}
