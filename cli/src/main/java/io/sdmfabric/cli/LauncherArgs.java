package io.sdmfabric.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Splits {@code sdm debug|stacks [options] [launcher options] -- PROGRAM [ARGS]}: before {@code
 * --}, the options sdm knows stay for it and every other option, with the values that follow it,
 * goes to the launcher, e.g. {@code --oversubscribe} or {@code --hostfile hosts}.
 *
 * @param sdm the arguments for sdm's parser, ending with {@code --} and the program's
 * @param launcher the launcher's options
 */
record LauncherArgs(List<String> sdm, List<String> launcher) {

  /** Splits {@code args} (after the subcommand) for {@code spec}; unchanged without {@code --}. */
  static LauncherArgs split(CommandSpec spec, List<String> args) {
    int dashes = args.indexOf("--");
    if (dashes < 0) {
      return new LauncherArgs(List.copyOf(args), List.of());
    }
    List<String> sdm = new ArrayList<>();
    List<String> launcher = new ArrayList<>();
    boolean toLauncher = false;
    for (int i = 0; i < dashes; i++) {
      String a = args.get(i);
      OptionSpec known = a.startsWith("-") ? known(spec, a) : null;
      if (known != null) {
        toLauncher = false;
        sdm.add(a);
        if (!a.contains("=") && !attachedValue(a, known)) {
          for (int v = 0; v < known.arity().min() && i + 1 < dashes; v++) {
            sdm.add(args.get(++i));
          }
        }
      } else if (a.startsWith("-")) {
        toLauncher = true;
        launcher.add(a);
      } else if (toLauncher) {
        launcher.add(a);
      } else {
        sdm.add(a);
      }
    }
    sdm.addAll(args.subList(dashes, args.size()));
    return new LauncherArgs(List.copyOf(sdm), List.copyOf(launcher));
  }

  private static OptionSpec known(CommandSpec spec, String arg) {
    String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
    OptionSpec o = spec.findOption(name);
    if (o == null && !arg.startsWith("--") && arg.length() > 2) {
      o = spec.findOption(arg.substring(0, 2)); // -n4
    }
    return o;
  }

  private static boolean attachedValue(String arg, OptionSpec option) {
    return !arg.startsWith("--") && arg.length() > 2 && option.arity().min() > 0;
  }
}
