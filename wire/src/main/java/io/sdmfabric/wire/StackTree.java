package io.sdmfabric.wire;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.proto.StackTreeNode;
import io.sdmfabric.wire.proto.StackTreeProto;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The call stacks of many ranks merged into one call-prefix tree, as STAT draws them: a root is an
 * outermost frame (usually {@code main}), a node's children are the functions it called, and each
 * node carries the ranks whose stacks pass through it. The size of the tree depends on the number
 * of distinct stacks, not on the number of ranks.
 *
 * <p>Two frames are the same node when they agree on function, file, line and library. Level and
 * address are not compared: the same source position is at different depths in a recursion and at
 * different addresses in differently loaded libraries. A merged node shows the frame of the rank
 * with the smallest number (ties broken by smaller level, then address), so that the result of
 * merging does not depend on the order of the inputs.
 *
 * <p>Siblings are kept in a canonical order, by the smallest rank in their set, then by function,
 * file, line and library; the constructors sort them. So two trees with the same content are equal
 * and serialize to the same bytes however they were built.
 *
 * <p>Nesting is one level per frame: conversions and {@code equals} recurse as deep as the deepest
 * stack, and {@link CanonicalBytes#eventBody} parses trees up to about a thousand frames deep.
 * Producers should cut deeper stacks (a runaway recursion) before merging.
 *
 * <p>A tree of every thread ({@code everyThread}) counts threads too: a node's {@code threads} is
 * how many threads of its ranks pass through it ("worker_a [0-2] 7 threads"). In a tree of one
 * thread per rank, the count is the number of ranks.
 *
 * @param roots the outermost frames; no two with the same frame key
 * @param everyThread whether the stacks are of every thread of the ranks, or of one each
 */
public record StackTree(List<Node> roots, boolean everyThread) {

  /**
   * Orders siblings canonically. Siblings never share a key, so this is a total order on them; the
   * key fields come after the smallest rank only to make ties (a rank with several threads in
   * different functions) deterministic.
   */
  private static final Comparator<Node> SIBLING_ORDER =
      Comparator.<Node>comparingInt(n -> n.ranks().first())
          .thenComparing(n -> n.frame().function())
          .thenComparing(n -> n.frame().file())
          .thenComparingInt(n -> n.frame().line())
          .thenComparing(n -> n.frame().library());

  /** Declared after {@link #SIBLING_ORDER}, which constructing it may use. */
  private static final StackTree EMPTY = new StackTree(List.of());

  /** Sorts {@code roots} canonically and checks that no two share a frame key. */
  public StackTree {
    roots = canonicalSiblings(roots, "roots");
  }

  /** The tree of one stack per rank. */
  public StackTree(List<Node> roots) {
    this(roots, false);
  }

  /**
   * One node of the tree.
   *
   * @param frame the frame shown for every rank in {@code ranks}
   * @param ranks the ranks whose stacks pass through this frame; never empty
   * @param children the callees, each with a subset of {@code ranks}; no two with the same frame
   *     key. A rank in {@code ranks} but in no child stopped in this frame.
   * @param threads how many threads of {@code ranks} pass through this frame: at least one each
   */
  public record Node(Frame frame, RankSet ranks, List<Node> children, long threads) {

    /**
     * Sorts {@code children} canonically.
     *
     * @throws IllegalArgumentException if {@code ranks} is empty, two children share a frame key,
     *     or a child holds a rank that this node does not
     */
    public Node {
      Objects.requireNonNull(frame, "frame");
      Objects.requireNonNull(ranks, "ranks");
      if (ranks.isEmpty()) {
        throw new IllegalArgumentException("stack tree node without ranks: " + frame.describe());
      }
      if (threads < ranks.longSize()) {
        throw new IllegalArgumentException(
            threads + " threads for the " + ranks.longSize() + " ranks of " + frame.describe());
      }
      children = canonicalSiblings(children, "callees of " + frame.describe());
      for (Node child : children) {
        // The identity test spares the common single-path case a bitmap comparison.
        if (child.ranks != ranks && !ranks.containsAll(child.ranks)) {
          throw new IllegalArgumentException(
              "callee "
                  + child.frame.describe()
                  + " has ranks "
                  + child.ranks.minus(ranks)
                  + " that its caller "
                  + frame.describe()
                  + " does not");
        }
      }
    }

    /** A node of one thread per rank. */
    public Node(Frame frame, RankSet ranks, List<Node> children) {
      this(frame, ranks, children, ranks.longSize());
    }

    /** A node without callees: the frame where {@code ranks} stopped. */
    public static Node leaf(Frame frame, RankSet ranks) {
      return new Node(frame, ranks, List.of());
    }

    /** Whether this node has no callees. */
    public boolean isLeaf() {
      return children.isEmpty();
    }
  }

  /** The tree of no stacks. */
  public static StackTree empty() {
    return EMPTY;
  }

  /**
   * The tree of one stack shared by {@code ranks}: a single path from the outermost frame (the last
   * of the list) to the innermost (the first). Empty when either argument is.
   *
   * @param framesInnermostFirst the stack as debuggers list it, innermost frame first
   */
  public static StackTree of(List<Frame> framesInnermostFirst, RankSet ranks) {
    Objects.requireNonNull(framesInnermostFirst, "framesInnermostFirst");
    Objects.requireNonNull(ranks, "ranks");
    if (framesInnermostFirst.isEmpty() || ranks.isEmpty()) {
      return EMPTY;
    }
    // Built inside out directly: a single path needs no merging.
    List<Node> below = List.of();
    for (Frame frame : framesInnermostFirst) {
      below = List.of(new Node(frame, ranks, below));
    }
    return new StackTree(below);
  }

  /**
   * Both trees in one: nodes with the same frame key at the same position merge their ranks and
   * their callees. Commutative and associative.
   */
  public StackTree merge(StackTree other) {
    Objects.requireNonNull(other, "other");
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    return builder().addTree(this).addTree(other).build();
  }

  /** All trees in one, as by repeated {@link #merge}, but building the result only once. */
  public static StackTree mergeAll(Collection<StackTree> trees) {
    Objects.requireNonNull(trees, "trees");
    Builder builder = builder();
    trees.forEach(builder::addTree);
    return builder.build();
  }

  /** A count of threads as people read it: "1 thread", "7 threads". */
  public static String threadsText(long threads) {
    return threads + (threads == 1 ? " thread" : " threads");
  }

  /** Whether the tree holds no stack. */
  public boolean isEmpty() {
    return roots.isEmpty();
  }

  /** The ranks of all stacks in the tree. */
  public RankSet ranks() {
    RankSet.Builder all = RankSet.builder();
    roots.forEach(r -> all.addAll(r.ranks()));
    return all.build();
  }

  /** The number of nodes. */
  public int nodeCount() {
    int count = 0;
    Deque<Node> todo = new ArrayDeque<>(roots);
    while (!todo.isEmpty()) {
      count++;
      todo.addAll(todo.pop().children());
    }
    return count;
  }

  /**
   * The number of leaves: the distinct innermost frames. A stack that is a proper prefix of another
   * (a rank stopped in {@code main} while another is in a callee of it) adds no leaf.
   */
  public int pathCount() {
    int count = 0;
    Deque<Node> todo = new ArrayDeque<>(roots);
    while (!todo.isEmpty()) {
      Node node = todo.pop();
      if (node.isLeaf()) {
        count++;
      }
      todo.addAll(node.children());
    }
    return count;
  }

  /** The tree as a message, siblings in canonical order. */
  public StackTreeProto toProto() {
    StackTreeProto.Builder b = StackTreeProto.newBuilder().setEveryThread(everyThread);
    roots.forEach(r -> b.addRoots(toProto(r)));
    return b.build();
  }

  private static StackTreeNode toProto(Node node) {
    StackTreeNode.Builder b =
        StackTreeNode.newBuilder()
            .setFrame(Protos.toProto(node.frame()))
            .setRanks(Protos.toProto(node.ranks()));
    if (node.threads() != node.ranks().longSize()) {
      b.setThreads(node.threads());
    }
    node.children().forEach(c -> b.addChildren(toProto(c)));
    return b.build();
  }

  /**
   * The tree a message holds. Siblings may come in any order.
   *
   * @throws IllegalArgumentException for a node without ranks or a frame that is not valid,
   *     siblings with the same frame key, a callee with ranks its caller lacks, or malformed rank
   *     set bytes
   */
  public static StackTree fromProto(StackTreeProto proto) {
    Objects.requireNonNull(proto, "proto");
    List<Node> roots = new ArrayList<>(proto.getRootsCount());
    proto.getRootsList().forEach(r -> roots.add(fromProto(r)));
    return new StackTree(roots, proto.getEveryThread());
  }

  private static Node fromProto(StackTreeNode proto) {
    if (!proto.hasFrame()) {
      throw new IllegalArgumentException("stack tree node without a frame");
    }
    List<Node> children = new ArrayList<>(proto.getChildrenCount());
    proto.getChildrenList().forEach(c -> children.add(fromProto(c)));
    RankSet ranks = Protos.fromProto(proto.getRanks());
    return new Node(
        Protos.fromProto(proto.getFrame()),
        ranks,
        children,
        proto.getThreads() == 0 ? ranks.longSize() : proto.getThreads());
  }

  /** A fresh builder, empty. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Accumulates stacks and trees into one mutable tree and freezes it once, for the aggregation
   * path where one tree is merged from thousands of groups. Each added stack costs one hash lookup
   * and one rank-set union per frame, whatever the size of the tree. Not thread-safe; {@link
   * #build()} does not consume the builder.
   */
  public static final class Builder {
    private final Map<Key, MutableNode> roots = new HashMap<>();
    private boolean everyThread;

    private Builder() {}

    /**
     * Adds the stacks of every thread of {@code ranks} (each rank has these threads in these
     * places), and makes the tree one of every thread.
     */
    public Builder addThreads(List<List<Frame>> stacksInnermostFirst, RankSet ranks) {
      everyThread = true;
      stacksInnermostFirst.forEach(stack -> add(stack, ranks));
      return this;
    }

    /**
     * Adds one stack shared by {@code ranks}. Adding nothing when either argument is empty: ranks
     * without a stack (running, say) have no place in the tree.
     *
     * @param framesInnermostFirst the stack as debuggers list it, innermost frame first
     */
    public Builder add(List<Frame> framesInnermostFirst, RankSet ranks) {
      Objects.requireNonNull(framesInnermostFirst, "framesInnermostFirst");
      Objects.requireNonNull(ranks, "ranks");
      if (framesInnermostFirst.isEmpty() || ranks.isEmpty()) {
        return this;
      }
      int first = ranks.first();
      Map<Key, MutableNode> level = roots;
      for (int i = framesInnermostFirst.size() - 1; i >= 0; i--) {
        Frame frame = Objects.requireNonNull(framesInnermostFirst.get(i), "frame");
        MutableNode node = level.computeIfAbsent(Key.of(frame), k -> new MutableNode(frame, first));
        node.add(frame, first, ranks, ranks.longSize());
        level = node.children;
      }
      return this;
    }

    /** Adds every stack of {@code tree}. */
    public Builder addTree(StackTree tree) {
      Objects.requireNonNull(tree, "tree");
      everyThread |= tree.everyThread();
      tree.roots().forEach(r -> addNode(roots, r));
      return this;
    }

    private static void addNode(Map<Key, MutableNode> level, Node node) {
      Frame frame = node.frame();
      int first = node.ranks().first();
      MutableNode into = level.computeIfAbsent(Key.of(frame), k -> new MutableNode(frame, first));
      into.add(frame, first, node.ranks(), node.threads());
      node.children().forEach(c -> addNode(into.children, c));
    }

    /** The tree of everything added so far. */
    public StackTree build() {
      return new StackTree(freeze(roots), everyThread);
    }

    private static List<Node> freeze(Map<Key, MutableNode> level) {
      List<Node> nodes = new ArrayList<>(level.size());
      for (MutableNode m : level.values()) {
        nodes.add(new Node(m.frame, m.ranks.build(), freeze(m.children), m.threads));
      }
      return nodes;
    }
  }

  /** What makes two frames the same node. */
  private record Key(String function, String file, int line, String library) {
    static Key of(Frame f) {
      return new Key(f.function(), f.file(), f.line(), f.library());
    }
  }

  /** Up to how many ranks a merge adds one by one rather than as a bitmap union. */
  private static final int FEW_RANKS = 16;

  private static final class MutableNode {
    Frame frame;
    int frameRank;
    final RankSet.Builder ranks = RankSet.builder();
    long threads;
    final Map<Key, MutableNode> children = new HashMap<>();

    MutableNode(Frame frame, int frameRank) {
      this.frame = frame;
      this.frameRank = frameRank;
    }

    /**
     * Adds {@code more}, whose smallest rank is {@code candidateRank}, with {@code moreThreads}
     * threads, and keeps the frame of the smallest rank (then level, then address).
     */
    void add(Frame candidate, int candidateRank, RankSet more, long moreThreads) {
      threads += moreThreads;
      long count = more.longSize();
      if (count == 1) {
        ranks.add(candidateRank);
      } else if (count <= FEW_RANKS) {
        // Roaring's in-place union copies a whole array container per call; adding the ranks one
        // by one appends to it instead, which makes many single-rank groups linear, not quadratic.
        more.forEach(ranks::add);
      } else {
        ranks.addAll(more);
      }
      if (candidateRank < frameRank
          || (candidateRank == frameRank
              && candidate != frame
              && REPRESENTATIVE.compare(candidate, frame) < 0)) {
        frame = candidate;
        frameRank = candidateRank;
      }
    }
  }

  private static final Comparator<Frame> REPRESENTATIVE =
      Comparator.comparingInt(Frame::level).thenComparing(Frame::address, Long::compareUnsigned);

  private static List<Node> canonicalSiblings(List<Node> nodes, String what) {
    if (nodes.size() <= 1) {
      return List.copyOf(nodes); // rejects a null element, and keeps an immutable list as it is
    }
    List<Node> sorted = new ArrayList<>(nodes);
    sorted.forEach(n -> Objects.requireNonNull(n, what));
    sorted.sort(SIBLING_ORDER);
    Set<Key> seen = new HashSet<>();
    for (Node n : sorted) {
      if (!seen.add(Key.of(n.frame()))) {
        throw new IllegalArgumentException(
            "two nodes for " + n.frame().describe() + " among the " + what);
      }
    }
    return List.copyOf(sorted);
  }
}
