package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchConfigTest {
  /** The arguments as the DAP library hands them over: a map of JSON values. */
  private static Map<String, Object> json(String text) {
    Map<String, Object> args = new java.util.LinkedHashMap<>();
    JsonParser.parseString(text)
        .getAsJsonObject()
        .entrySet()
        .forEach(e -> args.put(e.getKey(), e.getValue()));
    return args;
  }

  @Test
  void everyAttributeIsRead() {
    LaunchConfig c =
        LaunchConfig.from(
            json(
                "{\"program\": \"/w/app\", \"args\": [\"-v\"], \"cwd\": \"/w\", \"env\": {\"A\": \"1\"},"
                    + " \"ranks\": 16, \"launcher\": \"srun\", \"launcherArgs\": [\"-N\", \"2\"],"
                    + " \"stopOnEntry\": true, \"threadPerRankUpTo\": 0, \"fromExec\": true}"));
    assertEquals(
        new LaunchConfig(
            "/w/app",
            List.of("-v"),
            "/w",
            Map.of("A", "1"),
            16,
            "srun",
            List.of("-N", "2"),
            true,
            0,
            "",
            true),
        c);
  }

  @Test
  void aProgramAloneIsFourRanksOnThisMachine() {
    LaunchConfig c = LaunchConfig.from(Map.of("program", "app"));
    assertEquals(4, c.ranks());
    assertEquals("none", c.launcher());
    assertEquals(LaunchConfig.THREAD_PER_RANK_UP_TO, c.threadPerRankUpTo());
  }

  @Test
  void wrongAttributesSayWhatIsWrong() {
    assertEquals(
        "the launch configuration names no \"program\"",
        assertThrows(IllegalArgumentException.class, () -> LaunchConfig.from(Map.of()))
            .getMessage());
    assertEquals(
        "\"launcher\" is qsub: use one of none, mpirun, mpiexec, srun, or a launcher's path",
        assertThrows(
                IllegalArgumentException.class,
                () -> LaunchConfig.from(json("{\"program\": \"a\", \"launcher\": \"qsub\"}")))
            .getMessage());
    assertEquals(
        "\"ranks\" needs at least one rank, not 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> LaunchConfig.from(json("{\"program\": \"a\", \"ranks\": 0}")))
            .getMessage());
    assertEquals(
        "\"args\" must be a list of strings, not \"-v\"",
        assertThrows(
                IllegalArgumentException.class,
                () -> LaunchConfig.from(json("{\"program\": \"a\", \"args\": \"-v\"}")))
            .getMessage());
  }
}
