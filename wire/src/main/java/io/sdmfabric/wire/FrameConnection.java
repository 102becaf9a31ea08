package io.sdmfabric.wire;

import io.sdmfabric.wire.proto.Frame;
import io.sdmfabric.wire.proto.Refused;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;

/**
 * One TCP connection of the front-end protocol, carrying {@link Frames} inside TLS ({@link
 * FrameTls}: {@link #dial} and {@link #accept}; {@link #plain} only for tests). It works in two
 * stages: first blocking {@link #read} and {@link #write} for the handshake, then, after {@link
 * #start}, a reader thread that hands every frame to a {@link Listener} and a writer thread that
 * sends what {@link #send} queues, so that no caller ever blocks on the network.
 *
 * <p>Until the handshake has succeeded ({@link #authenticated}) a connection is a stranger's: it
 * reads frames of at most {@link #HANDSHAKE_MAX_BYTES}, and one deadline, set when {@link #dial} or
 * {@link #accept} is called, covers its whole handshake (TCP connect, TLS, and the {@link
 * Handshake} after): when it passes the socket is closed, however slowly the other side sends its
 * bytes.
 *
 * <p>Its memory is bounded both ways: a frame longer than the limit is refused before it is read,
 * and when more than {@link #MAX_QUEUED_BYTES} wait to be written (the other side does not read)
 * the connection is closed rather than buffering without end. Bad frames are answered with {@code
 * Refused} and a closed connection; bytes that TLS refuses (altered, injected, replayed or
 * reordered on the way) end it with a reason that says so. The listener hears {@link
 * Listener#closed} exactly once, whichever side or failure ended the connection.
 */
public final class FrameConnection implements AutoCloseable {
  /**
   * The largest frame read before {@link #authenticated}: the handshake's frames are small, and a
   * stranger must not make this side allocate what it announces.
   */
  public static final int HANDSHAKE_MAX_BYTES = 4096;

  /** How many bytes may wait to be written before the connection is given up, by default. */
  public static final long MAX_QUEUED_BYTES = 64L << 20;

  /** What a started connection hands on; called on the connection's reader thread. */
  public interface Listener {
    /** A frame arrived. */
    void frame(Frame frame);

    /** The connection is closed; {@code reason} says why. */
    void closed(String reason);
  }

  /** What the writer thread takes: a frame, or the order to close after what came before. */
  private record Outgoing(Frame frame, String closeReason) {}

  private final Socket socket;
  private final HandshakeDeadline deadline;
  private final byte[] channelBinding;
  private final int maxFrameBytes;
  private volatile int readLimit;
  private final long maxQueuedBytes;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final String peer;
  private final LinkedBlockingQueue<Outgoing> outbox = new LinkedBlockingQueue<>();
  private final AtomicLong queuedBytes = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final CompletableFuture<String> whenClosed = new CompletableFuture<>();
  private volatile Listener listener;

  private FrameConnection(
      Socket socket,
      HandshakeDeadline deadline,
      byte[] channelBinding,
      int maxFrameBytes,
      long maxQueuedBytes)
      throws IOException {
    this.socket = socket;
    this.deadline = deadline;
    this.channelBinding = channelBinding;
    this.maxFrameBytes = maxFrameBytes;
    this.readLimit = Math.min(HANDSHAKE_MAX_BYTES, maxFrameBytes);
    this.maxQueuedBytes = maxQueuedBytes;
    socket.setTcpNoDelay(true);
    socket.setKeepAlive(true); // a peer that vanished without a word is noticed, in time
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    this.peer = socket.getRemoteSocketAddress().toString();
  }

  /**
   * A connection over a connected socket without TLS, refusing frames over {@code maxFrameBytes}:
   * for tests of the framing and the handshake only. Nothing in sdm talks to another process over
   * one.
   */
  public static FrameConnection plain(Socket socket, int maxFrameBytes) throws IOException {
    return new FrameConnection(
        socket, HandshakeDeadline.none(), new byte[0], maxFrameBytes, MAX_QUEUED_BYTES);
  }

  /**
   * A plain connection that also gives up once more than {@code maxQueuedBytes} wait to be sent.
   */
  static FrameConnection plain(Socket socket, int maxFrameBytes, long maxQueuedBytes)
      throws IOException {
    return new FrameConnection(
        socket, HandshakeDeadline.none(), new byte[0], maxFrameBytes, maxQueuedBytes);
  }

  /** A plain connection with the default frame limit: for tests only, as {@link #plain}. */
  public static FrameConnection plain(Socket socket) throws IOException {
    return plain(socket, Frames.DEFAULT_MAX_BYTES);
  }

  /**
   * Connects to {@code host:port} and runs TLS as its client. {@code timeout} is the deadline of
   * the whole handshake, from now: the connection is closed unless {@link Handshake#dial} has
   * succeeded on it by then.
   *
   * @throws IOException when it cannot within {@code timeout}; the message names the address
   */
  public static FrameConnection dial(String host, int port, Duration timeout) throws IOException {
    Socket socket = new Socket();
    HandshakeDeadline deadline = HandshakeDeadline.start(socket, timeout);
    try {
      socket.connect(new InetSocketAddress(host, port), (int) Math.max(1, timeout.toMillis()));
      return secured(FrameTls.client(socket, FrameTls.Side.fresh()), deadline, true, timeout);
    } catch (IOException e) {
      deadline.callOff();
      socket.close();
      String where = "cannot connect to " + host + ":" + port + ": ";
      if (deadline.passed()) {
        throw new Handshake.DeadlineException(where + deadline.failure().getMessage());
      }
      if (e instanceof Handshake.DeadlineException) {
        throw new Handshake.DeadlineException(where + e.getMessage());
      }
      throw new IOException(where + e.getMessage(), e);
    }
  }

  /**
   * Runs TLS as the server over a connection this side accepted. {@code timeout} is the deadline of
   * the whole handshake, from now: the connection is closed unless {@link Handshake#answer} has
   * succeeded on it by then.
   *
   * @throws IOException when the TLS handshake fails or does not end within {@code timeout}; the
   *     socket is then closed
   */
  public static FrameConnection accept(Socket socket, Duration timeout) throws IOException {
    return accept(socket, timeout, TlsIdentity.generate("sdm front-end protocol"));
  }

  /**
   * As {@link #accept(Socket, Duration)}, presenting {@code identity}: a side that accepts many
   * connections (sdm listen) makes its identity once, so that a connection costs it nothing before
   * the other side has sent a TLS hello.
   */
  public static FrameConnection accept(Socket socket, Duration timeout, TlsIdentity identity)
      throws IOException {
    HandshakeDeadline deadline = HandshakeDeadline.start(socket, timeout);
    try {
      return secured(FrameTls.server(socket, FrameTls.Side.of(identity)), deadline, false, timeout);
    } catch (IOException e) {
      deadline.callOff();
      socket.close();
      throw deadline.passed() ? deadline.failure() : e;
    }
  }

  private static FrameConnection secured(
      FrameTls.Secured secured, HandshakeDeadline deadline, boolean dialer, Duration timeout)
      throws IOException {
    SSLSocket tls = secured.socket();
    // The deadline bounds the whole; this bounds each read, so that a silent peer is noticed even
    // if the deadline's timer were late.
    tls.setSoTimeout((int) Math.max(1, timeout.toMillis()));
    try {
      tls.startHandshake();
    } catch (SocketTimeoutException e) {
      throw new Handshake.DeadlineException(
          "no TLS handshake within " + timeout.toMillis() + " ms");
    }
    tls.setSoTimeout(0);
    byte[] mine = secured.fingerprint();
    byte[] theirs = TlsIdentity.fingerprint(tls.getSession().getPeerCertificates()[0]);
    ByteArrayOutputStream binding = new ByteArrayOutputStream();
    binding.writeBytes(dialer ? mine : theirs);
    binding.writeBytes(dialer ? theirs : mine);
    return new FrameConnection(
        tls, deadline, binding.toByteArray(), Frames.DEFAULT_MAX_BYTES, MAX_QUEUED_BYTES);
  }

  /**
   * What ties the handshake's proofs to this very connection: over TLS, the SHA-256 fingerprints of
   * the dialer's and then the answerer's certificate as this side saw them; empty on a {@link
   * #plain} connection.
   */
  public byte[] channelBinding() {
    return channelBinding.clone();
  }

  /**
   * The handshake succeeded: its deadline is called off, and frames up to the full limit may come
   * now.
   *
   * @throws IOException when the deadline passed first; the connection is closed
   */
  public void authenticated() throws IOException {
    if (!deadline.callOff()) {
      closeNow(deadline.failure().getMessage());
      throw deadline.failure();
    }
    readLimit = maxFrameBytes;
  }

  /** The other side's address, for messages. */
  public String peer() {
    return peer;
  }

  /**
   * Reads one frame, waiting at most {@code timeout}: the handshake's stage only.
   *
   * @throws FrameException when the bytes are not a frame (answer with {@link #refuse})
   * @throws SocketTimeoutException when nothing came in time
   * @throws IOException when the connection ended (a {@link Handshake.DeadlineException} when the
   *     handshake's deadline closed it)
   */
  public Frame read(Duration timeout) throws IOException {
    socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
    try {
      return Frames.read(in, readLimit);
    } catch (SocketTimeoutException e) {
      throw new SocketTimeoutException(
          "no answer from " + peer + " within " + timeout.toMillis() + " ms");
    } catch (IOException e) {
      throw deadline.passed() ? deadline.failure() : e;
    } finally {
      if (!socket.isClosed()) {
        socket.setSoTimeout(0);
      }
    }
  }

  /** Writes and flushes one frame: the handshake's stage only. */
  public void write(Frame frame) throws IOException {
    try {
      Frames.write(out, frame);
      out.flush();
    } catch (IOException e) {
      throw deadline.passed() ? deadline.failure() : e;
    }
  }

  /**
   * Starts the reader and writer threads: from now on frames go to {@code listener}, and {@link
   * #send} is the only way to write.
   */
  public void start(Listener listener, String name) {
    this.listener = listener;
    Thread reader = new Thread(this::readLoop, name + "-in");
    Thread writer = new Thread(this::writeLoop, name + "-out");
    reader.setDaemon(true);
    writer.setDaemon(true);
    writer.start();
    reader.start();
  }

  /**
   * Queues a frame for the writer thread; never blocks. When too much is waiting already, the
   * connection is closed instead. Frames sent after the connection closed are dropped.
   */
  public void send(Frame frame) {
    if (closed.get()) {
      return;
    }
    long waiting = queuedBytes.addAndGet(frame.getSerializedSize());
    if (waiting > maxQueuedBytes) {
      close(
          "the other side does not read: more than "
              + (maxQueuedBytes >> 20)
              + " MiB are waiting to be sent");
      return;
    }
    outbox.add(new Outgoing(frame, null));
  }

  /**
   * Tells the other side why it is refused, then closes. Before {@link #start} it writes at once;
   * after, the refusal goes behind what is queued.
   */
  public void refuse(String reason) {
    Frame refused = Frame.newBuilder().setRefused(Refused.newBuilder().setReason(reason)).build();
    if (listener == null) {
      try {
        write(refused);
      } catch (IOException e) {
        // The other side is gone already; closing is all there is to do.
      }
      closeNow(reason);
    } else {
      sendThenClose(refused, reason);
    }
  }

  /** Queues {@code last}, then closes once it is written. */
  public void sendThenClose(Frame last, String reason) {
    if (listener == null) {
      try {
        write(last);
      } catch (IOException e) {
        // Gone already.
      }
      closeNow(reason);
      return;
    }
    outbox.add(new Outgoing(last, null));
    outbox.add(new Outgoing(null, reason));
  }

  /** Closes at once; what is queued is dropped. */
  public void close(String reason) {
    closeNow(reason);
  }

  @Override
  public void close() {
    closeNow("closed");
  }

  /** Whether the connection is closed. */
  public boolean isClosed() {
    return closed.get();
  }

  /** Completes with the reason once the connection is closed. */
  public CompletableFuture<String> whenClosed() {
    return whenClosed;
  }

  private void closeNow(String reason) {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    deadline.callOff();
    try {
      socket.close();
    } catch (IOException e) {
      // Closed is closed.
    }
    outbox.add(new Outgoing(null, reason)); // wakes the writer thread
    Listener l = listener;
    if (l != null) {
      l.closed(reason);
    }
    whenClosed.complete(reason);
  }

  private void readLoop() {
    while (!closed.get()) {
      Frame frame;
      try {
        frame = Frames.read(in, readLimit);
      } catch (FrameException e) {
        refuse(e.getMessage());
        return;
      } catch (EOFException e) {
        closeNow("the other side closed the connection");
        return;
      } catch (IOException e) {
        closeNow(closed.get() ? "closed" : lost(e));
        return;
      }
      try {
        listener.frame(frame);
      } catch (RuntimeException e) {
        refuse("a " + frame.getKindCase() + " frame that cannot be used: " + e.getMessage());
        return;
      }
    }
  }

  private void writeLoop() {
    try {
      while (true) {
        Outgoing next = outbox.take();
        if (next.frame() == null) {
          out.flush();
          closeNow(next.closeReason());
          return;
        }
        Frames.write(out, next.frame());
        queuedBytes.addAndGet(-next.frame().getSerializedSize());
        if (outbox.isEmpty()) {
          out.flush();
        }
      }
    } catch (IOException e) {
      closeNow(lost(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeNow("interrupted");
    }
  }

  /**
   * Why the connection was lost. TLS refuses a record that was altered, injected, replayed or
   * reordered (its authentication fails; {@code bad_record_mac}, or {@code unexpected_message} for
   * bytes that are not a record at all), and so does the other side, which then sends an alert: say
   * what that means rather than only TLS's words.
   */
  private static String lost(IOException e) {
    if (e instanceof SSLException) {
      return "connection lost: TLS refused the connection's bytes ("
          + e.getMessage()
          + "): they were altered, injected, replayed or reordered on the way, or a side failed";
    }
    return "connection lost: " + e.getMessage();
  }
}
