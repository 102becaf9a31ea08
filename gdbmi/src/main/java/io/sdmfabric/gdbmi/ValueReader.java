package io.sdmfabric.gdbmi;

import io.sdmfabric.model.DebuggerException;
import io.sdmfabric.model.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Reads a rank's values from gdb. Where gdb has Python, sdm's own gdb command ({@code sdm-value},
 * see {@code sdm_values.py}) answers a value in one MI command: its printed text, type, size and,
 * for a C struct, union or array, its children, as one MI result record. Otherwise, and for the
 * children of C++ classes, gdb's variable objects answer: {@code -var-create}, {@code sizeof}, the
 * text that {@code print} shows for composites, {@code -var-list-children} per level and {@code
 * -var-delete}. Both give the same {@link Value}: children named, typed and shown as variable
 * objects show them, {@value GdbDebugger#CHILD_DEPTH} levels deep and at most {@value
 * GdbDebugger#MAX_CHILDREN} per level; pointers are not followed.
 */
final class ValueReader {
  private final Inferior inferior;
  private final Function<MiCommand, CompletableFuture<MiReply>> send;
  private final boolean oneCommand;

  /**
   * @param oneCommand whether gdb has sdm's value commands loaded ({@link
   *     GdbDriver#hasValueCommands})
   */
  ValueReader(
      Inferior inferior, Function<MiCommand, CompletableFuture<MiReply>> send, boolean oneCommand) {
    this.inferior = inferior;
    this.send = send;
    this.oneCommand = oneCommand;
  }

  CompletableFuture<Value> evaluate(String expression) {
    return oneCommand ? inOneCommand(expression) : throughVariableObject(expression);
  }

  /** The type of an expression, as {@code whatis} names it. */
  CompletableFuture<String> typeOf(String expression) {
    if (oneCommand) {
      return sdm(MiCommands.sdmType(inferior.here(), expression)).thenApply(r -> r.string("type"));
    }
    return send.apply(MiCommands.whatis(inferior.here(), expression))
        .thenApply(
            r -> {
              String out = r.console().strip();
              return out.startsWith("type = ") ? out.substring("type = ".length()) : out;
            });
  }

  private CompletableFuture<Value> inOneCommand(String expression) {
    MiCommand command =
        MiCommands.sdmValue(
            inferior.here(), GdbDebugger.CHILD_DEPTH, GdbDebugger.MAX_CHILDREN, expression);
    return sdm(command)
        .thenCompose(
            v -> {
              if (readsChildrenAlone(v)) {
                Value parent = fromHelper(expression, v);
                return childrenOfVariable(expression)
                    .thenApply(
                        all ->
                            new Value(
                                expression,
                                parent.type(),
                                parent.kind(),
                                parent.size(),
                                parent.text(),
                                parent.childCount(),
                                all));
              }
              return CompletableFuture.completedFuture(fromHelper(expression, v));
            });
  }

  /**
   * Whether the children of a value {@code sdm-value} printed must come from variable objects
   * ({@code children="varobj"}: a C++ class, whose access groups Python cannot see).
   */
  static boolean readsChildrenAlone(MiTuple v) {
    return v.get("children").isPresent()
        && !(v.get("children").get() instanceof MiList)
        && kind(v).isComposite();
  }

  private static Value.Kind kind(MiTuple v) {
    return ValueKinds.classify(
        v.string("type"), v.string("shown"), Integer.parseInt(v.string("numchild")));
  }

  /**
   * The value {@code sdm-value} printed of {@code expression}, with the children it listed (none
   * when {@link #readsChildrenAlone}).
   */
  static Value fromHelper(String expression, MiTuple v) {
    String type = v.string("type");
    int count = Integer.parseInt(v.string("numchild"));
    Value.Kind kind = kind(v);
    String text = kind.isComposite() ? v.string("value") : v.string("shown");
    int size = Integer.parseInt(v.string("size"));
    List<Value> children =
        kind.isComposite() && v.get("children").orElse(null) instanceof MiList list
            ? helperChildren(list)
            : List.of();
    return new Value(expression, type, kind, size, text, count, children);
  }

  /** What one of sdm's gdb commands printed: one MI result record, parsed as gdb's own are. */
  private CompletableFuture<MiTuple> sdm(MiCommand command) {
    return send.apply(command).thenApply(ValueReader::printed);
  }

  /** The MI result record one of sdm's gdb commands printed as the last line of its output. */
  static MiTuple printed(MiReply reply) {
    String out = reply.console().strip();
    String line = out.substring(out.lastIndexOf("\n^done,") + 1);
    try {
      if (MiParser.parse(line) instanceof MiResultRecord record) {
        return record.results();
      }
    } catch (MiParseException e) {
      throw new DebuggerException("gdb's sdm command printed what is not MI: " + e.getMessage());
    }
    throw new DebuggerException("gdb's sdm command printed no result: " + line);
  }

  private static List<Value> helperChildren(MiList list) {
    List<Value> out = new ArrayList<>(list.items().size());
    for (MiValue item : list.items()) {
      MiTuple child = GdbResults.asTuple(item);
      String type = child.string("type");
      String text = child.string("value");
      int count = Integer.parseInt(child.string("numchild"));
      Value.Kind kind = ValueKinds.classify(type, text, count);
      List<Value> grand =
          kind.isComposite() && child.get("children").orElse(null) instanceof MiList g
              ? helperChildren(g)
              : List.of();
      out.add(new Value(child.string("exp"), type, kind, 0, text, count, grand));
    }
    return out;
  }

  /** The children of a C++ value, whose access groups only variable objects know. */
  private CompletableFuture<List<Value>> childrenOfVariable(String expression) {
    return send.apply(MiCommands.createVariable(inferior.here(), expression))
        .thenCompose(
            var -> {
              String name = var.results().string("name");
              return children(name, GdbDebugger.CHILD_DEPTH)
                  .whenComplete((v, e) -> send.apply(MiCommands.deleteVariable(name)));
            });
  }

  private CompletableFuture<Value> throughVariableObject(String expression) {
    // A variable object gives the type, the number of children and, for a scalar, the text that
    // print shows; print's own text is fetched only for composites (where the object shows
    // "{...}"), and print's error when the object cannot be made, for gdb's own message.
    CompletableFuture<MiReply> created =
        send.apply(MiCommands.createVariable(inferior.here(), expression));
    CompletableFuture<Integer> size =
        send.apply(MiCommands.evaluate(inferior.here(), "sizeof(" + expression + ")"))
            .handle((s, e) -> e == null ? parseSize(s) : 0);
    return created
        .handle(
            (var, error) -> {
              if (error != null) {
                return printed(expression, size);
              }
              if (var.results().optString("value").orElse("").isEmpty()) {
                // Made, but without a value (e.g. a division by zero): print says why.
                send.apply(MiCommands.deleteVariable(var.results().string("name")));
                return printed(expression, size);
              }
              return fromVariable(expression, var, size);
            })
        .thenCompose(value -> value);
  }

  private CompletableFuture<Value> fromVariable(
      String expression, MiReply var, CompletableFuture<Integer> size) {
    String name = var.results().string("name");
    String type = var.results().optString("type").orElse("");
    int childCount = Integer.parseInt(var.results().optString("numchild").orElse("0"));
    String shown = var.results().optString("value").orElse("");
    Value.Kind kind = ValueKinds.classify(type, shown, childCount);
    CompletableFuture<String> text =
        kind.isComposite()
            ? send.apply(MiCommands.evaluate(inferior.here(), expression))
                .thenApply(r -> r.results().string("value"))
            : CompletableFuture.completedFuture(shown);
    CompletableFuture<List<Value>> children =
        kind.isComposite()
            ? children(name, GdbDebugger.CHILD_DEPTH)
            : CompletableFuture.completedFuture(List.of());
    return CompletableFuture.allOf(text, children, size)
        .thenApply(
            done ->
                new Value(
                    expression, type, kind, size.join(), text.join(), childCount, children.join()))
        .whenComplete((v, e) -> send.apply(MiCommands.deleteVariable(name)));
  }

  private CompletableFuture<Value> printed(String expression, CompletableFuture<Integer> size) {
    return send.apply(MiCommands.evaluate(inferior.here(), expression))
        .thenCombine(
            size,
            (r, bytes) -> {
              String text = r.results().string("value");
              return Value.scalar(expression, "", ValueKinds.classify("", text, 0), bytes, text);
            });
  }

  /** The children of a variable object, {@code depth} levels down, C++ access groups flattened. */
  private CompletableFuture<List<Value>> children(String var, int depth) {
    if (depth == 0) {
      return CompletableFuture.completedFuture(List.of());
    }
    return send.apply(MiCommands.variableChildren(var, GdbDebugger.MAX_CHILDREN))
        .thenCompose(
            r -> {
              List<CompletableFuture<List<Value>>> parts = new ArrayList<>();
              for (MiValue v :
                  r.results()
                      .get("children")
                      .map(x -> (MiList) x)
                      .map(MiList::items)
                      .orElse(List.of())) {
                MiTuple child = GdbResults.asTuple(v);
                String name = child.string("name");
                String exp = child.string("exp");
                int count = Integer.parseInt(child.optString("numchild").orElse("0"));
                if (child.get("type").isEmpty() && isAccessGroup(exp)) {
                  parts.add(children(name, depth));
                  continue;
                }
                String type = child.string("type");
                String text = child.optString("value").orElse("");
                Value.Kind kind = ValueKinds.classify(type, text, count);
                CompletableFuture<List<Value>> grand =
                    kind.isComposite() && count > 0
                        ? children(name, depth - 1)
                        : CompletableFuture.completedFuture(List.of());
                parts.add(
                    grand.thenApply(g -> List.of(new Value(exp, type, kind, 0, text, count, g))));
              }
              return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                  .thenApply(
                      x -> {
                        List<Value> all = new ArrayList<>();
                        parts.forEach(p -> all.addAll(p.join()));
                        return all;
                      });
            });
  }

  private static int parseSize(MiReply r) {
    try {
      return Integer.parseInt(r.results().string("value"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static boolean isAccessGroup(String exp) {
    return exp.equals("public") || exp.equals("private") || exp.equals("protected");
  }
}
