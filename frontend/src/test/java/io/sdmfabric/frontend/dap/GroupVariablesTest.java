package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.List;
import java.util.function.BiFunction;
import org.eclipse.lsp4j.debug.Variable;
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

  @Test
  void theRanksWhoseValuesWereSummedUpAreOneEntryAfterTheParts() {
    Value cell =
        new Value(
            "cell",
            "struct cell",
            Value.Kind.STRUCT,
            16,
            "{...}",
            2,
            List.of(
                Value.scalar("id", "int", Value.Kind.INTEGER, 4, "7"),
                Value.scalar("weight", "double", Value.Kind.FLOAT, 8, "0.5")));
    BiFunction<CommandBody, RankSet, List<RankReply>> exchange =
        (command, ranks) ->
            List.of(
                new RankReply(RankSet.of(0, 1), EventBodies.value(cell)),
                new RankReply(RankSet.range(2, 100), EventBodies.valueSummary(98, List.of())));
    GroupVariables variables =
        new GroupVariables(
            exchange,
            thread -> RankSet.range(0, 100),
            (level, ranks) -> {},
            new VariableReferences());

    List<Variable> shown =
        variables.variables(new VariableReferences.Expression(new GroupFrame(1, 0), "cell"));

    assertEquals(
        List.of("id", "weight", "(more values)"), shown.stream().map(Variable::getName).toList());
    assertEquals(
        "98 more values on 98 ranks on [2-99]; print --all in the Debug Console lists them",
        shown.get(2).getValue());
    assertEquals(0, shown.get(2).getVariablesReference());
  }
}
