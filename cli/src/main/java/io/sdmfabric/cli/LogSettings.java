package io.sdmfabric.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The sdm command's logging, as logback finds it (through {@code META-INF/services}): the levels
 * and the pattern, every line to standard error. Where lines go then is {@code runtime}'s {@code
 * LibraryLog}: the sdm command writes those of sdm's own loggers ({@code io.sdmfabric}) to standard
 * error, as this appender would, and the others' (Pekko, Aeron) to a file of the run under
 * ~/.sdm/logs, unless sdm is verbose; an agent marks the others' lines for its master. Tests that
 * run a command in their own JVM keep this appender.
 *
 * <p>Written here rather than in a {@code logback.xml}: logback reads its XML with the JDK's SAX
 * parser, which costs a JVM's start tens of milliseconds (issue #30, item 2).
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogSettings extends ContextAwareBase implements Configurator {
  /** The pattern of every line. */
  static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    // Over aeron-udp Pekko's own serializers are wrapped in sdm's seal (SealedPekkoSerializer),
    // and Pekko warns once per message class that a serializer not its own is used for it.
    context.getLogger("org.apache.pekko.serialization").setLevel(Level.ERROR);
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(stderr);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
