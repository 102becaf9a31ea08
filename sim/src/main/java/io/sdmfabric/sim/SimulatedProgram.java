package io.sdmfabric.sim;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.model.SignalInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An immutable description of the MPI-like program that {@link SimulatedDebugger}s pretend to
 * debug. One instance is shared by every rank of a job (up to 2^20 in one JVM), so everything that
 * does not depend on the rank lives here: the functions and their source lines, the call paths, the
 * per-position stacks (built once, on first use), the signal table and the faults.
 *
 * <p><b>The program.</b> It is one source file, {@value #FILE}. {@code main} calls {@code
 * solver_loop}, which runs {@link #iterations()} iterations; each iteration descends a call path of
 * {@link #depth()} frames and returns. Rank {@code r} is in rank class {@code r % distinctPaths}
 * and takes that class's path:
 *
 * <pre>
 *   main -> solver_loop -> f_P_2 -> ... -> f_P_(depth-2) -> compute   (P even)
 *   main -> solver_loop -> f_P_2 -> ... -> f_P_(depth-2) -> exchange  (P odd)
 * </pre>
 *
 * so with {@code depth >= 4} the paths are all distinct, and with {@code depth == 3} there are at
 * most two ({@code compute} and {@code exchange}). Every function takes {@value #FUNCTION_LINES}
 * lines of {@value #FILE}: its header at line {@code start}, its code on the following lines (the
 * first one is where a breakpoint on the function stops). {@link #functionStartLine} tells where a
 * function is.
 *
 * <p>The program visits these source positions, in this order (a "position" is one line in one
 * frame; stepping moves from one position to the next):
 *
 * <ol>
 *   <li>prologue: {@code main} +1 ({@code MPI_Init}), {@code main} +2 (calls {@code solver_loop}),
 *       {@code solver_loop} +1;
 *   <li>for each iteration: {@code solver_loop} +2 (the loop header), +3 (the call), then for each
 *       middle function +1 and +2 (the call), the leaf's +1, +2 (its MPI call, where crashes and
 *       hangs happen) and +3, then the middle functions' +3 on the way back up, innermost first,
 *       and {@code solver_loop} +4;
 *   <li>epilogue: {@code main} +3 ({@code MPI_Finalize}) and +4 ({@code return}), then the process
 *       exits with {@link #exitCode()}.
 * </ol>
 *
 * <p><b>Variables</b> (visible in every frame; {@code evaluate} also takes {@code NAME.FIELD},
 * {@code NAME[INDEX]}, {@code &NAME} and integer literals):
 *
 * <ul>
 *   <li>{@code rank}, {@code size}: the rank and the job size ({@code int});
 *   <li>{@code iteration}: the current loop iteration, 0 before the loop and {@link #iterations()}
 *       after it;
 *   <li>{@code x}: {@code 42} on every rank, unless {@link Builder#withDifferentValue} says
 *       otherwise (the "rank 37 has -1" case);
 *   <li>{@code distinct}: {@code rank * 7 + 1}, different on every rank;
 *   <li>{@code residual}: a {@code double}, {@code 1 / (iteration + 1)};
 *   <li>{@code state}: a {@code struct sim_state} with fields {@code rank}, {@code iteration} and
 *       {@code residual};
 *   <li>{@code arr}: an {@code int [4]} holding 1, 2, 3, 4;
 *   <li>the {@code int}s added with {@link Builder#withVariable};
 *   <li>the selected frame's locals and arguments: {@code main}: local {@code rc}, arguments {@code
 *       argc}, {@code argv}; {@code solver_loop}: local {@code i} (the iteration), argument {@code
 *       n} (the iteration count); the others: local {@code tmp} ({@code rank + level}), argument
 *       {@code level} (the function's depth in the call path).
 * </ul>
 *
 * <p><b>Faults.</b> A rank given to {@link Builder#withCrash} stops with {@code SIGNAL_RECEIVED} at
 * its leaf's MPI-call line in iteration 0 (unless a breakpoint stops it earlier) and ends by that
 * signal on the next resume. Ranks given to {@link Builder#withHang} ignore every breakpoint and
 * never stop by themselves: they wait in {@value #RECV_FUNCTION} (a frame of {@value #MPI_LIBRARY}
 * without source), called from their leaf's MPI-call line in iteration 0, which is where an
 * interrupt finds them. A rank given to both hangs.
 *
 * <p>Instances are made with {@link #defaults()} or {@link #builder()}; they are immutable and
 * thread-safe (the lazily built stacks are immutable lists published through a racy cache, so two
 * threads may build the same list twice, never see a partial one).
 */
public final class SimulatedProgram {

  /** The program's only source file. */
  public static final String FILE = "sim.c";

  /** The function a hung rank waits in. */
  public static final String RECV_FUNCTION = "MPI_Recv";

  /** The shared object {@value #RECV_FUNCTION} is in. */
  public static final String MPI_LIBRARY = "libmpi.so.40";

  /** How many source lines each function takes. */
  public static final int FUNCTION_LINES = 8;

  static final int FIRST_LINE = 10;
  static final long TEXT_BASE = 0x401000L;
  static final long DATA_BASE = 0x601040L;
  static final long RECV_ADDRESS = 0x7ffff7e4a1c0L;
  static final int PROLOGUE = 3;
  static final int EPILOGUE = 2;
  static final int MAIN = 0;
  static final int SOLVER = 1;
  static final int COMPUTE = 2;
  static final int EXCHANGE = 3;

  /** The global variables every rank has, in the order of their addresses. */
  static final List<String> BUILTIN_GLOBALS =
      List.of("rank", "size", "iteration", "x", "distinct", "residual", "state", "arr");

  /** The scalar {@code int} globals, whose values {@link Builder#withDifferentValue} may change. */
  static final List<String> INT_GLOBALS = List.of("rank", "size", "iteration", "x", "distinct");

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final int iterations;
  private final int distinctPaths;
  private final int depth;
  private final int exitCode;
  private final boolean resumedEvents;
  private final String output;
  private final byte[] sharedOutput;
  private final RankSet hung;
  private final Map<Integer, String> crashes;
  private final Map<String, Long> variables;
  private final Map<String, Map<Integer, String>> differentValues;
  private final List<SignalInfo> signals;

  private final List<String> functions;
  private final Map<String, Integer> functionIndex;
  private final List<String> globals;
  private final Path[] paths;

  private SimulatedProgram(Builder b) {
    this.iterations = b.iterations;
    this.distinctPaths = b.distinctPaths;
    this.depth = b.depth;
    this.exitCode = b.exitCode;
    this.resumedEvents = b.resumedEvents;
    this.output = b.output;
    this.sharedOutput =
        output.contains("{rank}") || output.contains("{size}")
            ? null
            : output.getBytes(StandardCharsets.UTF_8);
    this.hung = b.hung;
    this.crashes = Map.copyOf(b.crashes);
    this.variables = Map.copyOf(b.variables);
    Map<String, Map<Integer, String>> different = new HashMap<>();
    b.differentValues.forEach((k, v) -> different.put(k, Map.copyOf(v)));
    this.differentValues = Map.copyOf(different);
    this.signals = DEFAULT_SIGNALS;

    List<String> names = new ArrayList<>(List.of("main", "solver_loop", "compute", "exchange"));
    for (int p = 0; p < distinctPaths; p++) {
      for (int level = 2; level <= depth - 2; level++) {
        names.add("f_" + p + "_" + level);
      }
    }
    this.functions = List.copyOf(names);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      index.put(names.get(i), i);
    }
    this.functionIndex = Map.copyOf(index);
    List<String> g = new ArrayList<>(BUILTIN_GLOBALS);
    b.variables.keySet().stream().sorted().forEach(g::add);
    this.globals = List.copyOf(g);
    this.paths = new Path[distinctPaths];
    for (int p = 0; p < distinctPaths; p++) {
      paths[p] = new Path(p);
    }
    if ((long) PROLOGUE + (long) iterations * bodyLength() + EPILOGUE > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "too many iterations for a depth of " + depth + ": " + iterations);
    }
  }

  /**
   * The default program: 10 iterations, 4 rank classes with stacks 5 frames deep, no output, no
   * faults, exit code 0.
   */
  public static SimulatedProgram defaults() {
    return builder().build();
  }

  /** A builder holding the defaults of {@link #defaults()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** How many times {@code solver_loop} loops before the program exits. */
  public int iterations() {
    return iterations;
  }

  /** The number of rank classes, each with its own call path. */
  public int distinctPaths() {
    return distinctPaths;
  }

  /** The number of frames at the innermost point of a call path. */
  public int depth() {
    return depth;
  }

  /** The exit code of a normal exit. */
  public int exitCode() {
    return exitCode;
  }

  /** The rank class, i.e. the call path, of a rank: {@code rank % distinctPaths()}. */
  public int pathOf(int rank) {
    return rank % distinctPaths;
  }

  /** Whether a rank hangs (see the class comment). */
  public boolean hangs(int rank) {
    return hung.contains(rank);
  }

  /** The signal that ends a rank, if it crashes. */
  public Optional<String> crashSignal(int rank) {
    return Optional.ofNullable(crashes.get(rank));
  }

  /**
   * The functions of a call path from the innermost to {@code main}, as a backtrace at the path's
   * deepest point lists them.
   */
  public List<String> callPath(int path) {
    int[] chain = paths[path].chain;
    List<String> out = new ArrayList<>(chain.length);
    for (int level = chain.length - 1; level >= 0; level--) {
      out.add(functions.get(chain[level]));
    }
    return List.copyOf(out);
  }

  /**
   * The first line of a function's code in {@value #FILE}, where a breakpoint on it stops; empty
   * for a function the program does not have.
   */
  public Optional<Integer> functionStartLine(String function) {
    Integer i = functionIndex.get(function);
    return i == null ? Optional.empty() : Optional.of(headerLine(i) + 1);
  }

  /** The signal table every rank starts with (each rank copies it only when it changes it). */
  public List<SignalInfo> signals() {
    return signals;
  }

  // ---- package-private, for SimulatedDebugger ----

  boolean resumedEvents() {
    return resumedEvents;
  }

  /** The bytes a rank writes when it starts, or null when it writes nothing. */
  byte[] output(int rank, int size) {
    if (output.isEmpty()) {
      return null;
    }
    if (sharedOutput != null) {
      return sharedOutput;
    }
    return output
        .replace("{rank}", Integer.toString(rank))
        .replace("{size}", Integer.toString(size))
        .getBytes(StandardCharsets.UTF_8);
  }

  String crashSignalOrNull(int rank) {
    return crashes.get(rank);
  }

  /** The text of a scalar {@code int} global that differs on this rank, or null. */
  String differentValue(String name, int rank) {
    Map<Integer, String> m = differentValues.get(name);
    return m == null ? null : m.get(rank);
  }

  Long variable(String name) {
    return variables.get(name);
  }

  List<String> globals() {
    return globals;
  }

  long globalAddress(String name) {
    int i = globals.indexOf(name);
    return i < 0 ? -1 : DATA_BASE + 0x10L * i;
  }

  int functionCount() {
    return functions.size();
  }

  String function(int index) {
    return functions.get(index);
  }

  int functionIndex(String name) {
    Integer i = functionIndex.get(name);
    return i == null ? -1 : i;
  }

  int headerLine(int function) {
    return FIRST_LINE + FUNCTION_LINES * function;
  }

  /** The number of code lines of a function, after its header. */
  int codeLines(int function) {
    return function == MAIN || function == SOLVER ? 4 : 3;
  }

  int bodyLength() {
    return 3 * depth - 3;
  }

  /** The number of positions from the start to the last one before the exit. */
  int positions() {
    return PROLOGUE + iterations * bodyLength() + EPILOGUE;
  }

  /** The loop iteration at a position. */
  int iterationAt(int pos) {
    if (pos < PROLOGUE) {
      return 0;
    }
    return Math.min((pos - PROLOGUE) / bodyLength(), iterations);
  }

  Path path(int p) {
    return paths[p];
  }

  /**
   * The stack-relevant part of a position in a path: its frame level (0 is main) and its line.
   * Prologue positions come first, then one body, then the epilogue; see {@link Path#slot}.
   */
  final class Path {
    /** The function at each level, outermost ({@code main}) first. */
    final int[] chain;

    /** Per slot: the level of the innermost frame, and its line. */
    final int[] level;

    final int[] line;

    /** The line each function of the chain calls the next one from. */
    final int[] callLine;

    /** Body slot of each line this path passes through in the loop body. */
    final Map<Integer, Integer> bodySlotOfLine;

    /** The body slot of the leaf's MPI-call line. */
    final int mpiCallSlot;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private final List<Frame>[] stacks = new List[PROLOGUE + bodyLength() + EPILOGUE];

    private volatile List<Frame> recvStack;

    Path(int p) {
      chain = new int[depth];
      chain[0] = MAIN;
      chain[1] = SOLVER;
      for (int l = 2; l <= depth - 2; l++) {
        chain[l] = functionIndex.get("f_" + p + "_" + l);
      }
      chain[depth - 1] = p % 2 == 0 ? COMPUTE : EXCHANGE;
      callLine = new int[depth];
      callLine[0] = headerLine(MAIN) + 2;
      callLine[1] = headerLine(SOLVER) + 3;
      for (int l = 2; l < depth; l++) {
        callLine[l] = headerLine(chain[l]) + 2;
      }
      int slots = PROLOGUE + bodyLength() + EPILOGUE;
      level = new int[slots];
      line = new int[slots];
      int s = 0;
      s = put(s, 0, headerLine(MAIN) + 1);
      s = put(s, 0, headerLine(MAIN) + 2);
      s = put(s, 1, headerLine(SOLVER) + 1);
      s = put(s, 1, headerLine(SOLVER) + 2);
      s = put(s, 1, headerLine(SOLVER) + 3);
      for (int l = 2; l <= depth - 2; l++) {
        s = put(s, l, headerLine(chain[l]) + 1);
        s = put(s, l, headerLine(chain[l]) + 2);
      }
      int leaf = chain[depth - 1];
      s = put(s, depth - 1, headerLine(leaf) + 1);
      mpiCallSlot = s - PROLOGUE;
      s = put(s, depth - 1, headerLine(leaf) + 2);
      s = put(s, depth - 1, headerLine(leaf) + 3);
      for (int l = depth - 2; l >= 2; l--) {
        s = put(s, l, headerLine(chain[l]) + 3);
      }
      s = put(s, 1, headerLine(SOLVER) + 4);
      s = put(s, 0, headerLine(MAIN) + 3);
      s = put(s, 0, headerLine(MAIN) + 4);
      Map<Integer, Integer> slotOfLine = new HashMap<>();
      for (int i = PROLOGUE; i < PROLOGUE + bodyLength(); i++) {
        slotOfLine.put(line[i], i - PROLOGUE);
      }
      bodySlotOfLine = Map.copyOf(slotOfLine);
    }

    private int put(int slot, int lvl, int ln) {
      level[slot] = lvl;
      line[slot] = ln;
      return slot + 1;
    }

    /** The slot of a position: its index in the prologue, one body, then the epilogue. */
    int slot(int pos) {
      if (pos < PROLOGUE) {
        return pos;
      }
      int rel = pos - PROLOGUE;
      int body = bodyLength();
      if (rel < iterations * body) {
        return PROLOGUE + rel % body;
      }
      return PROLOGUE + body + (rel - iterations * body);
    }

    /** The level of the innermost frame at a position. */
    int levelAt(int pos) {
      return level[slot(pos)];
    }

    /** The stack at a position, innermost first; shared and immutable. */
    List<Frame> stack(int pos) {
      int slot = slot(pos);
      List<Frame> s = stacks[slot];
      if (s == null) {
        s = buildStack(level[slot], line[slot], false);
        stacks[slot] = s;
      }
      return s;
    }

    /** The stack of a rank waiting in {@value #RECV_FUNCTION}. */
    List<Frame> recvStack() {
      List<Frame> s = recvStack;
      if (s == null) {
        int slot = PROLOGUE + mpiCallSlot;
        s = buildStack(level[slot], line[slot], true);
        recvStack = s;
      }
      return s;
    }

    /** The position of the leaf's MPI call in an iteration. */
    int mpiCallPosition(int iteration) {
      return PROLOGUE + iteration * bodyLength() + mpiCallSlot;
    }

    private List<Frame> buildStack(int innermost, int innermostLine, boolean inRecv) {
      List<Frame> frames = new ArrayList<>(innermost + 2);
      if (inRecv) {
        frames.add(new Frame(0, RECV_ADDRESS, RECV_FUNCTION, "", 0, MPI_LIBRARY));
      }
      int base = frames.size();
      for (int l = innermost; l >= 0; l--) {
        int ln = l == innermost ? innermostLine : callLine[l];
        boolean caller = l != innermost || inRecv;
        long address = TEXT_BASE + 0x10L * ln + (caller ? 5 : 0);
        frames.add(new Frame(base + innermost - l, address, functions.get(chain[l]), FILE, ln, ""));
      }
      return List.copyOf(frames);
    }
  }

  private static final List<SignalInfo> DEFAULT_SIGNALS =
      List.of(
          new SignalInfo("SIGHUP", true, true, true, "Hangup"),
          new SignalInfo("SIGINT", true, true, false, "Interrupt"),
          new SignalInfo("SIGQUIT", true, true, true, "Quit"),
          new SignalInfo("SIGILL", true, true, true, "Illegal instruction"),
          new SignalInfo("SIGTRAP", true, true, false, "Trace/breakpoint trap"),
          new SignalInfo("SIGABRT", true, true, true, "Aborted"),
          new SignalInfo("SIGFPE", true, true, true, "Arithmetic exception"),
          new SignalInfo("SIGKILL", true, true, true, "Killed"),
          new SignalInfo("SIGBUS", true, true, true, "Bus error"),
          new SignalInfo("SIGSEGV", true, true, true, "Segmentation fault"),
          new SignalInfo("SIGPIPE", true, true, true, "Broken pipe"),
          new SignalInfo("SIGALRM", false, false, true, "Alarm clock"),
          new SignalInfo("SIGTERM", true, true, true, "Terminated"),
          new SignalInfo("SIGUSR1", true, true, true, "User defined signal 1"),
          new SignalInfo("SIGUSR2", true, true, true, "User defined signal 2"),
          new SignalInfo("SIGCHLD", false, false, true, "Child status changed"));

  /** Whether a signal name is in the table. */
  static boolean knownSignal(String name) {
    return DEFAULT_SIGNALS.stream().anyMatch(s -> s.name().equals(name));
  }

  /**
   * Configures a {@link SimulatedProgram}. Not thread-safe; {@link #build()} may be called more
   * than once and later changes do not affect programs already built.
   */
  public static final class Builder {
    private int iterations = 10;
    private int distinctPaths = 4;
    private int depth = 5;
    private int exitCode = 0;
    private boolean resumedEvents = true;
    private String output = "";
    private RankSet hung = RankSet.empty();
    private final Map<Integer, String> crashes = new HashMap<>();
    private final Map<String, Long> variables = new LinkedHashMap<>();
    private final Map<String, Map<Integer, String>> differentValues = new HashMap<>();

    private Builder() {}

    /**
     * How many iterations the main loop runs before the program exits (default 10).
     *
     * @throws IllegalArgumentException if {@code count < 1}
     */
    public Builder withIterations(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("iterations must be >= 1: " + count);
      }
      this.iterations = count;
      return this;
    }

    /**
     * The stack shape: rank {@code r} takes call path {@code r % distinctPaths}, whose deepest
     * stack has {@code depth} frames (default 4 paths, depth 5). Paths are all distinct from depth
     * 4 on; see the class comment.
     *
     * @throws IllegalArgumentException if {@code distinctPaths < 1} or {@code depth < 3}
     */
    public Builder withStackShape(int distinctPaths, int depth) {
      if (distinctPaths < 1 || depth < 3) {
        throw new IllegalArgumentException(
            "need distinctPaths >= 1 and depth >= 3: " + distinctPaths + ", " + depth);
      }
      this.distinctPaths = distinctPaths;
      this.depth = depth;
      return this;
    }

    /**
     * Adds a global {@code int} variable, equal on every rank unless changed with {@link
     * #withDifferentValue}.
     *
     * @throws IllegalArgumentException if the name is not an identifier or is already a variable
     */
    public Builder withVariable(String name, long value) {
      Objects.requireNonNull(name, "name");
      if (!IDENTIFIER.matcher(name).matches() || BUILTIN_GLOBALS.contains(name)) {
        throw new IllegalArgumentException("not a new variable name: " + name);
      }
      variables.put(name, value);
      return this;
    }

    /**
     * Makes a scalar {@code int} global ({@code rank}, {@code size}, {@code iteration}, {@code x},
     * {@code distinct} or one of {@link #withVariable}) print as {@code value} on one rank, e.g.
     * {@code withDifferentValue("x", 37, "-1")}. Only the printed text changes (also where the
     * value is a field of {@code state}); the type stays {@code int}.
     *
     * @throws IllegalArgumentException if the expression is not such a variable (checked by {@link
     *     #build()} for variables added later) or the rank is negative
     */
    public Builder withDifferentValue(String expression, int rank, String value) {
      Objects.requireNonNull(expression, "expression");
      Objects.requireNonNull(value, "value");
      if (rank < 0) {
        throw new IllegalArgumentException("rank must be >= 0: " + rank);
      }
      differentValues.computeIfAbsent(expression, k -> new HashMap<>()).put(rank, value);
      return this;
    }

    /**
     * Makes a rank stop with {@code signal} (e.g. {@code SIGSEGV}) at its leaf's MPI-call line in
     * iteration 0, then end by it on the next resume or step.
     *
     * @throws IllegalArgumentException for a negative rank or a signal not in {@link
     *     SimulatedProgram#signals()}
     */
    public Builder withCrash(int rank, String signal) {
      Objects.requireNonNull(signal, "signal");
      if (rank < 0 || !knownSignal(signal)) {
        throw new IllegalArgumentException("bad crash: rank " + rank + ", signal " + signal);
      }
      crashes.put(rank, signal);
      return this;
    }

    /**
     * Makes these ranks hang in {@value SimulatedProgram#RECV_FUNCTION} (replaces an earlier set).
     */
    public Builder withHang(RankSet ranks) {
      this.hung = Objects.requireNonNull(ranks, "ranks");
      return this;
    }

    /**
     * What each rank writes when it starts: {@code {rank}} and {@code {size}} are replaced by the
     * rank and the job size, e.g. {@code "hello from rank {rank}\n"}; empty (the default) writes
     * nothing. Without {@code {rank}} all ranks write the same bytes.
     */
    public Builder withOutput(String template) {
      this.output = Objects.requireNonNull(template, "template");
      return this;
    }

    /** The exit code of a normal exit (default 0). */
    public Builder withExitCode(int code) {
      this.exitCode = code;
      return this;
    }

    /**
     * Whether execution requests emit {@link io.sdmfabric.model.DebugEvent.Resumed} first, as gdb's
     * {@code *running} does (default true); turn off to halve the events at scale.
     */
    public Builder withResumedEvents(boolean emit) {
      this.resumedEvents = emit;
      return this;
    }

    /**
     * The program.
     *
     * @throws IllegalArgumentException if a {@link #withDifferentValue} names no scalar variable,
     *     or the iterations do not fit the stack depth (more than 2^31 positions)
     */
    public SimulatedProgram build() {
      for (String name : differentValues.keySet()) {
        if (!INT_GLOBALS.contains(name) && !variables.containsKey(name)) {
          throw new IllegalArgumentException("no scalar variable named " + name);
        }
      }
      return new SimulatedProgram(this);
    }
  }
}
