package io.sdmfabric.gdbmi;

import java.util.ArrayList;
import java.util.List;

/**
 * A list {@code [...]}: either of bare values ({@code ["i1","i2"]}) or of named results ({@code
 * [frame={...},frame={...}]}).
 *
 * <p>The grammar allows one form or the other, never a mix, so at most one of the two components is
 * non-empty; the empty list {@code []} has both empty. Consumers that do not care about the names
 * (which in a result list are usually all the same) use {@link #items()}.
 *
 * @param values the elements of a value list, in order; empty for a result list
 * @param results the elements of a result list, in order; empty for a value list
 */
public record MiList(List<MiValue> values, List<MiResult> results) implements MiValue {

  /** The list {@code []}. */
  public static final MiList EMPTY = new MiList(List.of(), List.of());

  /** Copies both lists, rejecting nulls and a mix of values and results. */
  public MiList {
    values = List.copyOf(values);
    results = List.copyOf(results);
    if (!values.isEmpty() && !results.isEmpty()) {
      throw new IllegalArgumentException("an MI list holds values or results, not both");
    }
  }

  /** A list of bare values. */
  public static MiList ofValues(List<MiValue> values) {
    return new MiList(values, List.of());
  }

  /** A list of named results. */
  public static MiList ofResults(List<MiResult> results) {
    return new MiList(List.of(), results);
  }

  /** The elements in order: the values, or the values of the results. */
  public List<MiValue> items() {
    if (results.isEmpty()) {
      return values;
    }
    List<MiValue> items = new ArrayList<>(results.size());
    for (MiResult r : results) {
      items.add(r.value());
    }
    return List.copyOf(items);
  }

  /** The number of elements. */
  public int size() {
    return values.size() + results.size();
  }

  /** Whether this is {@code []}. */
  public boolean isEmpty() {
    return values.isEmpty() && results.isEmpty();
  }

  /** Whether this is a list of named results (false for {@code []}). */
  public boolean hasResults() {
    return !results.isEmpty();
  }
}
