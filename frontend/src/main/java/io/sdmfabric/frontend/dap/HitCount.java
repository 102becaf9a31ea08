package io.sdmfabric.frontend.dap;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A DAP breakpoint's hit condition, as gdb's ignore count: {@code N} or {@code >=N} stops from the
 * Nth hit on (the first N-1 pass), {@code >N} from the one after. Each rank counts its own hits.
 */
final class HitCount {
  private static final Pattern FORM = Pattern.compile("\\s*(>=|>|==)?\\s*(\\d{1,9})\\s*");

  private HitCount() {}

  /**
   * The hits to pass over before stopping.
   *
   * @throws IllegalArgumentException saying which forms there are
   */
  static int ignoreCount(String condition) {
    Matcher m = FORM.matcher(condition);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "hit count \""
              + condition
              + "\" is not one of N or >=N (stop from the Nth hit on) or >N (after the Nth)");
    }
    int n = Integer.parseInt(m.group(2));
    return ">".equals(m.group(1)) ? n : Math.max(0, n - 1);
  }
}
