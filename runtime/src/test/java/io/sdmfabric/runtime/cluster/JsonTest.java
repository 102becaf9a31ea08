package io.sdmfabric.runtime.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void readsEveryKindOfValueKeepingTheKeysOrder() {
    Object v =
        Json.parse(
            " {\"b\": [1, -2.5e1, true, false, null], \"a\": \"x\\/y\\n\\u00e9\", \"c\": {},"
                + " \"big\": 6090769305000000000000}");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("b", List.of(1L, new BigDecimal("-2.5e1"), true, false, Json.NULL));
    expected.put("a", "x/y\né");
    expected.put("c", Map.of());
    expected.put("big", new BigInteger("6090769305000000000000"));
    assertEquals(expected, v);
    assertEquals(List.of("b", "a", "c", "big"), List.copyOf(((Map<?, ?>) v).keySet()));
  }

  @Test
  void refusesWhatIsNotJsonSayingWhere() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1,}"));
    assertEquals("not JSON: a key expected at character 8", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1] x"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("\"open"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("01"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("\"tab\there\""));
    assertThrows(IllegalArgumentException.class, () -> Json.parse(""));
  }

  @Test
  void writesWhatItReadsAndKeepsTerminalControlsOffTheTerminal() {
    String text = "{\"name\":\"a\\u001b[2Jb\\u0009c\",\"n\":[1,null,true]}";
    assertEquals(text, Json.write(Json.parse(text)));
    assertEquals("\"\\\"q\\\\\"", Json.write("\"q\\"));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of("a", 1, "b", 2)));
  }
}
