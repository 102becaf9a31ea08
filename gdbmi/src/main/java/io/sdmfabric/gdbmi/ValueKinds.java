package io.sdmfabric.gdbmi;

import io.sdmfabric.model.Value;
import java.util.regex.Pattern;

/**
 * Classifies a C or C++ value by its type's spelling, and, when a typedef hides the type, by how
 * gdb printed the value. The classification only has to be stable: values from many ranks are
 * merged by it, so the same type and value always give the same kind.
 */
final class ValueKinds {
  private static final Pattern INTEGER = Pattern.compile("-?\\d+");
  private static final Pattern FLOAT =
      Pattern.compile("-?(\\d+\\.\\d*(e[-+]?\\d+)?|\\d+e[-+]?\\d+|inf|nan\\(0x[0-9a-f]+\\))");
  private static final Pattern CHAR = Pattern.compile("-?\\d+ '.*'");
  private static final Pattern HEX = Pattern.compile("0x[0-9a-f]+( .*)?");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private ValueKinds() {}

  static Value.Kind classify(String type, String value, int childCount) {
    String t = type.strip();
    if (t.endsWith("*") || t.endsWith("&")) {
      return isCharPointer(t) && value.contains("\"") ? Value.Kind.STRING : Value.Kind.POINTER;
    }
    if (t.endsWith("]")) {
      return Value.Kind.ARRAY;
    }
    if (t.contains("(")) {
      return Value.Kind.FUNCTION;
    }
    String base = t.replace("const ", "").replace("volatile ", "").strip();
    if (base.startsWith("struct ")) {
      return Value.Kind.STRUCT;
    }
    if (base.startsWith("union ")) {
      return Value.Kind.UNION;
    }
    if (base.startsWith("class ")) {
      return Value.Kind.CLASS;
    }
    if (base.startsWith("enum ")) {
      return Value.Kind.ENUM;
    }
    switch (base) {
      case "void":
        return Value.Kind.VOID;
      case "_Bool", "bool":
        return Value.Kind.BOOL;
      case "char", "signed char", "unsigned char", "wchar_t", "char16_t", "char32_t":
        return Value.Kind.CHAR;
      case "float", "double", "long double", "_Float128":
        return Value.Kind.FLOAT;
      default:
        break;
    }
    if (base.matches("((unsigned|signed|short|long|int|__int128)\\s*)+")) {
      return Value.Kind.INTEGER;
    }
    return byValue(value, childCount);
  }

  private static Value.Kind byValue(String value, int childCount) {
    String v = value.strip();
    if (childCount > 0 || v.startsWith("{")) {
      return Value.Kind.STRUCT;
    }
    if (INTEGER.matcher(v).matches()) {
      return Value.Kind.INTEGER;
    }
    if (FLOAT.matcher(v).matches()) {
      return Value.Kind.FLOAT;
    }
    if (v.equals("true") || v.equals("false")) {
      return Value.Kind.BOOL;
    }
    if (CHAR.matcher(v).matches()) {
      return Value.Kind.CHAR;
    }
    if (HEX.matcher(v).matches()) {
      return Value.Kind.POINTER;
    }
    if (IDENTIFIER.matcher(v).matches()) {
      return Value.Kind.ENUM;
    }
    return Value.Kind.UNKNOWN;
  }

  private static boolean isCharPointer(String type) {
    return type.replace("const ", "").replace(" ", "").matches("(unsigned|signed)?char\\*");
  }
}
