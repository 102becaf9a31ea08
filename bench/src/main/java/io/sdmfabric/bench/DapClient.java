package io.sdmfabric.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.TerminatedEventArguments;
import org.eclipse.lsp4j.debug.ThreadEventArguments;
import org.eclipse.lsp4j.debug.launch.DSPLauncher;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;
import org.eclipse.lsp4j.jsonrpc.Launcher;

/**
 * The client's end of a DAP session with {@code sdm dap} in a subprocess, on LSP4J's client
 * launcher, as an editor holds it: requests go through {@link #server()}, and the events the
 * adapter sends are recorded as they arrive (on LSP4J's reader thread, which they never block):
 * each {@code stopped} event with the {@link System#nanoTime()} of its arrival, {@code thread}
 * events counted, the last lines of {@code output} kept for a failure's message. Closing it ends
 * the adapter's input and kills the process if it is still there.
 */
final class DapClient implements IDebugProtocolClient, AutoCloseable {
  /** How long a request or an awaited event may take before the runner gives up. */
  static final long WAIT_SECONDS = 120;

  private static final int OUTPUT_LINES = 20;

  private final Process process;
  // LSP4J's own pool has threads that are not daemons and idle for 60 s: the runner's JVM would
  // wait for them at its end.
  private final ExecutorService executor =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "dap-client");
            t.setDaemon(true);
            return t;
          });
  private final IDebugProtocolServer server;
  private final CompletableFuture<Void> initialized = new CompletableFuture<>();
  // Guarded by this.
  private final List<Long> stops = new ArrayList<>();
  private final Deque<String> output = new ArrayDeque<>();
  private int threadEvents;
  private boolean terminated;

  private DapClient(Process process) {
    this.process = process;
    Launcher<IDebugProtocolServer> launcher =
        DSPLauncher.createClientLauncher(
            this, process.getInputStream(), process.getOutputStream(), executor, w -> w);
    launcher.startListening();
    this.server = launcher.getRemoteProxy();
  }

  /**
   * Starts {@code command} (java, -jar, sdm.jar, dap), its standard error written to {@code log}.
   */
  static DapClient start(List<String> command, Path log) throws IOException {
    return new DapClient(
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start());
  }

  /** The adapter process. */
  Process process() {
    return process;
  }

  /** The adapter's requests. */
  IDebugProtocolServer server() {
    return server;
  }

  /** The result of a request, or the adapter's error as an exception with its recent output. */
  <T> T await(CompletableFuture<T> request) throws InterruptedException {
    try {
      return request.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "the adapter refused a request: " + e.getCause().getMessage() + recentOutput(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "no response from the adapter in " + WAIT_SECONDS + " s" + recentOutput(), e);
    }
  }

  /** Waits for the {@code initialized} event. */
  void awaitInitialized() throws InterruptedException {
    await(initialized);
  }

  /** The number of {@code stopped} events so far. */
  synchronized int stops() {
    return stops.size();
  }

  /** When the {@code index}th {@code stopped} event (from 0) arrived, in nanoTime. */
  synchronized long stopArrival(int index) {
    return stops.get(index);
  }

  /** The number of {@code thread} events so far. */
  synchronized int threadEvents() {
    return threadEvents;
  }

  /** Waits until more than {@code seen} {@code stopped} events have arrived. */
  synchronized void awaitStopsBeyond(int seen) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (stops.size() <= seen) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || terminated) {
        throw new IllegalStateException(
            (terminated ? "the session terminated" : "no stopped event in " + WAIT_SECONDS + " s")
                + " after "
                + seen
                + recentOutput());
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  @Override
  public void initialized() {
    initialized.complete(null);
  }

  @Override
  public synchronized void stopped(StoppedEventArguments args) {
    stops.add(System.nanoTime());
    notifyAll();
  }

  @Override
  public synchronized void thread(ThreadEventArguments args) {
    threadEvents++;
  }

  @Override
  public synchronized void terminated(TerminatedEventArguments args) {
    terminated = true;
    notifyAll();
  }

  @Override
  public synchronized void output(OutputEventArguments args) {
    output.addLast(args.getOutput().strip());
    if (output.size() > OUTPUT_LINES) {
      output.removeFirst();
    }
  }

  private synchronized String recentOutput() {
    return output.isEmpty() ? "" : "; the adapter's last output:\n  " + String.join("\n  ", output);
  }

  @Override
  public void close() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // The adapter has gone already.
    }
    process.destroyForcibly();
    executor.shutdownNow();
  }
}
