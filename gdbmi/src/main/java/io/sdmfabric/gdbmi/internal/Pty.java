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
 * -inferior-tty-set}); the program's output is read from the master side by a {@link PtyReader},
 * which reads the terminals of all of a gdb's programs on one thread, and this class writes the
 * program's input to it.
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

  /**
   * How long a closing terminal is still read while a program holds its slave, for the output it
   * has not read yet.
   */
  public static final long CLOSE_GRACE_MS = 400;

  private final PtyReader reader;
  private final int master;
  private final int slave;
  private final String slaveName;
  private volatile boolean hungUp;
  private volatile boolean closed;

  private Pty(PtyReader reader, int master, int slave, String slaveName) {
    this.reader = reader;
    this.master = master;
    this.slave = slave;
    this.slaveName = slaveName;
  }

  /**
   * Opens a new pseudo-terminal and has {@code reader} read it.
   *
   * @param output receives each chunk the program writes, on the reader's thread
   */
  public static Pty open(PtyReader reader, Consumer<byte[]> output) throws IOException {
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
      reader.watch(master, output);
      return new Pty(reader, master, slave, slaveName);
    } catch (LastErrorException | IOException e) {
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
   * any more, and its reader lets go of it. {@link #close} does this too; a caller closing many
   * terminals hangs them all up first, then closes each.
   */
  public synchronized void hangUp() {
    if (hungUp) {
      return;
    }
    hungUp = true;
    closeQuietly(slave);
  }

  /**
   * Closes both sides, once the reader has let go of the master (so that it never reads a
   * descriptor number that has been given to another file): at once when the terminal has hung up,
   * after {@link #CLOSE_GRACE_MS} at most when a program still holds the slave.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    hangUp();
    reader.release(master, CLOSE_GRACE_MS);
    closeQuietly(master);
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
    PtyReader.closeQuietly(fd);
  }
}
