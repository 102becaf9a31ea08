package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lines that break the GDB/MI grammar: each must raise {@link MiParseException} naming what was
 * expected and where, and none may come back as a record.
 */
class MiParserMalformedTest {

  private static MiParseException rejects(String line) {
    return assertThrows(MiParseException.class, () -> MiParser.parse(line), line);
  }

  private static void rejectsAt(String line, int offset, String expectedInMessage) {
    MiParseException e = rejects(line);
    assertEquals(offset, e.offset(), e.getMessage());
    assertTrue(
        e.getMessage().contains(expectedInMessage),
        () -> "message lacks '" + expectedInMessage + "': " + e.getMessage());
  }

  @Test
  void rejectsUnterminatedString() {
    rejectsAt("~\"Reading symbols", 17, "expected '\"' to close the string opened at offset 1");
    rejectsAt("^done,msg=\"abc", 14, "close the string");
    rejectsAt("^done,msg=\"abc\\\"", 16, "close the string");
  }

  @Test
  void rejectsBackslashAtEndOfLine() {
    rejectsAt("~\"abc\\", 5, "escape character");
  }

  @Test
  void rejectsUnknownEscape() {
    rejectsAt("~\"a\\qb\"", 3, "expected a C escape");
    rejectsAt("~\"\\8\"", 2, "expected a C escape");
  }

  @Test
  void rejectsHexEscapeWithoutDigits() {
    rejectsAt("~\"\\xg\"", 2, "hex digit");
  }

  @Test
  void rejectsOctalEscapeAboveOneByte() {
    rejectsAt("~\"ab\\400\"", 4, "at most \\377");
  }

  @Test
  void rejectsMissingEquals() {
    rejectsAt("^done,bkpt{number=\"1\"}", 10, "expected '=' after variable name 'bkpt'");
    rejectsAt("^done,msg", 9, "expected '='");
    rejectsAt("^done,frame={level\"0\"}", 18, "expected '='");
  }

  @Test
  void rejectsMissingVariableName() {
    rejectsAt("^done,=\"1\"", 6, "expected a variable name");
    rejectsAt("^done,", 6, "expected a variable name");
    rejectsAt("^done,a=\"1\",", 12, "expected a variable name");
  }

  @Test
  void rejectsMissingValue() {
    rejectsAt("^done,a=", 8, "expected a value");
    rejectsAt("^done,a=1", 8, "expected a value");
  }

  @Test
  void rejectsUnbalancedBraces() {
    rejectsAt("^done,frame={level=\"0\"", 22, "expected ',' or '}'");
    rejectsAt("^done,frame={level=\"0\"}}", 23, "end of line");
    rejectsAt("^done,frame={level=\"0\"]", 22, "expected ',' or '}'");
    rejectsAt("^done,frame={", 13, "expected a variable name");
  }

  @Test
  void rejectsUnbalancedBrackets() {
    rejectsAt("^done,stack=[frame={}", 21, "expected ',' or ']'");
    rejectsAt("^done,ids=[\"1\",\"2\"", 18, "expected ',' or ']'");
    rejectsAt("^done,ids=[\"1\"]]", 15, "end of line");
    rejectsAt("^done,ids=[\"1\"}", 14, "expected ',' or ']'");
  }

  @Test
  void rejectsListMixingValuesAndResults() {
    rejectsAt("^done,l=[\"1\",a=\"2\"]", 13, "expected a value");
    rejectsAt("^done,l=[a=\"1\",\"2\"]", 15, "expected a variable name");
  }

  @Test
  void rejectsUnknownPrefixCharacter() {
    rejectsAt("hello world", 0, "expected a GDB/MI record");
    rejectsAt("!done", 0, "expected a GDB/MI record");
    rejectsAt(" ^done", 0, "expected a GDB/MI record");
    // What the inferior might print if it shared gdb's terminal: never turned into output.
    rejectsAt("Hello, world!", 0, "expected a GDB/MI record");
  }

  @Test
  void rejectsEmptyLine() {
    rejectsAt("", 0, "line is empty");
    rejectsAt("\r", 0, "line is empty");
  }

  @Test
  void rejectsTrailingGarbageAfterRecord() {
    rejectsAt("^done,a=\"1\" ", 11, "end of line");
    rejectsAt("^done,a=\"1\"x", 11, "end of line");
    rejectsAt("~\"text\"x", 7, "end of line");
    rejectsAt("=thread-created,id=\"1\"}", 22, "end of line");
    rejectsAt("(gdb) x", 6, "end of line after '(gdb)'");
    rejectsAt("^done\r\r", 5, "end of line");
  }

  @Test
  void rejectsUnknownResultClass() {
    rejectsAt("^finished", 1, "expected a result class");
    rejectsAt("^", 1, "expected a result class");
    rejectsAt("5^Done", 2, "expected a result class");
  }

  @Test
  void rejectsAsyncRecordWithoutClass() {
    rejectsAt("*", 1, "expected an async class name after '*'");
    rejectsAt("=,id=\"1\"", 1, "expected an async class name after '='");
  }

  @Test
  void rejectsTokenWithoutRecordPrefix() {
    rejectsAt("12", 2, "after the token");
    rejectsAt("12~\"text\"", 2, "after the token");
    rejectsAt("12(gdb)", 2, "after the token");
  }

  @Test
  void rejectsTokenTooLargeForLong() {
    rejectsAt("99999999999999999999^done", 0, "fits in a long");
  }

  @Test
  void rejectsStreamRecordWithoutQuotedString() {
    rejectsAt("~Reading symbols", 1, "expected '\"'");
    rejectsAt("&", 1, "expected '\"'");
  }

  @Test
  void rejectsMisspelledPrompt() {
    rejectsAt("(gbd)", 2, "expected '(gdb)'");
    rejectsAt("(gdb", 4, "expected '(gdb)'");
  }

  @ParameterizedTest
  @ValueSource(ints = {MiParser.MAX_DEPTH + 1, 100_000})
  void rejectsNestingDeeperThanTheLimitWithoutStackOverflow(int depth) {
    String line = "^done,a=" + "[".repeat(depth) + "]".repeat(depth);
    MiParseException e = rejects(line);
    assertTrue(e.getMessage().contains("nested at most"), e.getMessage());
  }

  @Test
  void acceptsNestingAtTheLimit() throws MiParseException {
    int depth = MiParser.MAX_DEPTH;
    MiRecord record = MiParser.parse("^done,a=" + "[".repeat(depth) + "]".repeat(depth));
    MiResultRecord result = assertInstanceOf(MiResultRecord.class, record);
    MiValue value = result.results().get("a").orElseThrow();
    int lists = 0;
    while (value instanceof MiList list) {
      lists++;
      value = list.items().isEmpty() ? null : list.items().get(0);
    }
    assertEquals(depth, lists, "every level of the nesting is kept");
  }

  @Test
  void reportsOffsetInCharactersAfterMultiByteText() {
    // "é" is two bytes but one char: the offset counts chars of line().
    MiParseException e = rejects("^done,a=\"é\"x");
    assertEquals(11, e.offset());
    assertEquals('x', e.line().charAt(e.offset()));
  }

  @Test
  void messageShowsTheLineAndACaretAtTheOffset() {
    MiParseException e = rejects("^done,a=\"1\"x");
    assertEquals("^done,a=\"1\"x", e.line());
    assertEquals(
        "expected ',' or end of line after the record at offset 11:\n"
            + "  ^done,a=\"1\"x\n"
            + "             ^",
        e.getMessage());
  }

  @Test
  void messageShowsAnExcerptOfLongLines() {
    String line = "^done,a=\"" + "x".repeat(10_000) + "\"?" + "y".repeat(10_000);
    MiParseException e = rejects(line);
    assertEquals(line, e.line());
    assertEquals(10_010, e.offset());
    assertTrue(e.getMessage().length() < 500, e.getMessage());
    String[] parts = e.getMessage().split("\n");
    assertEquals('?', parts[1].charAt(parts[2].indexOf('^')));
  }

  @Test
  void lineExcludesTheIgnoredCarriageReturn() {
    MiParseException e =
        assertThrows(
            MiParseException.class,
            () -> MiParser.parse("^done,x\r".getBytes(StandardCharsets.US_ASCII)));
    assertEquals("^done,x", e.line());
    assertEquals(7, e.offset());
  }
}
