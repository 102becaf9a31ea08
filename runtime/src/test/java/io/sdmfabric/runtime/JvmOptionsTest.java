package io.sdmfabric.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The places that cannot read {@link JvmOptions} spell {@link JvmOptions#MASTER} again: {@code
 * ./sdm}, the VS Code extension, and the benchmarks' shell scripts. They must say the same.
 */
class JvmOptionsTest {
  /** The checkout's top: the runtime module's parent. */
  private static final Path TOP = Path.of("").toAbsolutePath().getParent();

  @Test
  void theSdmScriptGivesTheMastersOptions() throws Exception {
    assertEquals(JvmOptions.MASTER, words(spelled("sdm", "^jvm_options=\\((.*)\\)$")));
  }

  @Test
  void theVsCodeExtensionGivesTheMastersOptions() throws Exception {
    String list = spelled("editors/vscode/src/sdm.js", "^const JVM_OPTIONS = \\[(.*)\\];$");
    assertEquals(JvmOptions.MASTER, List.of(list.replace("'", "").split(",\\s*")));
  }

  @Test
  void theBenchmarkScriptsGiveTheMastersOptions() throws Exception {
    assertEquals(
        JvmOptions.MASTER, words(spelled("bench/stacks.sh", "^\\s*java=\\(java (.*)\\)$")));
    assertEquals(JvmOptions.MASTER, words(spelled("bench/attach.sh", "exec java (-XX:.*?) -jar ")));
  }

  /** The first group of the first line of {@code file} that {@code pattern} finds. */
  private static String spelled(String file, String pattern) throws Exception {
    Matcher m =
        Pattern.compile(pattern, Pattern.MULTILINE).matcher(Files.readString(TOP.resolve(file)));
    if (!m.find()) {
      throw new AssertionError(file + " has no line like " + pattern);
    }
    return m.group(1);
  }

  private static List<String> words(String text) {
    return List.of(text.trim().split("\\s+"));
  }
}
