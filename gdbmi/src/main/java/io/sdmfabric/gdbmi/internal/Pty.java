package io.sdmfabric.gdbmi.internal;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A pseudo-terminal for one debugged program: gdb opens the slave side for the program ({@code
 * -inferior-tty-set}); this class reads the program's output from the master side on its own thread
 * and writes the program's input to it.
 *
 * <p>The terminal neither echoes input nor turns {@code \n} into {@code \r\n}, so the bytes read
 * are the bytes the program wrote. It stays canonical (line-buffered input, {@code ^D} for end of
 * file) as a program reading a terminal expects. The class keeps a slave descriptor of its own
 * open, so that the master does not hang up between two runs of the program.
 */
public final class Pty implements AutoCloseable {
  private static final int TERMIOS_SIZE = 60;
  private static final int OFLAG_OFFSET = 4;
  private static final int LFLAG_OFFSET = 12;
  private static final int OPOST = 0x1;
  private static final int ECHO = 0x8;
  private static final int ECHONL = 0x40;
  private static final int POLL_MS = 200;

  private final int master;
  private final int slave;
  private final String slaveName;
  private final Thread reader;
  private volatile boolean hungUp;
  private volatile boolean closed;

  private Pty(int master, int slave, String slaveName, Consumer<byte[]> output) {
    this.master = master;
    this.slave = slave;
    this.slaveName = slaveName;
    this.reader = new Thread(() -> readLoop(output), "pty-reader-" + slaveName);
    this.reader.setDaemon(true);
  }

  /**
   * Opens a new pseudo-terminal and starts reading it.
   *
   * @param output receives each chunk the program writes, on the reader thread
   */
  public static Pty open(Consumer<byte[]> output) throws IOException {
    LibC c = LibC.INSTANCE;
    int master = -1;
    int slave = -1;
    try {
      master = c.posix_openpt(LibC.O_RDWR | LibC.O_NOCTTY);
      c.grantpt(master);
      c.unlockpt(master);
      byte[] name = new byte[128];
      c.ptsname_r(master, name, name.length);
      String slaveName = cString(name);
      slave = c.open(slaveName, LibC.O_RDWR | LibC.O_NOCTTY);
      makeTransparent(slave);
      Pty pty = new Pty(master, slave, slaveName, output);
      pty.reader.start();
      return pty;
    } catch (LastErrorException e) {
      closeQuietly(slave);
      closeQuietly(master);
      throw new IOException("cannot open a pseudo-terminal: " + e.getMessage(), e);
    }
  }

  /** The slave side's path, e.g. {@code /dev/pts/7}, to hand to gdb. */
  public String slaveName() {
    return slaveName;
  }

  /** Writes bytes to the program's input. */
  public void write(byte[] bytes) throws IOException {
    if (closed) {
      // Its descriptor's number may be another file's by now.
      throw new IOException(slaveName + " is closed");
    }
    int done = 0;
    try {
      while (done < bytes.length) {
        byte[] rest = done == 0 ? bytes : Arrays.copyOfRange(bytes, done, bytes.length);
        done += (int) LibC.INSTANCE.write(master, rest, rest.length);
      }
    } catch (LastErrorException e) {
      throw new IOException("cannot write to " + slaveName + ": " + e.getMessage(), e);
    }
  }

  /**
   * Lets go of the slave side, so that the master hangs up as soon as no program holds the slave
   * any more and the reader ends without waiting out its poll. {@link #close} does this too; a
   * caller closing many terminals hangs them all up first, then closes each.
   */
  public synchronized void hangUp() {
    if (hungUp) {
      return;
    }
    hungUp = true;
    closeQuietly(slave);
  }

  /**
   * Stops the reader and closes both sides. It waits for the reader (which may be in a read of the
   * master) before it closes the master, so that the reader never reads a descriptor number that
   * has been given to another file: at once when the terminal has hung up, at most two polls when a
   * program still holds the slave.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    hangUp();
    try {
      reader.join(2 * POLL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeQuietly(master);
  }

  private void readLoop(Consumer<byte[]> output) {
    LibC c = LibC.INSTANCE;
    byte[] pollFd = new byte[8];
    ByteBuffer.wrap(pollFd)
        .order(ByteOrder.nativeOrder())
        .putInt(0, master)
        .putShort(4, LibC.POLLIN);
    byte[] buffer = new byte[8192];
    while (!hungUp) {
      try {
        pollFd[6] = 0;
        pollFd[7] = 0;
        if (c.poll(pollFd, 1, POLL_MS) == 0) {
          continue;
        }
        long n = c.read(master, buffer, buffer.length);
        if (n > 0) {
          output.accept(Arrays.copyOf(buffer, (int) n));
        }
      } catch (LastErrorException e) {
        if (e.getErrorCode() != 4 /* EINTR */) {
          return;
        }
      }
    }
  }

  private static void makeTransparent(int fd) {
    byte[] termios = new byte[TERMIOS_SIZE];
    LibC.INSTANCE.tcgetattr(fd, termios);
    ByteBuffer b = ByteBuffer.wrap(termios).order(ByteOrder.nativeOrder());
    b.putInt(OFLAG_OFFSET, b.getInt(OFLAG_OFFSET) & ~OPOST);
    b.putInt(LFLAG_OFFSET, b.getInt(LFLAG_OFFSET) & ~(ECHO | ECHONL));
    LibC.INSTANCE.tcsetattr(fd, LibC.TCSANOW, termios);
  }

  private static String cString(byte[] bytes) {
    int end = 0;
    while (end < bytes.length && bytes[end] != 0) {
      end++;
    }
    return new String(bytes, 0, end, StandardCharsets.US_ASCII);
  }

  private static void closeQuietly(int fd) {
    if (fd >= 0) {
      try {
        LibC.INSTANCE.close(fd);
      } catch (LastErrorException e) {
        // Nothing to do: the descriptor is gone either way.
      }
    }
  }
}
