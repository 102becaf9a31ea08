package io.sdmfabric.gdbmi;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A tuple {@code {name=value,...}}, and the result list of a record.
 *
 * <p>The pairs are kept in gdb's order and duplicate names are kept, because gdb really emits them
 * and they carry meaning: {@code thread-ids={thread-id="1",thread-id="2"}} is a list spelled as a
 * tuple, and a breakpoint with several locations has repeated {@code bkpt} fields. {@link
 * #get(String)} and the typed accessors return the first match; {@link #all(String)} returns every
 * match.
 *
 * <p>Look-ups scan the pairs: MI tuples are small (tens of fields), and long sequences come as
 * {@link MiList}s, which are accessed by position.
 *
 * @param results the pairs, in order
 */
public record MiTuple(List<MiResult> results) implements MiValue {

  /** The tuple {@code {}}, and the results of a record that has none. */
  public static final MiTuple EMPTY = new MiTuple(List.of());

  /** Copies the pairs into an immutable list, rejecting nulls. */
  public MiTuple {
    results = List.copyOf(results);
  }

  /** The value of the first pair called {@code name}, if any. */
  public Optional<MiValue> get(String name) {
    for (MiResult r : results) {
      if (r.name().equals(name)) {
        return Optional.of(r.value());
      }
    }
    return Optional.empty();
  }

  /** The values of all pairs called {@code name}, in order; empty if there are none. */
  public List<MiValue> all(String name) {
    List<MiValue> found = new ArrayList<>();
    for (MiResult r : results) {
      if (r.name().equals(name)) {
        found.add(r.value());
      }
    }
    return List.copyOf(found);
  }

  /** Whether a pair called {@code name} exists. */
  public boolean has(String name) {
    return get(name).isPresent();
  }

  /**
   * The string value of the first pair called {@code name}.
   *
   * @throws MiShapeException if there is no such pair or its value is not a constant
   */
  public String string(String name) {
    MiValue v = require(name, "a string");
    if (v instanceof MiConst c) {
      return c.value();
    }
    throw wrongKind(name, "a string", v);
  }

  /**
   * The string value of the first pair called {@code name}, or empty if there is no such pair.
   *
   * @throws MiShapeException if the pair exists but its value is not a constant, because that is a
   *     different gdb output than the caller expects, not an absent field
   */
  public Optional<String> optString(String name) {
    Optional<MiValue> v = get(name);
    if (v.isEmpty()) {
      return Optional.empty();
    }
    if (v.get() instanceof MiConst c) {
      return Optional.of(c.value());
    }
    throw wrongKind(name, "a string", v.get());
  }

  /**
   * The tuple value of the first pair called {@code name}.
   *
   * @throws MiShapeException if there is no such pair or its value is not a tuple
   */
  public MiTuple tuple(String name) {
    MiValue v = require(name, "a tuple");
    if (v instanceof MiTuple t) {
      return t;
    }
    throw wrongKind(name, "a tuple", v);
  }

  /**
   * The list value of the first pair called {@code name}.
   *
   * @throws MiShapeException if there is no such pair or its value is not a list
   */
  public MiList list(String name) {
    MiValue v = require(name, "a list");
    if (v instanceof MiList l) {
      return l;
    }
    throw wrongKind(name, "a list", v);
  }

  /** The number of pairs, duplicates included. */
  public int size() {
    return results.size();
  }

  /** Whether this is {@code {}}. */
  public boolean isEmpty() {
    return results.isEmpty();
  }

  private MiValue require(String name, String expected) {
    return get(name)
        .orElseThrow(
            () ->
                new MiShapeException(
                    "expected field '"
                        + name
                        + "' ("
                        + expected
                        + ") but it is absent; fields: "
                        + names()));
  }

  private static MiShapeException wrongKind(String name, String expected, MiValue found) {
    return new MiShapeException(
        "expected field '" + name + "' to be " + expected + " but it is " + describe(found));
  }

  private static String describe(MiValue v) {
    // Pattern switches are a preview feature in Java 17, hence the chain.
    if (v instanceof MiConst) {
      return "a string";
    }
    return v instanceof MiTuple ? "a tuple" : "a list";
  }

  private List<String> names() {
    List<String> names = new ArrayList<>(results.size());
    for (MiResult r : results) {
      names.add(r.name());
    }
    return names;
  }
}
