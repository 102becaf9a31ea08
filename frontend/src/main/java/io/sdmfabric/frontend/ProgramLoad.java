package io.sdmfabric.frontend;

import io.sdmfabric.model.LaunchSpec;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.StartProgress;
import io.sdmfabric.wire.Commands;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.Reply;
import io.sdmfabric.wire.SessionClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The first command of every console session: say how the ranks were started, load the program on
 * every rank, and show it.
 */
public final class ProgramLoad {
  private ProgramLoad() {}

  /** Loads {@code program} with {@code args} on every rank; false when no rank could. */
  public static boolean load(
      SessionClient session, Renderer renderer, String program, List<String> args)
      throws Exception {
    return load(session, renderer, program, args, RankSet.all(session.size()), "load");
  }

  /**
   * Loads {@code program} on {@code ranks}, showing the replies as those of the console command
   * {@code word}; false when no rank could. Ranks a launcher started or an attach found answer with
   * what they run, whatever the program named.
   */
  public static boolean load(
      SessionClient session,
      Renderer renderer,
      String program,
      List<String> args,
      RankSet ranks,
      String word)
      throws Exception {
    renderer.session(ranks, session.started());
    renderer.progress(new StartProgress.Loading(ranks.size()));
    LaunchSpec spec = new LaunchSpec(program, args, Map.of(), Path.of("").toAbsolutePath());
    List<RankReply> replies;
    try {
      replies =
          session.call(Commands.startSession(spec), ranks, Duration.ZERO).get(60, TimeUnit.SECONDS);
    } finally {
      renderer.progress(new StartProgress.Ready(session.size()));
    }
    boolean any = false;
    for (RankReply r : replies) {
      renderer.reply(word, "", r);
      any |= r.reply() instanceof Reply.Loaded;
    }
    return any;
  }
}
