package io.sdmfabric.runtime.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's compact host lists ({@code node[01-04,7],login}) as the host names they stand for, in
 * order, as {@code scontrol show hostnames} writes them, without asking Slurm. A bracket holds
 * numbers and ranges; a range keeps the width of its first number ({@code [08-10]} is 08, 09, 10);
 * several brackets in one name multiply out.
 */
public final class SlurmHostlist {
  private SlurmHostlist() {}

  /**
   * The host names of {@code list}.
   *
   * @throws IllegalArgumentException when a bracket is not closed or holds something else
   */
  public static List<String> expand(String list) {
    List<String> hosts = new ArrayList<>();
    for (String item : topLevel(list.strip())) {
      if (!item.isEmpty()) {
        expandInto(item, hosts);
      }
    }
    return hosts;
  }

  /** The list's items: split at the commas outside brackets. */
  private static List<String> topLevel(String list) {
    List<String> items = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      } else if (c == ',' && depth == 0) {
        items.add(list.substring(start, i));
        start = i + 1;
      }
    }
    items.add(list.substring(start));
    return items;
  }

  private static void expandInto(String item, List<String> hosts) {
    int open = item.indexOf('[');
    if (open < 0) {
      hosts.add(item);
      return;
    }
    int close = item.indexOf(']', open);
    if (close < 0) {
      throw new IllegalArgumentException("unclosed [ in host list item " + item);
    }
    String prefix = item.substring(0, open);
    String rest = item.substring(close + 1);
    for (String part : item.substring(open + 1, close).split(",")) {
      String[] bounds = part.split("-", -1);
      if (bounds.length > 2
          || !bounds[0].matches("\\d+")
          || !bounds[bounds.length - 1].matches("\\d+")) {
        throw new IllegalArgumentException("not a number or range in host list item " + item);
      }
      long from = Long.parseLong(bounds[0]);
      long to = Long.parseLong(bounds[bounds.length - 1]);
      String format = "%0" + bounds[0].length() + "d";
      for (long n = from; n <= to; n++) {
        expandInto(prefix + String.format(format, n) + rest, hosts);
      }
    }
  }
}
