package io.sdmfabric.frontend.dap;

import io.sdmfabric.frontend.Console;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.proto.CommandBody;
import java.util.List;
import java.util.function.BiFunction;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.EvaluateArgumentsContext;
import org.eclipse.lsp4j.debug.EvaluateResponse;

/**
 * The evaluate request: a line of the Debug Console is the console language, whose output goes to
 * the Debug Console; a hover or a watch is an expression evaluated on a frame's ranks (or on every
 * stopped rank without a frame), its value per class of ranks, with a reference to its parts when
 * it has some.
 */
final class Evaluator {
  private final Console console;
  private final RankThreads threads;
  private final GroupStacks stacks;
  private final FrameSelection frames;
  private final VariableReferences references;
  private final BiFunction<CommandBody, RankSet, List<RankReply>> exchange;

  Evaluator(
      Console console,
      RankThreads threads,
      GroupStacks stacks,
      FrameSelection frames,
      VariableReferences references,
      BiFunction<CommandBody, RankSet, List<RankReply>> exchange) {
    this.console = console;
    this.threads = threads;
    this.stacks = stacks;
    this.frames = frames;
    this.references = references;
    this.exchange = exchange;
  }

  EvaluateResponse evaluate(EvaluateArguments args) {
    EvaluateResponse response = new EvaluateResponse();
    response.setVariablesReference(0);
    if (EvaluateArgumentsContext.REPL.equals(args.getContext())) {
      // The console language; what the console prints goes to the Debug Console as output.
      console.execute(args.getExpression());
      frames.forget(threads.all()); // frame, up, down and thread select others
      response.setResult("");
      return response;
    }
    if (args.getFrameId() == null) {
      response.setResult(
          PerRankValues.of(
              exchange.apply(Commands.evaluate(args.getExpression()), threads.stopped())));
      return response;
    }
    GroupFrame frame = stacks.frame(args.getFrameId());
    RankSet ranks = threads.group(frame.threadId()).ranks();
    frames.select(frame.level(), ranks);
    List<RankReply> replies = exchange.apply(Commands.evaluate(args.getExpression()), ranks);
    response.setResult(PerRankValues.of(replies));
    replies.stream()
        .flatMap(r -> PerRankValues.value(r).stream())
        .filter(GroupVariables::expandable)
        .findFirst()
        .ifPresent(
            v -> {
              response.setType(v.type());
              response.setVariablesReference(
                  references.reference(
                      new VariableReferences.Expression(frame, args.getExpression())));
            });
    return response;
  }
}
