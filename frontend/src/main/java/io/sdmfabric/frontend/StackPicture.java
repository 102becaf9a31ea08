package io.sdmfabric.frontend;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.StackTree;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The merged stack tree as a picture, as STAT and Visual Studio's Parallel Stacks draw it: a box
 * per frame (its function, its source line or library, its ranks), a line from each caller to its
 * callees, laid out by {@link StackLayout}. With more than one sample, each box is coloured as
 * {@link StackSamples} judges its ranks: stuck, progressing, or both. With the MPI wait-for graph,
 * the frames where the deadlocked ranks wait are outlined in red, with red arrows from the waiting
 * to the waited-for.
 *
 * <p>Two forms: {@link #svg()}, the picture alone; {@link #html}, a page that draws the same
 * picture and lets the reader zoom, pan, fit it to the window, and collapse or expand a subtree by
 * clicking its box (the page lays the tree out again with elkjs, embedded in it). The page loads
 * nothing: its script and style are inline, and its Content-Security-Policy forbids every load
 * except inline style, {@code data:} images, and the one script that carries the page's nonce.
 *
 * <p>Function and file names are the debugged program's text: they are XML-escaped, with the
 * characters XML cannot hold replaced, before they reach the page.
 */
public final class StackPicture {
  /** Up to how many characters a line of a box shows; the full text is in the box's tooltip. */
  private static final int LINE_CHARS = 44;

  /** Up to how many characters of a rank set a box shows before it is cut short. */
  private static final int RANK_CHARS = 26;

  /** The monospace font's advance at 12 px, and the box's padding and line height. */
  private static final double CHAR_WIDTH = 7.3;

  private static final double PAD = 8;
  private static final double LINE_HEIGHT = 16;

  /**
   * Above how many boxes the page first shows each path folded at its first frame without a source
   * line: the program's own frames and the library calls they make, each library's frames below
   * them behind a click.
   */
  private static final int FOLD_ABOVE = 30;

  /** How the samples judge a box's ranks. */
  enum Motion {
    NONE,
    STUCK,
    PROGRESSING,
    MIXED
  }

  /** The part of a box's text a line is, which its style follows. */
  enum Part {
    FUNCTION,
    SOURCE,
    RANKS,
    MOTION,
    WAIT
  }

  /** One line of a box. */
  record Line(Part part, String text) {}

  /**
   * One box: a node of the tree.
   *
   * @param parent the caller's box, -1 for a root
   * @param lines what the box says
   * @param title the tooltip: everything, unabridged
   * @param motion how the samples judge its ranks
   * @param deadlocked whether deadlocked ranks wait here
   * @param firstWithoutSource whether it is the first frame of its path without a source line (a
   *     library's, usually), where the page's "collapse libraries" folds the tree
   */
  record Box(
      int parent,
      List<Line> lines,
      String title,
      Motion motion,
      boolean deadlocked,
      boolean firstWithoutSource) {
    Box {
      lines = List.copyOf(lines);
    }
  }

  /** A red arrow: deadlocked ranks in box {@code from} wait for ranks in box {@code to}. */
  record Wait(int from, int to, String title) {}

  private final List<Box> boxes = new ArrayList<>();
  private final List<Wait> waits = new ArrayList<>();
  private final String summary;
  private final boolean temporal;
  private final StackLayout.Result layout;

  /** The boxes the page first shows folded; none in a tree of few boxes. */
  private final boolean[] folded;

  /** The layout of the boxes the page first shows. */
  private final StackLayout.Result firstView;

  /**
   * The picture of {@code tree}.
   *
   * @param samples the samples whose last the tree is, when there are more than one: each box is
   *     marked stuck or progressing
   * @param waitGraph the MPI wait-for graph of the ranks, whose deadlocks are drawn
   */
  public StackPicture(
      StackTree tree, Optional<StackSamples> samples, Optional<MpiWaitGraph> waitGraph) {
    temporal = samples.isPresent();
    List<StackTree.Node> nodes = new ArrayList<>();
    List<List<Frame>> paths = new ArrayList<>();
    List<Integer> parents = new ArrayList<>();
    for (StackTree.Node root : tree.roots()) {
      flatten(root, -1, new ArrayList<>(), nodes, paths, parents);
    }
    List<StackSamples.Motion> motions = motions(nodes, paths, parents, samples);
    List<List<Integer>> children = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      children.add(new ArrayList<>());
      if (parents.get(i) >= 0) {
        children.get(parents.get(i)).add(i);
      }
    }
    Map<Integer, List<MpiWaitGraph.Group>> waitsAt =
        waitGraph.map(g -> waitBoxes(g, nodes, parents, children)).orElse(Map.of());
    for (int i = 0; i < nodes.size(); i++) {
      boxes.add(
          box(
              nodes.get(i),
              parents.get(i),
              tree.everyThread(),
              motions.get(i),
              waitsAt.getOrDefault(i, List.of()),
              parents.get(i) < 0 || nodes.get(parents.get(i)).frame().hasSource()));
    }
    waitGraph.ifPresent(g -> waits.addAll(waitArrows(g, waitsAt, nodes)));
    summary = summary(tree, samples, waitGraph);
    int n = boxes.size();
    int[] parentOf = new int[n];
    double[] widths = new double[n];
    double[] heights = new double[n];
    for (int i = 0; i < n; i++) {
      Box b = boxes.get(i);
      parentOf[i] = b.parent();
      int chars = b.lines().stream().mapToInt(l -> l.text().length()).max().orElse(1);
      widths[i] = Math.ceil(Math.max(chars, 12) * CHAR_WIDTH + 2 * PAD);
      heights[i] = b.lines().size() * LINE_HEIGHT + PAD;
    }
    layout = StackLayout.layout(parentOf, widths, heights);
    folded = new boolean[n];
    boolean[] hidden = new boolean[n];
    if (n > FOLD_ABOVE) {
      for (int i = 0; i < n; i++) {
        int p = parentOf[i];
        hidden[i] = p >= 0 && (folded[p] || hidden[p]);
        folded[i] = !hidden[i] && boxes.get(i).firstWithoutSource();
      }
    }
    // A folded box without callees hides nothing.
    int[] below = StackPictureSvg.descendants(boxes);
    for (int i = 0; i < n; i++) {
      folded[i] &= below[i] > 0;
    }
    firstView = n > FOLD_ABOVE ? StackLayout.layout(parentOf, widths, heights, hidden) : layout;
  }

  /** The boxes, in the tree's order: each caller before its callees. */
  List<Box> boxes() {
    return List.copyOf(boxes);
  }

  /** The red arrows of the deadlock. */
  List<Wait> waits() {
    return List.copyOf(waits);
  }

  /** One line about the whole: ranks, paths, samples, deadlocks. */
  String summary() {
    return summary;
  }

  private static void flatten(
      StackTree.Node node,
      int parent,
      List<Frame> path,
      List<StackTree.Node> nodes,
      List<List<Frame>> paths,
      List<Integer> parents) {
    int id = nodes.size();
    path.add(node.frame());
    nodes.add(node);
    paths.add(List.copyOf(path));
    parents.add(parent);
    for (StackTree.Node child : node.children()) {
      flatten(child, id, path, nodes, paths, parents);
    }
    path.remove(path.size() - 1);
  }

  /**
   * What the samples say of each box: of the stacks that end there as the samples compare them, and
   * of every box below it, so that a caller shows what its callees do.
   */
  private static List<StackSamples.Motion> motions(
      List<StackTree.Node> nodes,
      List<List<Frame>> paths,
      List<Integer> parents,
      Optional<StackSamples> samples) {
    List<StackSamples.Motion> out = new ArrayList<>(nodes.size());
    RankSet none = RankSet.empty();
    for (List<Frame> path : paths) {
      out.add(samples.map(s -> s.motion(path)).orElse(new StackSamples.Motion(none, none)));
    }
    // Callees come after their caller: from the last box back, each adds its own to its caller's.
    for (int i = nodes.size() - 1; i >= 0; i--) {
      int p = parents.get(i);
      if (p >= 0) {
        StackSamples.Motion mine = out.get(i);
        StackSamples.Motion theirs = out.get(p);
        out.set(
            p,
            new StackSamples.Motion(
                theirs.stuck().union(mine.stuck()),
                theirs.progressing().union(mine.progressing())));
      }
    }
    return out;
  }

  /**
   * The boxes where deadlocked ranks wait, with the groups of waits there: the ranks are followed
   * from {@code main} down their main thread's path to the innermost frames they reach, and then
   * back up to the frame of the MPI call they wait in if the path has it by name ({@code MPI_Send}
   * or {@code PMPI_Send}), else to the last frame with a source line (the program's call).
   */
  private static Map<Integer, List<MpiWaitGraph.Group>> waitBoxes(
      MpiWaitGraph graph,
      List<StackTree.Node> nodes,
      List<Integer> parents,
      List<List<Integer>> children) {
    Map<Integer, List<MpiWaitGraph.Group>> at = new LinkedHashMap<>();
    for (MpiWaitGraph.Group g : graph.groups()) {
      RankSet ranks = g.ranks().intersect(graph.deadlocked());
      if (ranks.isEmpty()) {
        continue;
      }
      for (int leaf : innermost(ranks, nodes, parents, children)) {
        List<MpiWaitGraph.Group> here =
            at.computeIfAbsent(
                waitFrame(leaf, g.mpiWait().call(), nodes, parents), k -> new ArrayList<>());
        if (!here.contains(g)) {
          here.add(g);
        }
      }
    }
    return at;
  }

  /** The boxes where {@code ranks}, followed from their {@code main}, go no deeper. */
  private static List<Integer> innermost(
      RankSet ranks,
      List<StackTree.Node> nodes,
      List<Integer> parents,
      List<List<Integer>> children) {
    List<Integer> roots = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (parents.get(i) < 0 && nodes.get(i).ranks().intersects(ranks)) {
        roots.add(i);
      }
    }
    // main's thread where there is one; every thread where the program has no main (Fortran's).
    List<Integer> mains =
        roots.stream().filter(i -> nodes.get(i).frame().function().equals("main")).toList();
    List<Integer> found = new ArrayList<>();
    for (int root : mains.isEmpty() ? roots : mains) {
      descend(root, ranks.intersect(nodes.get(root).ranks()), nodes, children, found);
    }
    return found;
  }

  private static void descend(
      int box,
      RankSet ranks,
      List<StackTree.Node> nodes,
      List<List<Integer>> children,
      List<Integer> out) {
    if (ranks.isEmpty()) {
      return;
    }
    RankSet deeper = RankSet.empty();
    for (int c : children.get(box)) {
      RankSet here = ranks.intersect(nodes.get(c).ranks());
      descend(c, here, nodes, children, out);
      deeper = deeper.union(here);
    }
    if (!deeper.equals(ranks)) {
      out.add(box);
    }
  }

  private static int waitFrame(
      int leaf, String call, List<StackTree.Node> nodes, List<Integer> parents) {
    int withSource = -1;
    for (int b = leaf; b >= 0; b = parents.get(b)) {
      String f = nodes.get(b).frame().function();
      if (f.equals(call) || f.equals("P" + call)) {
        return b;
      }
      if (withSource < 0 && nodes.get(b).frame().hasSource()) {
        withSource = b;
      }
    }
    return withSource >= 0 ? withSource : leaf;
  }

  /** An arrow from each wait box to each wait box holding ranks its ranks wait for. */
  private static List<Wait> waitArrows(
      MpiWaitGraph graph, Map<Integer, List<MpiWaitGraph.Group>> at, List<StackTree.Node> nodes) {
    List<Wait> out = new ArrayList<>();
    for (Map.Entry<Integer, List<MpiWaitGraph.Group>> from : at.entrySet()) {
      for (Map.Entry<Integer, List<MpiWaitGraph.Group>> to : at.entrySet()) {
        RankSet there = RankSet.empty();
        for (MpiWaitGraph.Group g : to.getValue()) {
          there = there.union(g.ranks());
        }
        there = there.intersect(graph.deadlocked()).intersect(nodes.get(to.getKey()).ranks());
        List<String> who = new ArrayList<>();
        for (MpiWaitGraph.Group g : from.getValue()) {
          RankSet waited = g.waitsFor().intersect(there);
          if (!waited.isEmpty()) {
            who.add(
                "["
                    + g.ranks().intersect(graph.deadlocked())
                    + "] "
                    + MpiWaitGraph.describe(g.mpiWait())
                    + ", waits for ["
                    + waited
                    + "]");
          }
        }
        if (!who.isEmpty()) {
          out.add(new Wait(from.getKey(), to.getKey(), String.join("\n", firstFew(who))));
        }
      }
    }
    return out;
  }

  private static List<String> firstFew(List<String> lines) {
    if (lines.size() <= 8) {
      return lines;
    }
    List<String> few = new ArrayList<>(lines.subList(0, 8));
    few.add("... " + (lines.size() - 8) + " more");
    return few;
  }

  private Box box(
      StackTree.Node node,
      int parent,
      boolean everyThread,
      StackSamples.Motion motion,
      List<MpiWaitGraph.Group> waitsHere,
      boolean firstWithoutSource) {
    Frame f = node.frame();
    List<Line> lines = new ArrayList<>();
    lines.add(new Line(Part.FUNCTION, cut(f.function())));
    lines.add(new Line(Part.SOURCE, cutLeft(where(f))));
    String count = node.ranks().size() == 1 ? "1 rank" : node.ranks().size() + " ranks";
    String threads =
        everyThread && node.threads() != node.ranks().longSize()
            ? ", " + StackTree.threadsText(node.threads())
            : "";
    lines.add(new Line(Part.RANKS, "[" + shortRanks(node.ranks()) + "] " + count + threads));
    List<String> title = new ArrayList<>();
    title.add(f.function());
    title.add(where(f) + (f.hasSource() && !f.library().isEmpty() ? " in " + f.library() : ""));
    title.add("ranks [" + node.ranks() + "] (" + count + threads + ")");
    Motion m = Motion.NONE;
    if (temporal) {
      m = motionOf(motion);
      String text =
          switch (m) {
            case STUCK -> "stuck";
            case PROGRESSING -> "progressing";
            case MIXED ->
                "stuck " + motion.stuck().size() + ", progressing " + motion.progressing().size();
            case NONE -> "";
          };
      if (!text.isEmpty()) {
        lines.add(new Line(Part.MOTION, text));
      }
      if (!motion.stuck().isEmpty()) {
        title.add("stuck in every sample: [" + motion.stuck() + "]");
      }
      if (!motion.progressing().isEmpty()) {
        title.add("progressing: [" + motion.progressing() + "]");
      }
    }
    if (!waitsHere.isEmpty()) {
      // One wait said whole; several by their calls, each in the tooltip.
      String what =
          waitsHere.size() == 1
              ? MpiWaitGraph.describe(waitsHere.get(0).mpiWait())
              : String.join(
                  ", ", waitsHere.stream().map(g -> g.mpiWait().call()).distinct().toList());
      lines.add(new Line(Part.WAIT, cut("deadlock: " + what)));
      List<String> each = new ArrayList<>();
      waitsHere.forEach(
          g -> each.add("deadlocked [" + g.ranks() + "] " + MpiWaitGraph.describe(g.mpiWait())));
      title.addAll(firstFew(each));
    }
    return new Box(
        parent,
        lines,
        String.join("\n", title),
        m,
        !waitsHere.isEmpty(),
        firstWithoutSource && !f.hasSource());
  }

  private static Motion motionOf(StackSamples.Motion m) {
    if (m.stuck().isEmpty()) {
      return m.progressing().isEmpty() ? Motion.NONE : Motion.PROGRESSING;
    }
    return m.progressing().isEmpty() ? Motion.STUCK : Motion.MIXED;
  }

  private static String where(Frame f) {
    if (f.hasSource()) {
      return f.file() + ":" + f.line();
    }
    if (!f.library().isEmpty()) {
      return f.library().substring(f.library().lastIndexOf('/') + 1);
    }
    return f.address() == 0 ? "no source" : String.format(Locale.ROOT, "0x%x", f.address());
  }

  /** A rank set as a box shows it: whole, or cut at a comma and followed by an ellipsis. */
  static String shortRanks(RankSet ranks) {
    String all = ranks.toString();
    if (all.length() <= RANK_CHARS) {
      return all;
    }
    int comma = all.lastIndexOf(',', RANK_CHARS - 2);
    return all.substring(0, comma > 0 ? comma : RANK_CHARS - 2) + ",\u2026";
  }

  private static String cut(String s) {
    return s.length() <= LINE_CHARS ? s : s.substring(0, LINE_CHARS - 1) + "\u2026";
  }

  /** The end of {@code s}, which says the most of a path. */
  private static String cutLeft(String s) {
    return s.length() <= LINE_CHARS ? s : "\u2026" + s.substring(s.length() - LINE_CHARS + 1);
  }

  private static String summary(
      StackTree tree, Optional<StackSamples> samples, Optional<MpiWaitGraph> waitGraph) {
    StringBuilder s = new StringBuilder();
    int ranks = tree.ranks().size();
    s.append(ranks == 1 ? "1 rank" : ranks + " ranks")
        .append(", ")
        .append(tree.pathCount())
        .append(tree.pathCount() == 1 ? " path" : " paths")
        .append(", ")
        .append(tree.nodeCount())
        .append(" frames");
    samples.ifPresent(x -> s.append(", ").append(x.count()).append(" samples"));
    waitGraph.ifPresent(
        g ->
            g.cycles()
                .forEach(
                    c -> s.append("; deadlock: ").append(c.path()).append(", ").append(c.how())));
    return s.toString();
  }

  /** The picture as an SVG document, with its legend above it. */
  public String svg() {
    return StackPictureSvg.document(this);
  }

  /**
   * The picture as a self-contained HTML page.
   *
   * @param nonce the nonce of the page's one script, in its Content-Security-Policy and on the
   *     script element: a fresh random value per page (base64 letters, digits, {@code +/=-_}). A VS
   *     Code webview that sets its own policy passes its own nonce here, or replaces this one (the
   *     value of the script's {@code nonce} attribute) wherever it occurs.
   */
  public String html(String nonce) {
    return StackPictureHtml.page(this, nonce);
  }

  /** The picture as a self-contained HTML page whose script has a fresh nonce of its own. */
  public String html() {
    return html(freshNonce());
  }

  /** A fresh nonce for a page's script: 128 random bits. */
  private static String freshNonce() {
    byte[] bits = new byte[16];
    new SecureRandom().nextBytes(bits);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
  }

  StackLayout.Result layout() {
    return layout;
  }

  /** The layout of the page's first view: every box but those below a folded one. */
  StackLayout.Result firstView() {
    return firstView;
  }

  /** Whether the page first shows box {@code i} folded. */
  boolean folded(int i) {
    return folded[i];
  }

  boolean temporal() {
    return temporal;
  }
}
