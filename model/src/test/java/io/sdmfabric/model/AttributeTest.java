package io.sdmfabric.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class AttributeTest {

  private static final AttributeDefinition<String> NAME =
      new AttributeDefinition<>("name", String.class, "Name", "", "");
  private static final AttributeDefinition<Long> BYTES =
      new AttributeDefinition<>("bytes", Long.class, "Bytes", "", 0L);

  @Test
  void definitionRejectsBlankIdsAndNames() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new AttributeDefinition<>(" ", String.class, "Name", "", ""));
    assertThrows(
        IllegalArgumentException.class,
        () -> new AttributeDefinition<>("id", String.class, "", "", ""));
  }

  @Test
  void definitionRejectsNullComponents() {
    assertThrows(
        NullPointerException.class,
        () -> new AttributeDefinition<>(null, String.class, "Name", "", ""));
    assertThrows(
        NullPointerException.class, () -> new AttributeDefinition<>("id", null, "Name", "", ""));
    assertThrows(
        NullPointerException.class,
        () -> new AttributeDefinition<>("id", String.class, "Name", null, ""));
    assertThrows(
        NullPointerException.class,
        () -> new AttributeDefinition<String>("id", String.class, "Name", "", null));
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void definitionRejectsADefaultOfTheWrongType() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new AttributeDefinition("id", Integer.class, "Name", "", "five"));
    assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
  }

  @Test
  void definitionRejectsPrimitiveTypes() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new AttributeDefinition<>("id", int.class, "Name", "", 1));
  }

  @Test
  void unsetAttributeReadsAsItsDefault() {
    DebugProcess process = newProcess();
    assertEquals(-1, process.attribute(Attributes.PID));
    assertEquals(0, process.attribute(Attributes.THREADS));
    assertFalse(process.hasAttribute(Attributes.PID));
    assertEquals(OptionalInt.empty(), process.pid());
    assertEquals(Map.of(), process.attributes());
  }

  @Test
  void setAttributeIsReadBackTyped() {
    DebugProcess process = newProcess();
    process.setAttribute(Attributes.PID, 4242);
    process.setAttribute(BYTES, 1L << 40);
    int pid = process.attribute(Attributes.PID);
    assertEquals(4242, pid);
    assertEquals(1L << 40, process.attribute(BYTES));
    assertEquals(OptionalInt.of(4242), process.pid());
    assertEquals(List.of(Attributes.PID, BYTES), new ArrayList<>(process.attributes().keySet()));
  }

  @Test
  void settingTheDefaultValueStillCountsAsSet() {
    DebugProcess process = newProcess();
    process.setAttribute(Attributes.PID, -1);
    assertTrue(process.hasAttribute(Attributes.PID));
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void setAttributeRejectsAValueOfTheWrongTypeFromRawCallers() {
    DebugProcess process = newProcess();
    AttributeDefinition raw = Attributes.PID;
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> process.setAttribute(raw, "4242"));
    assertTrue(e.getMessage().contains("pid"), e.getMessage());
    assertFalse(process.hasAttribute(Attributes.PID));
  }

  @Test
  void setAttributeRejectsNull() {
    DebugProcess process = newProcess();
    assertThrows(NullPointerException.class, () -> process.setAttribute(NAME, null));
  }

  @Test
  void attributesSnapshotIsReadOnlyAndDetached() {
    DebugJob job = new DebugJob("j");
    job.setAttribute(NAME, "first");
    Map<AttributeDefinition<?>, Object> snapshot = job.attributes();
    job.setAttribute(BYTES, 1L);
    assertEquals(Map.of(NAME, "first"), snapshot);
    assertThrows(UnsupportedOperationException.class, () -> snapshot.put(BYTES, 1L));
  }

  @Test
  void standardDefinitionsHaveDistinctIds() {
    List<AttributeDefinition<?>> all =
        List.of(Attributes.PID, Attributes.THREADS, Attributes.SERVER_PID);
    assertEquals(all.size(), all.stream().map(AttributeDefinition::id).distinct().count());
  }

  private static DebugProcess newProcess() {
    DebugJob job = new DebugJob("j");
    job.addNode("n");
    return job.addProcess(0, "n");
  }

  @Test
  void removingAnAttributeRestoresItsDefaultAndTellsListenersOfTheChange() {
    DebugJob job = new DebugJob("j");
    DebugProcess process = job.addProcess(0, job.addNode("n").name());
    process.setAttribute(Attributes.PID, 4242);
    List<ModelEvent> events = new ArrayList<>();
    process.addListener(events::add);

    process.removeAttribute(Attributes.PID);
    process.removeAttribute(Attributes.PID);

    assertFalse(process.hasAttribute(Attributes.PID));
    assertEquals(-1, process.attribute(Attributes.PID));
    assertEquals(
        List.of(new ModelEvent.AttributeChanged<>(process, Attributes.PID, 4242, -1)), events);
  }
}
