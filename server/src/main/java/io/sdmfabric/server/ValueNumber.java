package io.sdmfabric.server;

import io.sdmfabric.wire.proto.ValueKindProto;
import io.sdmfabric.wire.proto.ValueProto;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;

/**
 * The number a value stands for, by which a {@link ValueSummary} finds its least and greatest:
 * integers (gdb's decimal text), floats (with gdb's {@code inf} and {@code -inf}) and pointers (the
 * address, {@code 0x601040 <global>} or {@code (int *) 0x7ffd5a3c}), as the value's kind says.
 * Other kinds (chars, bools, enums, strings, composites) and a float's {@code nan}, which has no
 * order, are no number. Numbers of every kind compare exactly, as decimals: a 64-bit integer or
 * address is not rounded to a double.
 *
 * @param infinity -1 below every finite number, 1 above, 0 for a finite one
 * @param finite the number when finite, zero otherwise
 */
record ValueNumber(int infinity, BigDecimal finite) implements Comparable<ValueNumber> {

  /** The number {@code value} stands for, when it is one. */
  static Optional<ValueNumber> of(ValueProto value) {
    String text = value.getText().strip();
    ValueKindProto kind = value.getKind();
    if (kind == ValueKindProto.VALUE_KIND_INTEGER) {
      return integer(text);
    } else if (kind == ValueKindProto.VALUE_KIND_FLOAT) {
      return floating(text);
    } else if (kind == ValueKindProto.VALUE_KIND_POINTER) {
      return address(text);
    }
    return Optional.empty();
  }

  @Override
  public int compareTo(ValueNumber o) {
    return infinity != o.infinity
        ? Integer.compare(infinity, o.infinity)
        : finite.compareTo(o.finite);
  }

  private static Optional<ValueNumber> integer(String text) {
    if (text.startsWith("0x")) {
      return hex(text.substring(2));
    }
    int start = text.startsWith("-") ? 1 : 0;
    if (text.length() == start || !digits(text, start, text.length(), 10)) {
      return Optional.empty();
    }
    return Optional.of(
        new ValueNumber(
            0,
            text.length() < 19
                ? BigDecimal.valueOf(Long.parseLong(text))
                : new BigDecimal(new BigInteger(text))));
  }

  private static Optional<ValueNumber> floating(String text) {
    if (text.equals("inf")) {
      return Optional.of(new ValueNumber(1, BigDecimal.ZERO));
    } else if (text.equals("-inf")) {
      return Optional.of(new ValueNumber(-1, BigDecimal.ZERO));
    }
    try {
      return Optional.of(new ValueNumber(0, new BigDecimal(text)));
    } catch (NumberFormatException e) {
      return Optional.empty(); // nan(0x8000000000000), or text gdb did not print as a number
    }
  }

  private static Optional<ValueNumber> address(String text) {
    int at = text.indexOf("0x");
    if (at < 0) {
      return Optional.empty();
    }
    int end = at + 2;
    while (end < text.length() && digit(text.charAt(end), 16)) {
      end++;
    }
    return hex(text.substring(at + 2, end));
  }

  private static Optional<ValueNumber> hex(String digits) {
    if (digits.isEmpty() || !digits(digits, 0, digits.length(), 16)) {
      return Optional.empty();
    }
    return Optional.of(new ValueNumber(0, new BigDecimal(new BigInteger(digits, 16))));
  }

  private static boolean digits(String text, int from, int to, int radix) {
    for (int i = from; i < to; i++) {
      if (!digit(text.charAt(i), radix)) {
        return false;
      }
    }
    return true;
  }

  // ASCII digits only: Character.digit takes every script's, which gdb never prints.
  private static boolean digit(char c, int radix) {
    return c < 128 && Character.digit(c, radix) >= 0;
  }
}
