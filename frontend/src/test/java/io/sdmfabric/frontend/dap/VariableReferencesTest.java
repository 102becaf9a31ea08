package io.sdmfabric.frontend.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VariableReferencesTest {
  @Test
  void aContainerKeepsItsReferenceAndTheReferenceItsContainer() {
    VariableReferences refs = new VariableReferences();
    var locals = new VariableReferences.Scope(new GroupFrame(7, 0), false);
    var cells = new VariableReferences.Expression(new GroupFrame(7, 0), "cells");
    int a = refs.reference(locals);
    assertEquals(a, refs.reference(new VariableReferences.Scope(new GroupFrame(7, 0), false)));
    assertNotEquals(a, refs.reference(cells));
    assertEquals(Optional.of(cells), refs.container(refs.reference(cells)));
  }

  @Test
  void theReferencesOfGroupsThatMovedAreForgottenAndNeverReused() {
    VariableReferences refs = new VariableReferences();
    int moved = refs.reference(new VariableReferences.Scope(new GroupFrame(7, 0), false));
    int stays = refs.reference(new VariableReferences.Scope(new GroupFrame(8, 0), false));
    refs.forget(Set.of(7));
    assertTrue(refs.container(moved).isEmpty());
    assertTrue(refs.container(stays).isPresent());
    int again = refs.reference(new VariableReferences.Scope(new GroupFrame(7, 0), false));
    assertNotEquals(moved, again);
  }
}
