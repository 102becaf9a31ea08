package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sdmfabric.model.BreakpointSpec;
import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Values read with sdm's one MI command are the values that gdb's variable objects give: the same
 * program stopped at the same line in two gdbs, one reading each way, answers every expression
 * alike, and the one command is one command.
 */
@Tag("gdb")
class ValueReaderTest {
  private static final List<String> EXPRESSIONS =
      List.of(
          "cells",
          "cells[1]",
          "cells[2].flags",
          "grid",
          "grid[1]",
          "names",
          "names[1]",
          "odd",
          "*odd@10",
          "weights",
          "first",
          "*first",
          "first->bytes",
          "opaque",
          "fn",
          "twice",
          "none",
          "total + 1",
          "sizeof(struct cell)",
          "cells[0].id == 1",
          "'x'",
          "3.5 / 2",
          "$pc == $pc");

  private final List<String> sent = new ArrayList<>();
  private GdbDebugger oneCommand;
  private GdbDebugger variableObjects;

  @BeforeAll
  static void needsGdbAndGcc() {
    TestPrograms.assumeGdbAndGcc();
  }

  @BeforeEach
  void stopBothAtTheSameLine() throws Exception {
    oneCommand =
        SharedGdb.start(
                GdbOptions.defaults()
                    .withTranscript(
                        line -> {
                          if (line.startsWith(GdbOptions.COMMAND_PREFIX)) {
                            synchronized (sent) {
                              sent.add(line);
                            }
                          }
                        }))
            .add();
    assumeTrue(oneCommand.driver().hasValueCommands(), "this gdb has no Python");
    SharedGdb plain = SharedGdb.start(GdbOptions.defaults());
    plain.driver().withoutValueCommands();
    variableObjects = plain.add();
    for (GdbDebugger gdb : List.of(oneCommand, variableObjects)) {
      EventRecorder events = new EventRecorder();
      gdb.subscribe(events);
      get(gdb.load(LaunchSpec.of(TestPrograms.get("composites").toString())));
      get(gdb.insertBreakpoint(BreakpointSpec.at("composites.c:31")));
      get(gdb.run());
      assertEquals(31, events.nextStop().frame().line());
    }
  }

  @AfterEach
  void close() {
    for (GdbDebugger gdb : new GdbDebugger[] {oneCommand, variableObjects}) {
      if (gdb != null) {
        gdb.close();
      }
    }
  }

  @Test
  void bothWaysGiveTheSameValues() throws Exception {
    for (String expression : EXPRESSIONS) {
      assertEquals(
          get(variableObjects.evaluate(expression)),
          get(oneCommand.evaluate(expression)),
          expression);
    }
  }

  @Test
  void bothWaysGiveTheSameTypes() throws Exception {
    for (String expression : EXPRESSIONS) {
      assertEquals(
          get(variableObjects.typeOf(expression)), get(oneCommand.typeOf(expression)), expression);
    }
  }

  @Test
  void bothWaysFailWithGdbsOwnMessage() throws Exception {
    for (String expression : List.of("no_such_name", "*none", "1 / 0", "cells[")) {
      DebuggerException plain =
          assertThrows(DebuggerException.class, () -> get(variableObjects.evaluate(expression)));
      DebuggerException one =
          assertThrows(DebuggerException.class, () -> get(oneCommand.evaluate(expression)));
      assertEquals(plain.getMessage(), one.getMessage(), expression);
    }
  }

  @Test
  void aValueIsOneCommand() throws Exception {
    for (String expression : List.of("total", "cells", "*first", "grid")) {
      int before = sentCount();
      Value v = get(oneCommand.evaluate(expression));
      assertEquals(1, sentCount() - before, expression + " took " + lastSent(before));
      assertTrue(v.childCount() == 0 || !v.children().isEmpty() || !v.kind().isComposite());
    }
  }

  private int sentCount() {
    synchronized (sent) {
      return sent.size();
    }
  }

  private List<String> lastSent(int from) {
    synchronized (sent) {
      return List.copyOf(sent.subList(from, sent.size()));
    }
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    try {
      return f.get(20, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }
}
