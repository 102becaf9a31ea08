package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The sdm command's logging: what logback.xml said, found by logback without reading XML. */
class LogSettingsTest {
  @Test
  void logbackFindsTheSettings() {
    assertTrue(
        ServiceLoader.load(Configurator.class).stream()
            .anyMatch(p -> p.type().equals(LogSettings.class)));
  }

  @Test
  void warningsAndWorseGoToStandardErrorInTheCommandsPattern() {
    LoggerContext context = new LoggerContext();
    LogSettings settings = new LogSettings();
    settings.setContext(context);
    assertEquals(
        Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY, settings.configure(context));
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertEquals(Level.WARN, root.getLevel());
    ConsoleAppender<?> stderr = (ConsoleAppender<?>) root.getAppender("STDERR");
    assertEquals("System.err", stderr.getTarget());
    assertTrue(stderr.isStarted());
    assertEquals(
        "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n",
        ((PatternLayoutEncoder) stderr.getEncoder()).getPattern());
    assertEquals(Level.ERROR, context.getLogger("org.apache.pekko.serialization").getLevel());
    context.stop();
  }
}
