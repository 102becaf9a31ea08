package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProgramPidsTest {
  private final ProgramPids pids = new ProgramPids();

  @Test
  void aProgramsProcessIsKnownFromItsStartToItsExit() throws MiParseException {
    pids.onRecord(MiParser.parse("=thread-group-started,id=\"i2\",pid=\"4242\""));
    assertEquals(OptionalLong.of(4242), pids.of("i2"));
    assertEquals(OptionalLong.empty(), pids.of("i1"));
    pids.onRecord(MiParser.parse("=thread-group-exited,id=\"i2\",exit-code=\"0\""));
    assertEquals(OptionalLong.empty(), pids.of("i2"));
  }

  @Test
  void otherRecordsAndAnEndGdbDidNotTellChangeWhatIsKnown() throws MiParseException {
    pids.onRecord(MiParser.parse("=thread-group-started,id=\"i1\",pid=\"7\""));
    pids.onRecord(MiParser.parse("*stopped,reason=\"exited-normally\""));
    pids.onRecord(MiParser.parse("^done,id=\"i1\""));
    assertEquals(OptionalLong.of(7), pids.of("i1"));
    pids.ended("i1");
    assertEquals(OptionalLong.empty(), pids.of("i1"));
  }
}
