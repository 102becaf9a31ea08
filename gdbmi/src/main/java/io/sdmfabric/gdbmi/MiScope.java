package io.sdmfabric.gdbmi;

/**
 * What an MI command applies to, as its first options say: gdb's own selection (no option), a
 * program as a whole ({@code --thread-group iN}), one thread ({@code --thread T}), or one frame of
 * a thread ({@code --thread T --frame F}). gdb's selection is shared by all its programs, so a
 * rank's commands always name their scope ({@link Inferior} picks it).
 */
sealed interface MiScope {
  /** gdb's current selection: commands about gdb itself or about no program. */
  MiScope GDB = new Gdb();

  /** The program of thread group {@code group}, e.g. {@code i2}. */
  static MiScope group(String group) {
    return new Group(group);
  }

  /** gdb's thread {@code global}. */
  static MiScope thread(int global) {
    return new OnThread(global);
  }

  /** Frame {@code level} of gdb's thread {@code global}. */
  static MiScope frame(int global, int level) {
    return new AtFrame(global, level);
  }

  /** A command for {@code operation} with this scope's options. */
  MiCommand command(String operation);

  /** gdb's current selection. */
  record Gdb() implements MiScope {
    @Override
    public MiCommand command(String operation) {
      return MiCommand.of(operation);
    }
  }

  /** A program as a whole. */
  record Group(String id) implements MiScope {
    @Override
    public MiCommand command(String operation) {
      return MiCommand.of(operation).option("--thread-group").param(id);
    }
  }

  /** One thread, in its innermost frame. */
  record OnThread(int global) implements MiScope {
    @Override
    public MiCommand command(String operation) {
      return MiCommand.of(operation).option("--thread").param(global);
    }
  }

  /** One frame of one thread. */
  record AtFrame(int global, int level) implements MiScope {
    @Override
    public MiCommand command(String operation) {
      return MiCommand.of(operation)
          .option("--thread")
          .param(global)
          .option("--frame")
          .param(level);
    }
  }
}
