package io.sdmfabric.frontend.dap;

import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.Value;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.ScopePresentationHint;
import org.eclipse.lsp4j.debug.ScopesResponse;
import org.eclipse.lsp4j.debug.SetVariableArguments;
import org.eclipse.lsp4j.debug.SetVariableResponse;
import org.eclipse.lsp4j.debug.Variable;
import org.eclipse.lsp4j.debug.VariablesResponse;

/**
 * The variables of a rank group, as a DAP client shows them (the scopes, variables and setVariable
 * requests): a frame's arguments and locals, and the fields, elements or pointed-to value of a
 * value that has them, each with its text per class of ranks ("42 on [0,1,3], -1 on [2]"). A value
 * with parts gets a reference ({@link VariableReferences}) whose expansion evaluates the part's own
 * expression ({@code p.x}, {@code a[3]}, {@code *next}) on the group's ranks, so that parts too are
 * compared across ranks, however deep.
 */
final class GroupVariables {
  private static final Pattern PLAIN =
      Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*|\\[\\d+\\])*");

  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;
  private final IntFunction<RankSet> ranksOf;
  private final BiConsumer<Integer, RankSet> selectFrame;
  private final VariableReferences references;

  /**
   * Variables read through {@code exchange} from the ranks {@code ranksOf} gives for a thread id,
   * in the frame {@code selectFrame} selects on them; their references kept in {@code references}.
   */
  GroupVariables(
      BiFunction<CommandBody, RankSet, List<RankReply>> exchange,
      IntFunction<RankSet> ranksOf,
      BiConsumer<Integer, RankSet> selectFrame,
      VariableReferences references) {
    this.exchange = exchange;
    this.ranksOf = ranksOf;
    this.selectFrame = selectFrame;
    this.references = references;
  }

  /** The scopes of {@code frame}: its arguments and its locals. */
  ScopesResponse scopes(GroupFrame frame) {
    ScopesResponse response = new ScopesResponse();
    response.setScopes(
        new Scope[] {
          scope("Arguments", new VariableReferences.Scope(frame, true)),
          scope("Locals", new VariableReferences.Scope(frame, false))
        });
    return response;
  }

  private Scope scope(String name, VariableReferences.Scope of) {
    Scope scope = new Scope();
    scope.setName(name);
    scope.setPresentationHint(
        of.arguments() ? ScopePresentationHint.ARGUMENTS : ScopePresentationHint.LOCALS);
    scope.setVariablesReference(references.reference(of));
    scope.setExpensive(false);
    return scope;
  }

  /** What variable reference {@code reference} holds. */
  VariablesResponse variables(int reference) {
    VariablesResponse response = new VariablesResponse();
    response.setVariables(variables(container(reference)).toArray(Variable[]::new));
    return response;
  }

  /** Sets a variable on every rank of its group; the reply shows its new value per class. */
  SetVariableResponse set(SetVariableArguments args) {
    SetVariableResponse response = new SetVariableResponse();
    try {
      response.setValue(
          set(container(args.getVariablesReference()), args.getName(), args.getValue()));
    } catch (IllegalArgumentException e) {
      throw RequestFailure.of("not set: " + e.getMessage());
    }
    return response;
  }

  /**
   * The expression of variable {@code name} of variable reference {@code reference}, or {@code
   * name} itself without a reference.
   */
  String expression(Integer reference, String name) {
    return reference == null ? name : expression(container(reference), name);
  }

  private VariableReferences.Container container(int reference) {
    return references
        .container(reference)
        .orElseThrow(
            () ->
                RequestFailure.of(
                    "variable reference " + reference + " has expired: the ranks moved"));
  }

  /** What {@code container} holds. */
  List<Variable> variables(VariableReferences.Container container) {
    RankSet ranks = at(container);
    if (container instanceof VariableReferences.Expression e) {
      return parts(e, ranks);
    }
    boolean arguments = ((VariableReferences.Scope) container).arguments();
    Map<String, List<Classed>> byName = new LinkedHashMap<>();
    for (RankReply r :
        exchange.apply(arguments ? Commands.listArgs() : Commands.listLocals(), ranks)) {
      if (r.reply() instanceof Reply.Variables vs) {
        for (Value v : vs.variables()) {
          byName.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(new Classed(v, r));
        }
      }
    }
    return shown(container, byName, name -> name);
  }

  /**
   * Sets {@code name} of {@code container} to {@code value} on the group's ranks.
   *
   * @return the new value per class of ranks
   * @throws IllegalArgumentException when no rank could set it, with what they said
   */
  String set(VariableReferences.Container container, String name, String value) {
    RankSet ranks = at(container);
    String target = expression(container, name, ranks);
    List<RankReply> replies = exchange.apply(Commands.evaluate(target + " = " + value), ranks);
    if (replies.stream().noneMatch(r -> r.reply() instanceof Reply.Evaluated)) {
      throw new IllegalArgumentException(PerRankValues.of(replies));
    }
    return PerRankValues.of(replies);
  }

  /** The expression of variable {@code name} of {@code container}. */
  String expression(VariableReferences.Container container, String name) {
    return container instanceof VariableReferences.Expression
        ? expression(container, name, at(container))
        : name;
  }

  private String expression(VariableReferences.Container container, String name, RankSet ranks) {
    if (container instanceof VariableReferences.Expression e) {
      Value.Kind kind = kind(exchange.apply(Commands.evaluate(e.expression()), ranks));
      return kind == Value.Kind.POINTER ? name : part(e.expression(), kind, name);
    }
    return name;
  }

  /** The parts of an expression's value: its children, merged by name across the classes. */
  private List<Variable> parts(VariableReferences.Expression e, RankSet ranks) {
    List<RankReply> replies = exchange.apply(Commands.evaluate(e.expression()), ranks);
    Value.Kind kind = kind(replies);
    if (kind == Value.Kind.POINTER) {
      String target = part(e.expression(), kind, "");
      Map<String, List<Classed>> pointee = new LinkedHashMap<>();
      for (RankReply r : exchange.apply(Commands.evaluate(target), ranks)) {
        pointee.computeIfAbsent(target, k -> new ArrayList<>()).add(new Classed(value(r), r));
      }
      return shown(e, pointee, name -> name);
    }
    Map<String, List<Classed>> byName = new LinkedHashMap<>();
    List<Variable> summaries = new ArrayList<>();
    for (RankReply r : replies) {
      if (r.reply() instanceof Reply.Evaluated v) {
        for (Value child : v.value().children()) {
          byName.computeIfAbsent(child.name(), k -> new ArrayList<>()).add(new Classed(child, r));
        }
      } else if (r.reply() instanceof Reply.ValuesSummarized) {
        summaries.add(summary(r));
      }
    }
    List<Variable> shown = shown(e, byName, name -> part(e.expression(), kind, name));
    shown.addAll(summaries);
    return shown;
  }

  /**
   * The entry that says some ranks' values were summed up rather than listed (past the session's
   * cap on classes of values), and how to see them: with no reference, since their parts were never
   * read.
   */
  private static Variable summary(RankReply r) {
    Variable v = new Variable();
    v.setName("(more values)");
    v.setValue(
        PerRankValues.text(r)
            + " on ["
            + r.ranks()
            + "]; print --all in the Debug Console lists them");
    v.setVariablesReference(0);
    return v;
  }

  /** A value of one class of ranks; an error or a lost rank as text. */
  private record Classed(Value value, RankReply reply) {}

  private List<Variable> shown(
      VariableReferences.Container at,
      Map<String, List<Classed>> byName,
      java.util.function.UnaryOperator<String> expressionOf) {
    List<Variable> variables = new ArrayList<>();
    byName.forEach(
        (name, classes) -> {
          Value first = classes.get(0).value();
          Map<String, RankSet> ranksByText = new LinkedHashMap<>();
          for (Classed c : classes) {
            ranksByText.merge(c.value().text(), c.reply().ranks(), RankSet::union);
          }
          Variable v = new Variable();
          v.setName(name);
          v.setType(first.type());
          v.setValue(text(ranksByText));
          String expression = expressionOf.apply(name);
          v.setEvaluateName(expression);
          v.setVariablesReference(
              expandable(first)
                  ? references.reference(new VariableReferences.Expression(at.frame(), expression))
                  : 0);
          variables.add(v);
        });
    return variables;
  }

  private static String text(Map<String, RankSet> ranksByText) {
    if (ranksByText.size() == 1) {
      return ranksByText.keySet().iterator().next();
    }
    return ranksByText.entrySet().stream()
        .sorted(Comparator.comparingInt(e -> e.getValue().first()))
        .map(e -> e.getKey() + " on [" + e.getValue() + "]")
        .collect(Collectors.joining(", "));
  }

  /** The group's ranks, their frame selected. */
  private RankSet at(VariableReferences.Container container) {
    RankSet ranks = ranksOf.apply(container.frame().threadId());
    selectFrame.accept(container.frame().level(), ranks);
    return ranks;
  }

  private static Value.Kind kind(List<RankReply> replies) {
    return replies.stream()
        .flatMap(r -> PerRankValues.value(r).stream())
        .map(Value::kind)
        .findFirst()
        .orElse(Value.Kind.UNKNOWN);
  }

  private static Value value(RankReply r) {
    return PerRankValues.value(r)
        .orElseGet(() -> Value.scalar("", "", Value.Kind.UNKNOWN, 0, PerRankValues.text(r)));
  }

  /** Whether a value has parts to show: fields, elements, or a pointed-to value. */
  static boolean expandable(Value v) {
    return v.kind().isComposite()
        || (v.kind() == Value.Kind.POINTER
            && !v.type().replace(" ", "").startsWith("void*")
            && !v.text().matches("0x0+( .*)?"));
  }

  /**
   * The expression of part {@code name} of {@code expression}'s value of {@code kind}: an element
   * {@code a[3]}, a field {@code p.x}, or for a pointer what it points to {@code *p}.
   */
  static String part(String expression, Value.Kind kind, String name) {
    String whole = PLAIN.matcher(expression).matches() ? expression : "(" + expression + ")";
    return switch (kind) {
      case ARRAY -> whole + "[" + name + "]";
      case POINTER -> "*" + whole;
      default -> whole + "." + name;
    };
  }
}
