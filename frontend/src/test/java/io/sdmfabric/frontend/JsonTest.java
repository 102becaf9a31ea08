package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void anObjectKeepsTheOrderItsKeysWereGivenIn() {
    assertEquals(
        "{\"z\":1,\"a\":[true,\"x\"],\"m\":{\"k\":\"v\\n\"}}",
        Json.write(Json.object("z", 1, "a", List.of(true, "x"), "m", Json.object("k", "v\n"))));
  }

  @Test
  void aMapWithoutAFixedKeyOrderIsRefused() {
    Map<String, Object> hashed = new HashMap<>(Map.of("a", 1, "b", 2));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of("a", 1, "b", 2)));
    assertThrows(IllegalArgumentException.class, () -> Json.write(hashed));
    assertThrows(
        IllegalArgumentException.class, () -> Json.write(List.of(Json.object("x", hashed))));
    // One key has one order; a sorted map has its own.
    assertEquals("{\"a\":1}", Json.write(Map.of("a", 1)));
    assertEquals("{\"a\":1,\"b\":2}", Json.write(new TreeMap<>(Map.of("b", 2, "a", 1))));
  }

  @Test
  void objectRefusesWhatIsNoObject() {
    assertThrows(IllegalArgumentException.class, () -> Json.object("a"));
    assertThrows(IllegalArgumentException.class, () -> Json.object(1, "a"));
    assertThrows(IllegalArgumentException.class, () -> Json.object("a", 1, "a", 2));
    assertThrows(IllegalArgumentException.class, () -> Json.object("a", null));
  }

  @Test
  void variablesAndSignalsComeWithTheirFieldsInTheDocumentedOrder() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    JsonRenderer r = new JsonRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    r.reply(
        "locals",
        "",
        new RankReply(
            RankSet.of(0),
            EventBodies.variables(List.of(Value.scalar("n", "int", Value.Kind.INTEGER, 4, "42")))));
    r.reply(
        "info signals",
        "",
        new RankReply(
            RankSet.of(0),
            EventBodies.signals(
                List.of(new SignalInfo("SIGINT", true, true, false, "Interrupt")))));
    assertEquals(
        List.of(
            "{\"event\":\"variables\",\"ranks\":\"0\",\"variables\":"
                + "[{\"name\":\"n\",\"type\":\"int\",\"value\":\"42\"}]}",
            "{\"event\":\"signals\",\"ranks\":\"0\",\"signals\":[{\"name\":\"SIGINT\","
                + "\"stop\":true,\"print\":true,\"pass\":false,\"description\":\"Interrupt\"}]}"),
        bytes.toString(StandardCharsets.UTF_8).lines().toList());
  }
}
