package io.sdmfabric.model;

import java.util.List;
import java.util.Objects;

/**
 * A typed value of an expression, independent of the machine it came from, so that values from many
 * ranks can be compared and merged.
 *
 * <p>A struct, union or class value has one child per field (named by the field), an array one per
 * element (named by the index), a pointer one child for the pointed-to value (named {@code *NAME})
 * when the debugger expanded it. A debugger may expand only part of a large value: {@code
 * childCount} is the number of children the value has, {@code children} those that were read.
 *
 * @param name the expression, or the field name or index for a child
 * @param type the type as the program's language writes it, e.g. {@code struct point *}
 * @param kind the kind of type, with typedefs resolved
 * @param size the size in bytes, 0 when unknown
 * @param text the value as the debugger prints it, e.g. {@code 42}, {@code 0x7ffd5a3c}, {@code
 *     {...}}
 * @param childCount the number of children the value has
 * @param children the children read, at most {@code childCount}
 */
public record Value(
    String name,
    String type,
    Kind kind,
    int size,
    String text,
    int childCount,
    List<Value> children) {

  /** Kinds of value. Integer and float kinds carry their size in {@link Value#size}. */
  public enum Kind {
    INTEGER,
    FLOAT,
    BOOL,
    CHAR,
    POINTER,
    ARRAY,
    STRUCT,
    UNION,
    CLASS,
    ENUM,
    FUNCTION,
    STRING,
    VOID,
    UNKNOWN;

    /** Whether values of this kind have fields or elements. */
    public boolean isComposite() {
      return this == ARRAY || this == STRUCT || this == UNION || this == CLASS;
    }
  }

  public Value {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(text, "text");
    children = List.copyOf(children);
    if (size < 0 || childCount < children.size()) {
      throw new IllegalArgumentException(
          "size must be >= 0 and childCount >= children read, for " + name);
    }
  }

  /** A value without children. */
  public static Value scalar(String name, String type, Kind kind, int size, String text) {
    return new Value(name, type, kind, size, text, 0, List.of());
  }

  /** The child with this name. */
  public java.util.Optional<Value> child(String childName) {
    return children.stream().filter(c -> c.name.equals(childName)).findFirst();
  }
}
