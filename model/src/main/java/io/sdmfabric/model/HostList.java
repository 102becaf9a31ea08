package io.sdmfabric.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Host names in Slurm's compressed notation: {@code node[1-4,7],login}. A list of names is written
 * with the names that differ only in their trailing number together, in brackets, as ranges; that
 * is how {@code sinfo} and {@code squeue} write node lists, and how a user reads many nodes at a
 * glance.
 */
public final class HostList {
  private static final Pattern NUMBERED = Pattern.compile("(.*?)(\\d+)");

  private HostList() {}

  /**
   * The names in Slurm's notation, each group of one prefix once, groups in the order of their
   * prefixes: {@code [node3, node1, node2, login]} is {@code login,node[1-3]}. Numbers written with
   * leading zeros keep their width ({@code node[01-02]}); a name given twice is written once.
   */
  public static String compress(List<String> names) {
    Map<String, TreeMap<Long, String>> groups = new TreeMap<>();
    for (String name : names) {
      Objects.requireNonNull(name, "name");
      Matcher m = NUMBERED.matcher(name);
      if (m.matches() && m.group(2).length() < 18) {
        String digits = m.group(2);
        // A width of its own for zero-padded numbers: node01 and node1 are different names.
        String key = m.group(1) + (digits.startsWith("0") ? "\0" + digits.length() : "");
        groups.computeIfAbsent(key, k -> new TreeMap<>()).put(Long.parseLong(digits), digits);
      } else {
        groups.computeIfAbsent(name + "\0name", k -> new TreeMap<>());
      }
    }
    List<String> parts = new ArrayList<>();
    groups.forEach(
        (key, numbers) -> {
          int zero = key.indexOf('\0');
          String prefix = zero < 0 ? key : key.substring(0, zero);
          if (numbers.isEmpty()) {
            parts.add(prefix);
          } else if (numbers.size() == 1) {
            parts.add(prefix + numbers.firstEntry().getValue());
          } else {
            parts.add(prefix + "[" + ranges(numbers) + "]");
          }
        });
    return String.join(",", parts);
  }

  private static String ranges(TreeMap<Long, String> numbers) {
    List<String> ranges = new ArrayList<>();
    Map.Entry<Long, String> first = null;
    Map.Entry<Long, String> last = null;
    for (Map.Entry<Long, String> n : numbers.entrySet()) {
      if (last != null && n.getKey() == last.getKey() + 1) {
        last = n;
        continue;
      }
      if (first != null) {
        ranges.add(range(first, last));
      }
      first = n;
      last = n;
    }
    ranges.add(range(first, last));
    return String.join(",", ranges);
  }

  private static String range(Map.Entry<Long, String> first, Map.Entry<Long, String> last) {
    return first.equals(last) ? first.getValue() : first.getValue() + "-" + last.getValue();
  }

  /**
   * The names of a list in Slurm's notation, in its order, as {@code scontrol show hostnames}
   * writes them: {@code node[1-2],login} is {@code [node1, node2, login]}. A range keeps the width
   * of its first number ({@code [08-10]} is 08, 09, 10); several brackets in one name multiply out
   * ({@code r[1-2]n[1-2]}). The empty text is no names.
   *
   * @throws IllegalArgumentException for a list that is not in the notation (unbalanced brackets, a
   *     range that is not numbers or runs backwards)
   */
  public static List<String> expand(String list) {
    List<String> names = new ArrayList<>();
    for (String item : items(list.strip())) {
      expandInto(item, list, names);
    }
    return List.copyOf(names);
  }

  /** The names of one item of {@code list}: its first bracket's numbers, each with the rest. */
  private static void expandInto(String item, String list, List<String> names) {
    int open = item.indexOf('[');
    int close = item.indexOf(']');
    if (open < 0 && close < 0) {
      names.add(item);
      return;
    }
    if (open < 0 || close < open) {
      throw new IllegalArgumentException("not a host list: " + list);
    }
    String prefix = item.substring(0, open);
    String rest = item.substring(close + 1);
    for (String range : item.substring(open + 1, close).split(",", -1)) {
      String[] ends = range.split("-", -1);
      if (ends.length > 2 || !ends[0].matches("\\d+") || !ends[ends.length - 1].matches("\\d+")) {
        throw new IllegalArgumentException("not a host list: " + list);
      }
      long from = Long.parseLong(ends[0]);
      long to = Long.parseLong(ends[ends.length - 1]);
      if (to < from) {
        throw new IllegalArgumentException("not a host list: " + list);
      }
      String format = "%0" + ends[0].length() + "d";
      for (long n = from; n <= to; n++) {
        expandInto(prefix + String.format(format, n) + rest, list, names);
      }
    }
  }

  /** The list's items: cut at the commas outside brackets. */
  private static List<String> items(String list) {
    List<String> items = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i <= list.length(); i++) {
      char c = i == list.length() ? ',' : list.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      } else if (c == ',' && depth == 0 && i > start) {
        items.add(list.substring(start, i));
        start = i + 1;
      } else if (c == ',' && depth == 0) {
        start = i + 1;
      }
      if (depth < 0 || depth > 1) {
        throw new IllegalArgumentException("not a host list: " + list);
      }
    }
    if (depth != 0) {
      throw new IllegalArgumentException("not a host list: " + list);
    }
    return items;
  }
}
