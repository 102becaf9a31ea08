package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The contracts of the syntax tree types: accessors, shape errors, validation and copying. */
class MiValuesTest {

  private static final MiTuple FRAME =
      new MiTuple(
          List.of(
              new MiResult("level", new MiConst("0")),
              new MiResult("args", MiList.EMPTY),
              new MiResult("loc", MiTuple.EMPTY),
              new MiResult("level", new MiConst("1"))));

  @Test
  void getReturnsFirstMatchAndAllReturnsEveryMatchInOrder() {
    assertEquals(Optional.of(new MiConst("0")), FRAME.get("level"));
    assertEquals(List.of(new MiConst("0"), new MiConst("1")), FRAME.all("level"));
    assertEquals(Optional.empty(), FRAME.get("nope"));
    assertEquals(List.of(), FRAME.all("nope"));
    assertTrue(FRAME.has("args"));
    assertFalse(FRAME.has("nope"));
  }

  @Test
  void typedAccessorsReturnTheValue() {
    assertEquals("0", FRAME.string("level"));
    assertEquals(Optional.of("0"), FRAME.optString("level"));
    assertEquals(Optional.empty(), FRAME.optString("nope"));
    assertEquals(MiList.EMPTY, FRAME.list("args"));
    assertEquals(MiTuple.EMPTY, FRAME.tuple("loc"));
  }

  @Test
  void absentFieldThrowsShapeExceptionNamingTheKey() {
    MiShapeException e = assertThrows(MiShapeException.class, () -> FRAME.string("func"));
    assertTrue(e.getMessage().contains("'func'"), e.getMessage());
    assertTrue(e.getMessage().contains("absent"), e.getMessage());
    assertThrows(MiShapeException.class, () -> FRAME.tuple("func"));
    assertThrows(MiShapeException.class, () -> FRAME.list("func"));
  }

  @Test
  void wrongKindThrowsShapeExceptionNamingKeyAndKind() {
    MiShapeException e = assertThrows(MiShapeException.class, () -> FRAME.string("args"));
    assertEquals("expected field 'args' to be a string but it is a list", e.getMessage());
    e = assertThrows(MiShapeException.class, () -> FRAME.list("level"));
    assertEquals("expected field 'level' to be a list but it is a string", e.getMessage());
    e = assertThrows(MiShapeException.class, () -> FRAME.tuple("args"));
    assertEquals("expected field 'args' to be a tuple but it is a list", e.getMessage());
    assertThrows(MiShapeException.class, () -> FRAME.optString("loc"));
  }

  @Test
  void tupleCopiesItsResults() {
    List<MiResult> source = new ArrayList<>();
    source.add(new MiResult("a", new MiConst("1")));
    MiTuple t = new MiTuple(source);
    source.add(new MiResult("b", new MiConst("2")));
    assertEquals(1, t.size());
    assertThrows(UnsupportedOperationException.class, () -> t.results().clear());
  }

  @Test
  void listItemsAreValuesOrResultValues() {
    MiList values = MiList.ofValues(List.of(new MiConst("1"), new MiConst("2")));
    assertEquals(List.of(new MiConst("1"), new MiConst("2")), values.items());
    assertFalse(values.hasResults());
    MiList results =
        MiList.ofResults(
            List.of(new MiResult("frame", MiTuple.EMPTY), new MiResult("frame", MiList.EMPTY)));
    assertEquals(List.of(MiTuple.EMPTY, MiList.EMPTY), results.items());
    assertTrue(results.hasResults());
    assertEquals(2, results.size());
    assertTrue(MiList.EMPTY.items().isEmpty());
  }

  @Test
  void listRejectsMixOfValuesAndResults() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new MiList(List.of(new MiConst("1")), List.of(new MiResult("a", new MiConst("2")))));
  }

  @Test
  void recordsRejectNulls() {
    assertThrows(NullPointerException.class, () -> new MiConst(null));
    assertThrows(NullPointerException.class, () -> new MiResult("a", null));
    assertThrows(NullPointerException.class, () -> new MiTuple(null));
    List<MiResult> withNull = new ArrayList<>();
    withNull.add(null);
    assertThrows(NullPointerException.class, () -> new MiTuple(withNull));
    assertThrows(NullPointerException.class, () -> new MiStreamRecord(MiStreamKind.LOG, null));
    assertThrows(NullPointerException.class, () -> new MiResultRecord(1, null, MiTuple.EMPTY));
  }

  @Test
  void recordsRejectEmptyNamesAndBadTokens() {
    assertThrows(IllegalArgumentException.class, () -> new MiResult("", MiTuple.EMPTY));
    assertThrows(
        IllegalArgumentException.class,
        () -> new MiAsyncRecord(-1, MiAsyncKind.EXEC, "", MiTuple.EMPTY));
    assertThrows(
        IllegalArgumentException.class,
        () -> new MiResultRecord(-2, MiResultClass.DONE, MiTuple.EMPTY));
    assertThrows(
        IllegalArgumentException.class,
        () -> new MiAsyncRecord(-5, MiAsyncKind.EXEC, "stopped", MiTuple.EMPTY));
  }

  @Test
  void parseExceptionRejectsOffsetOutsideTheLine() {
    assertThrows(IllegalArgumentException.class, () -> new MiParseException("x", "abc", 4));
    assertEquals(3, new MiParseException("x", "abc", 3).offset());
  }
}
