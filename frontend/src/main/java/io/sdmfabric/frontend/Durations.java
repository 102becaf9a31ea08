package io.sdmfabric.frontend;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations as users write them: {@code 500ms}, {@code 3s}, {@code 2m}, or seconds. */
public final class Durations {
  private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)?");

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @throws IllegalArgumentException for anything else, with a message that shows the forms
   */
  public static Duration parse(String text) {
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("bad duration \"" + text + "\": use e.g. 500ms, 3s, 2m");
    }
    double value = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double ms =
        switch (unit) {
          case "ms" -> value;
          case "m" -> value * 60_000;
          default -> value * 1000;
        };
    return Duration.ofMillis((long) ms);
  }
}
