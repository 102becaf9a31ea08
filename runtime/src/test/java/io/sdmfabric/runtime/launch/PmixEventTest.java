package io.sdmfabric.runtime.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PmixEventTest {
  @Test
  void theHelpersLinesAreItsEvents() {
    // As sdm_pmix printed them for Open MPI 5.0.7's mpirun (2026-11-27).
    assertEquals(new PmixEvent.Launcher("vm:30466:1"), PmixEvent.parse("launcher vm:30466:1"));
    assertEquals(new PmixEvent.Job("vm:30466:1@1", 4), PmixEvent.parse("job vm:30466:1@1 4"));
    assertEquals(new PmixEvent.Proc(2, "vm", 30473), PmixEvent.parse("proc 2 vm 30473"));
    assertEquals(new PmixEvent.Procs(4), PmixEvent.parse("procs 4"));
    assertEquals(
        new PmixEvent.Output(0, false, "total = 4, expected 10\n"),
        PmixEvent.parse("out 0 stdout total%20=%204,%20expected%2010%0A"));
    assertEquals(
        new PmixEvent.Ended(0, "the job ended"), PmixEvent.parse("ended 0 the%20job%20ended"));
    assertEquals(new PmixEvent.Released(), PmixEvent.parse("released"));
  }

  @Test
  void aLineThatIsNoEventIsRefusedSayingSo() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PmixEvent.parse("proc two vm 1"));
    assertEquals("not an event of sdm_pmix: proc two vm 1", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PmixEvent.parse("job"));
    assertThrows(IllegalArgumentException.class, () -> PmixEvent.parse("hello"));
  }

  @Test
  void textIsEscapedSoThatEveryWordStaysOneAndBackAgain() {
    String text = "a b%c\n\u00e9\u0001";
    String escaped = PmixEvent.escape(text);
    assertEquals("a%20b%25c%0A%C3%A9%01", escaped);
    assertEquals(text, PmixEvent.unescape(escaped));
    assertEquals("100%", PmixEvent.unescape("100%"), "a lone % is itself");
  }

  @Test
  void theDaemonsCommandEscapesEachWordOfTheAgentsCommandLine() {
    assertEquals(
        "daemons /h/sdm_pmix local java -cp /a%20b/sdm.jar agent",
        PmixTool.daemons(Path.of("/h/sdm_pmix"), List.of("java", "-cp", "/a b/sdm.jar", "agent")));
  }
}
