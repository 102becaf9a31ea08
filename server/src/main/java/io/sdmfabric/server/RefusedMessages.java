package io.sdmfabric.server;

import io.sdmfabric.model.RateLimitedLog;
import io.sdmfabric.model.TerminalText;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.event.DefaultLoggingFilter;
import org.apache.pekko.event.EventStream;
import org.apache.pekko.event.LogMarker;
import org.apache.pekko.event.Logging;

/**
 * The messages from other JVMs that this JVM drops undecoded, on its log: one line per source and
 * {@link #INTERVAL}, with a count, escaped, without a stack trace. Over aeron-udp anyone on the
 * network can send them, and each costs its sender one packet.
 *
 * <p>Artery's deserializer logs every message that fails to deserialize as an error with the
 * exception's stack trace (some 30 lines each) and the message's manifest as it came (a title
 * escape or a screen clear from the network reaches the terminal). So {@link Filter}, this JVM's
 * {@code pekko.logging-filter} (reference.conf), turns that error off, and this class writes its
 * own line instead: {@link SealingSerializer} tells it of each message it refuses (the sender the
 * message names, its manifest escaped, why), on the deserializer's own thread just before that
 * would log, and the filter says one line for any other message that did not decode (Pekko's own,
 * forged or garbled) under the source {@value #UNDECODED}. The first line of each source in an
 * interval is shown, the others counted ({@link RateLimitedLog}, at most {@value #MAX_SOURCES}
 * sources at once and one more for the others).
 */
public final class RefusedMessages {
  /** The interval over which each source gets one line. */
  public static final Duration INTERVAL = Duration.ofSeconds(10);

  /** The source of messages that did not decode and that no serializer of sdm's refused. */
  public static final String UNDECODED = "messages of no sdm serializer";

  static final int MAX_SOURCES = 16;

  /** How much of a refused message's manifest its line quotes. */
  static final int MANIFEST_CHARS = 64;

  /** The class of Artery's stage that deserializes, and logs a failure as an error. */
  private static final String DESERIALIZER = "org.apache.pekko.remote.artery.Deserializer";

  /** Set on the deserializer's thread when a refusal has been told, so that it is told once. */
  private static final ThreadLocal<Boolean> TOLD = new ThreadLocal<>();

  private final RateLimitedLog log;

  RefusedMessages(Consumer<String> out, java.util.function.LongSupplier nanoTime) {
    this.log = new RateLimitedLog(out, INTERVAL, 1, MAX_SOURCES, "refused messages", nanoTime);
  }

  /**
   * Tells of a message {@code system} refused: {@code sender} as the message names it (empty: it
   * names none), its {@code manifest}, {@code why}. Without this JVM's {@link Filter} (another
   * logging filter configured) it tells nothing, and Pekko logs the failure as before.
   */
  static void refused(ActorSystem system, String sender, String manifest, String why) {
    if (system instanceof ExtendedActorSystem extended
        && extended.logFilter() instanceof Filter filter) {
      filter.refusals.refused(sender, manifest, why);
      TOLD.set(Boolean.TRUE);
    }
  }

  /** Forgets a refusal told on this thread that no deserializer logged: a new message comes. */
  static void newMessage() {
    TOLD.remove();
  }

  /**
   * Writes, every {@link #INTERVAL}, the counts of {@code system}'s refusals whose interval is
   * over, so that the count of a flood that stopped is told too. Once per system; nothing without
   * its {@link Filter}.
   */
  static void flushEveryInterval(ActorSystem system) {
    if (system instanceof ExtendedActorSystem extended
        && extended.logFilter() instanceof Filter filter
        && filter.flushing.compareAndSet(false, true)) {
      system
          .scheduler()
          .scheduleWithFixedDelay(INTERVAL, INTERVAL, filter.refusals::flush, system.dispatcher());
    }
  }

  void refused(String sender, String manifest, String why) {
    String source = sender.isEmpty() ? "no sender named" : "sender " + sender;
    log.log(
        source,
        "sdm: refused a message from "
            + source
            + " (manifest \""
            + TerminalText.escape(shorten(manifest))
            + "\"): "
            + TerminalText.escape(why));
  }

  void undecoded() {
    log.log(
        UNDECODED,
        "sdm: dropped a message from another JVM that did not decode (not one of sdm's sealed"
            + " messages: Pekko's own, forged or garbled)");
  }

  /** Writes the counts of the intervals that are over. */
  void flush() {
    log.flush();
  }

  private static String shorten(String manifest) {
    return manifest.length() <= MANIFEST_CHARS
        ? manifest
        : manifest.substring(0, MANIFEST_CHARS) + "... (" + manifest.length() + " chars)";
  }

  /**
   * Pekko's {@link DefaultLoggingFilter}, but for the error Artery's deserializer logs for a
   * message that did not decode, which it turns off and tells as {@link RefusedMessages} does. Set
   * as {@code pekko.logging-filter} in the server's reference.conf.
   */
  public static final class Filter extends DefaultLoggingFilter {
    private final RefusedMessages refusals;
    private final java.util.concurrent.atomic.AtomicBoolean flushing =
        new java.util.concurrent.atomic.AtomicBoolean();

    public Filter(ActorSystem.Settings settings, EventStream eventStream) {
      super(settings, eventStream);
      this.refusals =
          new RefusedMessages(
              line ->
                  eventStream.publish(
                      new Logging.Warning("sdm.fabric", RefusedMessages.class, line)),
              System::nanoTime);
    }

    @Override
    public boolean isErrorEnabled(Class<?> logClass, String logSource) {
      if (logClass != null && logClass.getName().startsWith(DESERIALIZER)) {
        if (TOLD.get() == null) {
          refusals.undecoded();
        }
        TOLD.remove();
        return false;
      }
      return super.isErrorEnabled(logClass, logSource);
    }

    @Override
    public boolean isErrorEnabled(Class<?> logClass, String logSource, LogMarker marker) {
      return isErrorEnabled(logClass, logSource)
          && super.isErrorEnabled(logClass, logSource, marker);
    }

    /** The refusals this JVM tells of. */
    RefusedMessages refusals() {
      return refusals;
    }
  }
}
