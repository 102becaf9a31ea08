package io.sdmfabric.cli;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.sdmfabric.model.TerminalText;
import io.sdmfabric.runtime.cluster.SlurmCommand;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Option;

/**
 * How {@code sdm jobs} and {@code sdm nodes} print their view: as text or as one JSON document,
 * once or again each time it changed ({@code --watch}), until interrupted. Each poll runs Slurm's
 * commands within a bound of its own.
 */
final class ViewOptions {
  /** JSON as the other commands write it: one line, "<" and "&" as they are, nulls kept. */
  private static final Gson JSON =
      new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

  /** {@code value} (maps, lists, strings, numbers, booleans) as one line of JSON. */
  static String toJson(Object value) {
    return JSON.toJson(value);
  }

  /** The seconds between polls of {@code --watch} given alone. */
  static final int DEFAULT_WATCH = 2;

  @Option(
      names = "--json",
      description =
          "print one JSON document (with --watch, one a line; {\"error\": WHY} while the view"
              + " cannot be taken)")
  boolean json;

  @Option(
      names = "--watch",
      arity = "0..1",
      paramLabel = "SECONDS",
      fallbackValue = "" + DEFAULT_WATCH,
      description =
          "look again every SECONDS (default: "
              + DEFAULT_WATCH
              + ") and print when something"
              + " changed, until interrupted")
  Integer watch;

  /**
   * A view, taken once: its text, its JSON value, and what changes in it (the view without the
   * times that run on by themselves), that {@code --watch} compares.
   */
  record View(String text, Object json, Object changes) {
    View {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(json, "json");
      Objects.requireNonNull(changes, "changes");
    }
  }

  /** Takes the view: reads what it shows, within the bound of {@code command}. */
  interface Source {
    View take(SlurmCommand command) throws IOException;
  }

  /**
   * Prints the view {@code source} takes, once or as {@code --watch} asks.
   *
   * @param command the command's name in error lines: {@code sdm jobs}
   * @return the exit status: 0, or 1 when the view could not be taken (its line on {@code err})
   */
  int print(String command, Source source, PrintStream out, PrintStream err) throws Exception {
    if (watch != null && watch < 1) {
      throw new UsageError(command, "--watch needs at least 1 second, not " + watch);
    }
    SlurmCommand slurm = new SlurmCommand(SlurmCommand.DEFAULT_BOUND);
    if (watch == null) {
      try {
        show(source.take(slurm), out);
        return 0;
      } catch (IOException e) {
        err.println(command + ": " + TerminalText.escape(String.valueOf(e.getMessage())));
        return 1;
      }
    }
    Object last = null;
    String lastError = null;
    while (true) {
      try {
        View view = source.take(slurm);
        lastError = null;
        if (!view.changes().equals(last)) {
          if (last != null && !json) {
            out.println();
          }
          show(view, out);
          last = view.changes();
        }
      } catch (IOException e) {
        // Said once while it lasts; the next poll may succeed, and is printed then. With --json,
        // as a document of its own, {"error": WHY}, so that a tool that reads the lines sees it.
        String why = String.valueOf(e.getMessage());
        if (!why.equals(lastError)) {
          if (json) {
            out.println(toJson(Map.of("error", why)));
            out.flush();
          } else {
            err.println(command + ": " + TerminalText.escape(why));
          }
          lastError = why;
          last = null;
        }
      }
      TimeUnit.SECONDS.sleep(watch);
    }
  }

  private void show(View view, PrintStream out) {
    if (json) {
      out.println(toJson(view.json()));
    } else {
      out.print(view.text());
    }
    out.flush();
  }
}
