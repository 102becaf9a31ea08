package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Value;
import org.junit.jupiter.api.Test;

class GroupVariablesTest {
  @Test
  void aPartIsAnElementAFieldOrWhatAPointerPointsTo() {
    assertEquals("cells[2]", GroupVariables.part("cells", Value.Kind.ARRAY, "2"));
    assertEquals("cells[2].weight", GroupVariables.part("cells[2]", Value.Kind.STRUCT, "weight"));
    assertEquals("p.next.id", GroupVariables.part("p.next", Value.Kind.STRUCT, "id"));
    assertEquals("*next", GroupVariables.part("next", Value.Kind.POINTER, ""));
    assertEquals("(*p).x", GroupVariables.part("*p", Value.Kind.STRUCT, "x"));
  }

  @Test
  void compositesAndPointersToSomethingOpen() {
    assertTrue(GroupVariables.expandable(value(Value.Kind.STRUCT, "struct cell", "{...}")));
    assertTrue(GroupVariables.expandable(value(Value.Kind.POINTER, "struct cell *", "0x7ffd10")));
    assertFalse(GroupVariables.expandable(value(Value.Kind.POINTER, "struct cell *", "0x0")));
    assertFalse(GroupVariables.expandable(value(Value.Kind.POINTER, "void *", "0x7ffd10")));
    assertFalse(GroupVariables.expandable(value(Value.Kind.INTEGER, "int", "42")));
  }

  private static Value value(Value.Kind kind, String type, String text) {
    return Value.scalar("v", type, kind, 8, text);
  }
}
