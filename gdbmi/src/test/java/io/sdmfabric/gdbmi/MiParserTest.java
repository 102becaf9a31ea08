package io.sdmfabric.gdbmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Well-formed GDB/MI output. Unless a test says otherwise, the lines were recorded from gdb 13.1
 * ({@code gdb --interpreter=mi3 -nx -q}) debugging a small threaded C program built with {@code gcc
 * -g}.
 */
class MiParserTest {

  private static MiResultRecord result(String line) throws MiParseException {
    return assertInstanceOf(MiResultRecord.class, MiParser.parse(line));
  }

  private static MiAsyncRecord async(String line) throws MiParseException {
    return assertInstanceOf(MiAsyncRecord.class, MiParser.parse(line));
  }

  private static MiStreamRecord stream(String line) throws MiParseException {
    return assertInstanceOf(MiStreamRecord.class, MiParser.parse(line));
  }

  @Test
  void parsesBreakInsertResultWithToken() throws MiParseException {
    MiResultRecord r =
        result(
            "1^done,bkpt={number=\"1\",type=\"breakpoint\",disp=\"keep\",enabled=\"y\","
                + "addr=\"0x0000000000001164\",func=\"depth\",file=\"t.c\","
                + "fullname=\"/tmp/miparse/t.c\",line=\"4\",thread-groups=[\"i1\"],times=\"0\","
                + "original-location=\"depth\"}");
    assertEquals(1, r.token());
    assertTrue(r.hasToken());
    assertEquals(MiResultClass.DONE, r.resultClass());
    MiTuple bkpt = r.results().tuple("bkpt");
    assertEquals("1", bkpt.string("number"));
    assertEquals("depth", bkpt.string("func"));
    assertEquals("/tmp/miparse/t.c", bkpt.string("fullname"));
    assertEquals(List.of(new MiConst("i1")), bkpt.list("thread-groups").values());
    assertEquals("depth", bkpt.string("original-location"));
  }

  @Test
  void parsesStoppedRecordWithFrameAndArgs() throws MiParseException {
    MiAsyncRecord r =
        async(
            "*stopped,reason=\"breakpoint-hit\",disp=\"keep\",bkptno=\"1\","
                + "frame={addr=\"0x0000555555555164\",func=\"depth\","
                + "args=[{name=\"n\",value=\"3\"}],file=\"t.c\",fullname=\"/tmp/miparse/t.c\","
                + "line=\"4\",arch=\"i386:x86-64\"},thread-id=\"1\",stopped-threads=\"all\","
                + "core=\"1\"");
    assertEquals(MiAsyncKind.EXEC, r.kind());
    assertEquals("stopped", r.asyncClass());
    assertFalse(r.hasToken());
    assertEquals("breakpoint-hit", r.results().string("reason"));
    MiTuple frame = r.results().tuple("frame");
    assertEquals("0x0000555555555164", frame.string("addr"));
    MiList args = frame.list("args");
    assertEquals(1, args.size());
    MiTuple n = assertInstanceOf(MiTuple.class, args.items().get(0));
    assertEquals("n", n.string("name"));
    assertEquals("3", n.string("value"));
    assertEquals("all", r.results().string("stopped-threads"));
  }

  @Test
  void parsesStackListFramesAsResultList() throws MiParseException {
    MiResultRecord r =
        result(
            "4^done,stack=[frame={level=\"0\",addr=\"0x0000555555555164\",func=\"depth\","
                + "file=\"t.c\",fullname=\"/tmp/miparse/t.c\",line=\"4\",arch=\"i386:x86-64\"},"
                + "frame={level=\"1\",addr=\"0x0000555555555214\",func=\"main\",file=\"t.c\","
                + "fullname=\"/tmp/miparse/t.c\",line=\"11\",arch=\"i386:x86-64\"}]");
    MiList stack = r.results().list("stack");
    assertTrue(stack.hasResults());
    assertTrue(stack.values().isEmpty());
    assertEquals(List.of("frame", "frame"), stack.results().stream().map(MiResult::name).toList());
    List<MiValue> frames = stack.items();
    assertEquals("depth", ((MiTuple) frames.get(0)).string("func"));
    assertEquals("main", ((MiTuple) frames.get(1)).string("func"));
    assertEquals("11", ((MiTuple) frames.get(1)).string("line"));
  }

  @Test
  void parsesVarCreateWithOctalEscapedUtf8() throws MiParseException {
    // The value of a char* holding "tab\there \"q\" é\n": gdb quotes it once as C, and MI
    // quotes it again, escaping the two UTF-8 bytes of 'é' as octal.
    MiResultRecord r =
        result(
            "4^done,name=\"var1\",numchild=\"1\","
                + "value=\"0x555555556015 \\\"tab\\\\there \\\\\\\"q\\\\\\\" \\303\\251\\\\n\\\"\","
                + "type=\"const char *\",thread-id=\"1\",has_more=\"0\"");
    assertEquals("var1", r.results().string("name"));
    assertEquals("0x555555556015 \"tab\\there \\\"q\\\" é\\n\"", r.results().string("value"));
    assertEquals("const char *", r.results().string("type"));
  }

  @Test
  void parsesVarListChildren() throws MiParseException {
    MiResultRecord r =
        result(
            "5^done,numchild=\"2\",children=[child={name=\"p_var.x\",exp=\"x\",numchild=\"0\","
                + "value=\"1\",type=\"int\",thread-id=\"1\"},child={name=\"p_var.y\",exp=\"y\","
                + "numchild=\"0\",value=\"2\",type=\"int\",thread-id=\"1\"}],has_more=\"0\"");
    List<MiValue> children = r.results().list("children").items();
    assertEquals(2, children.size());
    assertEquals("p_var.y", ((MiTuple) children.get(1)).string("name"));
  }

  @Test
  void parsesBreakpointTableWithValueListOfTuplesAndDuplicateBkpts() throws MiParseException {
    MiResultRecord r =
        result(
            "8^done,BreakpointTable={nr_rows=\"2\",nr_cols=\"6\",hdr=[{width=\"7\","
                + "alignment=\"-1\",col_name=\"number\",colhdr=\"Num\"},{width=\"14\","
                + "alignment=\"-1\",col_name=\"type\",colhdr=\"Type\"},{width=\"4\","
                + "alignment=\"-1\",col_name=\"disp\",colhdr=\"Disp\"},{width=\"3\","
                + "alignment=\"-1\",col_name=\"enabled\",colhdr=\"Enb\"},{width=\"18\","
                + "alignment=\"-1\",col_name=\"addr\",colhdr=\"Address\"},{width=\"40\","
                + "alignment=\"2\",col_name=\"what\",colhdr=\"What\"}],body=[bkpt={number=\"1\","
                + "type=\"breakpoint\",disp=\"keep\",enabled=\"y\",addr=\"0x0000555555555164\","
                + "func=\"depth\",file=\"t.c\",fullname=\"/tmp/miparse/t.c\",line=\"4\","
                + "thread-groups=[\"i1\"],times=\"1\",original-location=\"depth\"},"
                + "bkpt={number=\"2\",type=\"breakpoint\",disp=\"keep\",enabled=\"y\","
                + "addr=\"0x0000555555555217\",func=\"main\",file=\"t.c\","
                + "fullname=\"/tmp/miparse/t.c\",line=\"12\",thread-groups=[\"i1\"],times=\"0\","
                + "original-location=\"t.c:12\"}]}");
    MiTuple table = r.results().tuple("BreakpointTable");
    MiList hdr = table.list("hdr");
    assertFalse(hdr.hasResults());
    assertEquals(6, hdr.values().size());
    assertEquals("What", ((MiTuple) hdr.values().get(5)).string("colhdr"));
    List<MiValue> body = table.list("body").items();
    assertEquals("t.c:12", ((MiTuple) body.get(1)).string("original-location"));
  }

  @Test
  void keepsDuplicateKeysInOrder() throws MiParseException {
    // Recorded with two threads alive: a list spelled as a tuple with a repeated key.
    MiResultRecord r =
        result(
            "3^done,thread-ids={thread-id=\"1\",thread-id=\"2\"},current-thread-id=\"2\","
                + "number-of-threads=\"2\"");
    MiTuple ids = r.results().tuple("thread-ids");
    assertEquals(2, ids.size());
    assertEquals("1", ids.string("thread-id"));
    assertEquals(List.of(new MiConst("1"), new MiConst("2")), ids.all("thread-id"));
  }

  @Test
  void parsesThreadInfo() throws MiParseException {
    MiResultRecord r =
        result(
            "11^done,threads=[{id=\"1\",target-id=\"Thread 0x7ffff7dd2740 (LWP 3540)\","
                + "name=\"t\",frame={level=\"0\",addr=\"0x0000555555555164\",func=\"depth\","
                + "args=[{name=\"n\",value=\"3\"}],file=\"t.c\",fullname=\"/tmp/miparse/t.c\","
                + "line=\"4\",arch=\"i386:x86-64\"},state=\"stopped\",core=\"1\"}],"
                + "current-thread-id=\"1\"");
    MiTuple thread = (MiTuple) r.results().list("threads").items().get(0);
    assertEquals("Thread 0x7ffff7dd2740 (LWP 3540)", thread.string("target-id"));
    assertEquals("stopped", thread.string("state"));
    assertEquals("1", r.results().string("current-thread-id"));
  }

  @Test
  void parsesErrorWithEscapedQuotesInMessage() throws MiParseException {
    MiResultRecord r = result("9^error,msg=\"No symbol \\\"msg\\\" in current context.\"");
    assertEquals(MiResultClass.ERROR, r.resultClass());
    assertEquals(9, r.token());
    assertEquals("No symbol \"msg\" in current context.", r.results().string("msg"));
  }

  @Test
  void parsesErrorWithoutToken() throws MiParseException {
    MiResultRecord r = result("^error,msg=\"-var-create: unable to create variable object\"");
    assertEquals(MiResultRecord.NO_TOKEN, r.token());
    assertFalse(r.hasToken());
    assertEquals("-var-create: unable to create variable object", r.results().string("msg"));
  }

  @Test
  void parsesEveryResultClass() throws MiParseException {
    assertEquals(MiResultClass.DONE, result("^done").resultClass());
    assertEquals(MiResultClass.RUNNING, result("3^running").resultClass());
    assertEquals(MiResultClass.CONNECTED, result("^connected").resultClass());
    assertEquals(MiResultClass.ERROR, result("^error,msg=\"x\"").resultClass());
    assertEquals(MiResultClass.EXIT, result("14^exit").resultClass());
    assertSame(MiTuple.EMPTY, result("^done").results());
  }

  @Test
  void parsesNotifyRecordsWithOpenEndedClassNames() throws MiParseException {
    MiAsyncRecord added = async("=thread-group-added,id=\"i1\"");
    assertEquals(MiAsyncKind.NOTIFY, added.kind());
    assertEquals("thread-group-added", added.asyncClass());
    assertEquals("i1", added.results().string("id"));

    MiAsyncRecord started = async("=thread-group-started,id=\"i1\",pid=\"3540\"");
    assertEquals("3540", started.results().string("pid"));

    MiAsyncRecord loaded =
        async(
            "=library-loaded,id=\"/lib64/ld-linux-x86-64.so.2\","
                + "target-name=\"/lib64/ld-linux-x86-64.so.2\","
                + "host-name=\"/lib64/ld-linux-x86-64.so.2\",symbols-loaded=\"0\","
                + "thread-group=\"i1\",ranges=[{from=\"0x00007ffff7fcb060\","
                + "to=\"0x00007ffff7ff0111\"}]");
    MiTuple range = (MiTuple) loaded.results().list("ranges").items().get(0);
    assertEquals("0x00007ffff7ff0111", range.string("to"));
  }

  @Test
  void parsesAsyncRecordsWithTokens() throws MiParseException {
    // gdb echoes the token of the command that caused an async record, e.g. "-exec-run" as
    // "12-exec-run" in all-stop mode yields "12*running" on some targets; the grammar allows a
    // token on all three async kinds.
    MiAsyncRecord running = async("12*running,thread-id=\"all\"");
    assertEquals(12, running.token());
    assertTrue(running.hasToken());
    assertEquals(MiAsyncKind.EXEC, running.kind());
    assertEquals("all", running.results().string("thread-id"));

    MiAsyncRecord download = async("7+download,section=\".text\",section-size=\"1024\"");
    assertEquals(MiAsyncKind.STATUS, download.kind());
    assertEquals(7, download.token());

    MiAsyncRecord notify = async("0=cmd-param-changed,param=\"print elements\",value=\"5\"");
    assertEquals(0, notify.token());
    assertEquals("cmd-param-changed", notify.asyncClass());
  }

  @Test
  void parsesAsyncRecordWithoutResults() throws MiParseException {
    MiAsyncRecord r = async("*running");
    assertEquals("running", r.asyncClass());
    assertTrue(r.results().isEmpty());
  }

  @Test
  void parsesLargeToken() throws MiParseException {
    assertEquals(Long.MAX_VALUE, result(Long.MAX_VALUE + "^done").token());
  }

  @Test
  void parsesConsoleStreamWithEscapedQuotesAndNewline() throws MiParseException {
    MiStreamRecord r =
        stream(
            "~\"Using host libthread_db library"
                + " \\\"/lib/x86_64-linux-gnu/libthread_db.so.1\\\".\\n\"");
    assertEquals(MiStreamKind.CONSOLE, r.kind());
    assertEquals(
        "Using host libthread_db library \"/lib/x86_64-linux-gnu/libthread_db.so.1\".\n", r.text());
  }

  @Test
  void parsesConsoleStreamWithTab() throws MiParseException {
    MiStreamRecord r =
        stream(
            "~\"4\\tstatic int depth(int n) { if (n == 0) { return 42; } return depth(n - 1) + 1;"
                + " }\\n\"");
    assertEquals(
        "4\tstatic int depth(int n) { if (n == 0) { return 42; } return depth(n - 1) + 1; }\n",
        r.text());
  }

  @Test
  void parsesConsoleStreamWithDoubleEscapedBackslashes() throws MiParseException {
    // "print (char)27" in the console: gdb prints '\033', MI escapes the backslash.
    assertEquals("$2 = 27 '\\033'\n", stream("~\"$2 = 27 '\\\\033'\\n\"").text());
  }

  @Test
  void parsesLogAndTargetStreams() throws MiParseException {
    MiStreamRecord log = stream("&\"No symbol \\\"msg\\\" in current context.\\n\"");
    assertEquals(MiStreamKind.LOG, log.kind());
    assertEquals("No symbol \"msg\" in current context.\n", log.text());

    // Target output appears with remote targets; the shape is the same.
    MiStreamRecord target = stream("@\"hello from the target\\r\\n\"");
    assertEquals(MiStreamKind.TARGET, target.kind());
    assertEquals("hello from the target\r\n", target.text());
  }

  @Test
  void parsesEmptyStreamText() throws MiParseException {
    assertEquals("", stream("~\"\"").text());
  }

  @Test
  void decodesEverySimpleCEscape() throws MiParseException {
    MiStreamRecord r = stream("~\"\\n\\t\\r\\\\\\\"\\'\\a\\b\\f\\v\\e\\?\"");
    assertEquals("\n\t\r\\\"'\u0007\b\f\u000b\u001b?", r.text());
  }

  @Test
  void decodesOctalEscapesOfOneToThreeDigits() throws MiParseException {
    assertEquals("\0A8", stream("~\"\\0\\101\\070\"").text());
    assertEquals("\u0001" + "9", stream("~\"\\19\"").text());
    assertEquals("\u0007", stream("~\"\\07\"").text());
    // A fourth digit is an ordinary character.
    assertEquals("A1", stream("~\"\\1011\"").text());
  }

  @Test
  void decodesHexEscapesOfOneOrTwoDigits() throws MiParseException {
    assertEquals("A", stream("~\"\\x41\"").text());
    assertEquals("\u000fg", stream("~\"\\xfg\"").text());
    assertEquals("AB", stream("~\"\\x41B\"").text());
  }

  @Test
  void decodesEscapedBytesAsUtf8() throws MiParseException {
    assertEquals("é", stream("~\"\\303\\251\"").text());
    assertEquals("é", stream("~\"\\xc3\\xa9\"").text());
    // One character spread over an octal escape and a hex escape.
    assertEquals("€", stream("~\"\\342\\x82\\254\"").text());
  }

  @Test
  void decodesRawUtf8BytesInTheLine() throws MiParseException {
    byte[] line = "~\"naïve 日本 \\n\"".getBytes(StandardCharsets.UTF_8);
    assertEquals("naïve 日本 \n", ((MiStreamRecord) MiParser.parse(line)).text());
    assertEquals("naïve 日本", result("^done,v=\"naïve 日本\"").results().string("v"));
  }

  @Test
  void decodesMixOfRawAndEscapedUtf8() throws MiParseException {
    // A raw lead byte followed by an escaped continuation byte still forms one character.
    byte[] line = {'~', '"', (byte) 0xc3, '\\', 'x', 'a', '9', '"'};
    assertEquals("é", ((MiStreamRecord) MiParser.parse(line)).text());
  }

  @Test
  void decodesInvalidUtf8AsReplacementCharacter() throws MiParseException {
    assertEquals("a\uFFFDb", stream("~\"a\\377b\"").text());
  }

  @Test
  void parsesPromptWithAndWithoutTrailingSpace() throws MiParseException {
    assertSame(MiPrompt.INSTANCE, MiParser.parse("(gdb) "));
    assertSame(MiPrompt.INSTANCE, MiParser.parse("(gdb)"));
    assertSame(MiPrompt.INSTANCE, MiParser.parse("(gdb)   "));
  }

  @Test
  void ignoresOneTrailingCarriageReturn() throws MiParseException {
    assertSame(MiPrompt.INSTANCE, MiParser.parse("(gdb) \r"));
    assertEquals("i1", async("=thread-group-added,id=\"i1\"\r").results().string("id"));
    assertEquals("x\n", stream("~\"x\\n\"\r").text());
  }

  @Test
  void parsesEmptyTupleAndEmptyList() throws MiParseException {
    MiResultRecord r = result("^done,t={},l=[],frame={func=\"main\",args=[]}");
    assertSame(MiTuple.EMPTY, r.results().tuple("t"));
    assertSame(MiList.EMPTY, r.results().list("l"));
    assertTrue(r.results().list("l").items().isEmpty());
    assertTrue(r.results().tuple("frame").list("args").isEmpty());
  }

  @Test
  void parsesNestedListsOfValues() throws MiParseException {
    MiList outer = result("^done,m=[[\"1\",\"2\"],[],[{a=\"x\"}]]").results().list("m");
    assertEquals(3, outer.values().size());
    assertEquals(
        List.of(new MiConst("1"), new MiConst("2")), ((MiList) outer.values().get(0)).values());
    assertSame(MiList.EMPTY, outer.values().get(1));
  }

  @Test
  void parsesPartOfABuffer() throws MiParseException {
    byte[] buffer = "xx^done,a=\"1\"\r\nyy".getBytes(StandardCharsets.US_ASCII);
    MiResultRecord r = (MiResultRecord) MiParser.parse(buffer, 2, 14);
    assertEquals("1", r.results().string("a"));
  }

  @Test
  void equalLinesGiveEqualRecords() throws MiParseException {
    String line = "*stopped,reason=\"end-stepping-range\",frame={func=\"main\",args=[]}";
    assertEquals(MiParser.parse(line), MiParser.parse(line.getBytes(StandardCharsets.UTF_8)));
  }
}
