package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AttachConfigTest {
  private static Map<String, Object> json(String text) {
    Map<String, Object> args = new LinkedHashMap<>();
    JsonParser.parseString(text)
        .getAsJsonObject()
        .entrySet()
        .forEach(e -> args.put(e.getKey(), e.getValue()));
    return args;
  }

  @Test
  void processesAreTargetsAsSdmAttachTakesThem() {
    AttachConfig c =
        AttachConfig.from(
            json("{\"targets\": [\"node2:11,12\", \"42\"], \"rsh\": \"rsh -x\", \"cwd\": \"/w\"}"));
    assertEquals(
        new AttachConfig(
            List.of("node2:11,12", "42"),
            "",
            "rsh -x",
            false,
            AttachConfig.LISTEN_SECONDS,
            "/w",
            false,
            LaunchConfig.THREAD_PER_RANK_UP_TO),
        c);
  }

  @Test
  void aSlurmStepOrListeningAreTheOtherWays() {
    assertEquals("123.0", AttachConfig.from(json("{\"slurm\": \" 123.0 \"}")).slurm());
    AttachConfig listen = AttachConfig.from(json("{\"listen\": true, \"listenSeconds\": 30}"));
    assertTrue(listen.listen());
    assertEquals(30, listen.listenSeconds());
  }

  @Test
  void exactlyOneWayIsTaken() {
    for (String wrong :
        List.of("{}", "{\"targets\": [\"1\"], \"slurm\": \"5\"}", "{\"listen\": false}")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> AttachConfig.from(json(wrong)));
      assertTrue(e.getMessage().startsWith("an attach configuration takes one of"), wrong);
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> AttachConfig.from(json("{\"listen\": true, \"listenSeconds\": 0}")));
  }
}
