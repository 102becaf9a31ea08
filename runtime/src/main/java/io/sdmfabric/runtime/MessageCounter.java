package io.sdmfabric.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.remote.artery.RemoteInstrument;

/**
 * Counts the session's own messages that leave this JVM, and their bytes as Artery frames them, for
 * the benchmarks: every JVM of a distributed session is a node of its own, so each such message
 * crosses a node boundary. Pekko's own traffic (gossip, heartbeats) is not counted. Installed as an
 * Artery instrument when {@value #ENV} names a directory that every node sees ({@link
 * ClusterSettings}); a thread then writes this JVM's totals to a file there, {@code HOST-PID},
 * whenever they change ({@code messages bytes}, one line), for the benchmark to add up.
 */
public final class MessageCounter extends RemoteInstrument {
  /** The variable naming the directory of counts; unset, nothing is counted. */
  public static final String ENV = "SDM_MESSAGE_COUNTS";

  private static final LongAdder MESSAGES = new LongAdder();
  private static final LongAdder BYTES = new LongAdder();
  private static final String OURS = "io.sdmfabric.";

  static {
    String dir = System.getenv(ENV);
    if (dir != null) {
      Thread writer = new Thread(() -> writeEvery100Ms(Path.of(dir)), "sdm-message-counts");
      writer.setDaemon(true);
      writer.start();
    }
  }

  /** Artery makes one per encoder and decoder; they share the counts. */
  public MessageCounter() {}

  @Override
  public byte identifier() {
    return 17; // any of 0-31 not used by another instrument of this JVM
  }

  @Override
  public void remoteWriteMetadata(
      ActorRef recipient, Object message, ActorRef sender, ByteBuffer buffer) {
    // No metadata: counting needs none.
  }

  @Override
  public void remoteMessageSent(
      ActorRef recipient, Object message, ActorRef sender, int size, long time) {
    if (message.getClass().getName().startsWith(OURS)) {
      MESSAGES.increment();
      BYTES.add(size);
    }
  }

  @Override
  public void remoteReadMetadata(
      ActorRef recipient, Object message, ActorRef sender, ByteBuffer buffer) {}

  @Override
  public void remoteMessageReceived(
      ActorRef recipient, Object message, ActorRef sender, int size, long time) {}

  private static void writeEvery100Ms(Path dir) {
    String host = LocalAddress.guess();
    Path file = dir.resolve(host + "-" + ProcessHandle.current().pid());
    String last = "";
    while (true) {
      String now = MESSAGES.sum() + " " + BYTES.sum() + "\n";
      if (!now.equals(last)) {
        try {
          Path partial = dir.resolve(file.getFileName() + ".partial");
          Files.writeString(partial, now, StandardCharsets.UTF_8);
          Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
          last = now;
        } catch (IOException e) {
          throw new UncheckedIOException("cannot write the message counts to " + dir, e);
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }
}
