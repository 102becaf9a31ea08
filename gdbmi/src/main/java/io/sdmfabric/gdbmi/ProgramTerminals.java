package io.sdmfabric.gdbmi;

import io.sdmfabric.gdbmi.internal.Pty;
import io.sdmfabric.gdbmi.internal.PtyReader;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pseudo-terminals of a gdb's programs, so that their output never mixes with MI: the first
 * program's, opened with gdb ({@code -inferior-tty-set} at start), and one more for each program
 * after it ({@link #open}). What a program writes is delivered in the channel's delivery, in order
 * with gdb's records; its input is written on the channel's writer thread, so that writing never
 * blocks. One thread reads them all ({@link PtyReader}). They all close when gdb ends.
 */
final class ProgramTerminals {
  private static final Logger log = LoggerFactory.getLogger(ProgramTerminals.class);

  private final MiChannel channel;
  private final PtyReader reader;
  private final Pty first;

  /** The terminals of the programs after the first ({@link #open}). */
  private final List<Pty> others = new CopyOnWriteArrayList<>();

  /** Opens the first program's terminal, whose output goes to {@code output}. */
  ProgramTerminals(MiChannel channel, Consumer<byte[]> output, String name) throws IOException {
    this.channel = channel;
    this.reader = new PtyReader("pty-reader-" + name);
    try {
      this.first = Pty.open(reader, bytes -> channel.deliver(() -> output.accept(bytes)));
    } catch (IOException e) {
      reader.close();
      throw e;
    }
  }

  /** The first program's terminal, e.g. {@code /dev/pts/7}. */
  String firstName() {
    return first.slaveName();
  }

  /** Writes bytes to the first program's standard input. */
  void writeToFirst(byte[] bytes) {
    write(first, bytes);
  }

  /** Opens a terminal for another program, whose output goes to {@code output}. */
  GdbDriver.ProgramTerminal open(Consumer<byte[]> output) throws IOException {
    Pty terminal = Pty.open(reader, bytes -> channel.deliver(() -> output.accept(bytes)));
    others.add(terminal);
    return new GdbDriver.ProgramTerminal() {
      @Override
      public String name() {
        return terminal.slaveName();
      }

      @Override
      public void write(byte[] bytes) {
        ProgramTerminals.this.write(terminal, bytes);
      }
    };
  }

  /**
   * Closes every terminal: all hang up first and the reader lets go of them together, so that their
   * grace runs at once rather than one after another (64 attached ranks' terminals took 6 s closed
   * in turn).
   */
  void closeAll() {
    first.hangUp();
    others.forEach(Pty::hangUp);
    reader.close(Pty.CLOSE_GRACE_MS);
    first.close();
    others.forEach(Pty::close);
  }

  private void write(Pty terminal, byte[] bytes) {
    byte[] copy = bytes.clone();
    boolean queued =
        channel.write(
            () -> {
              try {
                terminal.write(copy);
              } catch (IOException e) {
                log.warn("program input lost: {}", e.getMessage());
              }
            });
    if (!queued) {
      log.warn("program input lost: gdb has ended");
    }
  }
}
