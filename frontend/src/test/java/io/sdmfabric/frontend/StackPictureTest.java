package io.sdmfabric.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sdmfabric.model.Frame;
import io.sdmfabric.model.MpiWait;
import io.sdmfabric.model.RankSet;
import io.sdmfabric.wire.EventBodies;
import io.sdmfabric.wire.RankReply;
import io.sdmfabric.wire.StackTree;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The stack picture of a deadlock: ranks 0 and 1 each receive from the other, for ever; ranks 2 and
 * 3 compute, a line further on in the second sample. As SVG and as a page.
 */
class StackPictureTest {
  private static final MpiWait.Comm WORLD = new MpiWait.Comm(1, 4, RankSet.all(4), true);
  private static final Frame MAIN = new Frame(2, 0, "main", "ring.c", 30, "");
  private static final List<Frame> RECEIVING =
      List.of(
          new Frame(0, 0x7f00, "poll", "", 0, "/lib/x86_64-linux-gnu/libc.so.6"),
          new Frame(1, 0x7f10, "PMPI_Recv", "", 0, "/usr/lib/libmpi.so.40"),
          MAIN);

  private static List<Frame> computing(int line) {
    return List.of(new Frame(0, 0, "compute", "ring.c", line, ""), MAIN);
  }

  private static RankReply stacks(RankSet ranks, List<Frame> stack) {
    return new RankReply(ranks, EventBodies.threadStacks(List.of(stack)));
  }

  private static MpiWait receiveFrom(int rank) {
    return new MpiWait(
        MpiWait.State.WAITING,
        "MPI_Recv",
        false,
        false,
        List.of(new MpiWait.Peer(rank, 5, "MPI_Recv")),
        WORLD,
        0);
  }

  private static StackPicture deadlock() {
    StackSamples samples = new StackSamples();
    samples.add(
        List.of(stacks(RankSet.of(0, 1), RECEIVING), stacks(RankSet.of(2, 3), computing(40))));
    samples.add(
        List.of(stacks(RankSet.of(0, 1), RECEIVING), stacks(RankSet.of(2, 3), computing(41))));
    MpiWaitGraph waits =
        new MpiWaitGraph(
            List.of(
                new RankReply(RankSet.of(0), EventBodies.mpiWait(receiveFrom(1))),
                new RankReply(RankSet.of(1), EventBodies.mpiWait(receiveFrom(0)))),
            List.of());
    return new StackPicture(samples.last(), Optional.of(samples), Optional.of(waits));
  }

  private static Document xml(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  /** Each box of the SVG by its function: its class and its lines. */
  private static Map<String, Element> boxesByFunction(Document svg) {
    Map<String, Element> boxes = new HashMap<>();
    NodeList groups = svg.getElementsByTagName("g");
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      if (g.getAttribute("id").startsWith("n")) {
        Element function = (Element) g.getElementsByTagName("text").item(0);
        boxes.put(function.getTextContent(), g);
      }
    }
    return boxes;
  }

  private static List<String> lines(Element box) {
    List<String> lines = new ArrayList<>();
    NodeList texts = box.getElementsByTagName("text");
    for (int i = 0; i < texts.getLength(); i++) {
      lines.add(texts.item(i).getTextContent());
    }
    return lines;
  }

  @Test
  void theSvgHasABoxPerFrameWithItsFunctionSourceAndRanks() throws Exception {
    StackPicture picture = deadlock();
    Document svg = xml(picture.svg());
    Map<String, Element> boxes = boxesByFunction(svg);
    // main, PMPI_Recv, poll; compute at line 41, where the last sample found it.
    assertEquals(4, boxes.size(), boxes.keySet().toString());
    assertEquals(picture.boxes().size(), boxes.size());
    assertEquals(
        List.of("main", "ring.c:30", "[0-3] 4 ranks"), lines(boxes.get("main")).subList(0, 3));
    assertEquals(
        List.of("PMPI_Recv", "libmpi.so.40", "[0,1] 2 ranks"),
        lines(boxes.get("PMPI_Recv")).subList(0, 3));
    assertEquals("ring.c:41", lines(boxes.get("compute")).get(1));
    Element title = (Element) boxes.get("poll").getElementsByTagName("title").item(0);
    assertTrue(title.getTextContent().contains("ranks [0,1]"), title.getTextContent());
  }

  @Test
  void boxesAreMarkedStuckOrProgressingAsTheSamplesJudgeThem() throws Exception {
    Map<String, Element> boxes = boxesByFunction(xml(deadlock().svg()));
    assertEquals("node stuck deadlocked", boxes.get("PMPI_Recv").getAttribute("class"));
    assertTrue(lines(boxes.get("PMPI_Recv")).contains("stuck"));
    assertEquals("node stuck", boxes.get("poll").getAttribute("class"));
    assertEquals("node progressing", boxes.get("compute").getAttribute("class"));
    assertTrue(lines(boxes.get("compute")).contains("progressing"));
    // main's callees are both: it says how many of each.
    assertEquals("node mixed", boxes.get("main").getAttribute("class"));
    assertTrue(lines(boxes.get("main")).contains("stuck 2, progressing 2"));
  }

  @Test
  void theDeadlockIsOutlinedWithAnArrowFromTheWaitingToTheWaitedFor() throws Exception {
    StackPicture picture = deadlock();
    Document svg = xml(picture.svg());
    Element recv = boxesByFunction(svg).get("PMPI_Recv");
    assertTrue(lines(recv).contains("deadlock: MPI_Recv"), lines(recv).toString());
    int at = Integer.parseInt(recv.getAttribute("id").substring(1));
    // Both ranks wait in the same frame: one arrow, from that box to itself.
    assertEquals(List.of(at), picture.waits().stream().map(StackPicture.Wait::from).toList());
    assertEquals(List.of(at), picture.waits().stream().map(StackPicture.Wait::to).toList());
    NodeList paths = svg.getElementsByTagName("path");
    int arrows = 0;
    for (int i = 0; i < paths.getLength(); i++) {
      Element p = (Element) paths.item(i);
      if (p.getAttribute("class").equals("waitedge")) {
        arrows++;
        assertEquals(Integer.toString(at), p.getAttribute("data-from"));
        assertTrue(p.getTextContent().contains("[0] MPI_Recv from 1, tag 5, waits for [1]"));
      }
    }
    assertEquals(1, arrows);
    assertTrue(picture.summary().contains("deadlock: 0 -> 1 -> 0"), picture.summary());
  }

  @Test
  void withoutSamplesOrWaitsNoBoxIsMarked() throws Exception {
    StackTree tree = StackTree.of(computing(40), RankSet.of(0, 1, 2));
    Document svg = xml(new StackPicture(tree, Optional.empty(), Optional.empty()).svg());
    Map<String, Element> boxes = boxesByFunction(svg);
    assertEquals(2, boxes.size());
    boxes.values().forEach(b -> assertEquals("node", b.getAttribute("class")));
  }

  @Test
  void theLayoutOverlapsNoBoxes() {
    StackPicture picture = deadlock();
    List<StackLayout.Place> places = picture.layout().places();
    for (int i = 0; i < places.size(); i++) {
      for (int j = i + 1; j < places.size(); j++) {
        StackLayout.Place a = places.get(i);
        StackLayout.Place b = places.get(j);
        boolean apart =
            a.x() + a.width() <= b.x()
                || b.x() + b.width() <= a.x()
                || a.y() + a.height() <= b.y()
                || b.y() + b.height() <= a.y();
        assertTrue(apart, "boxes " + i + " and " + j + " overlap: " + a + " " + b);
      }
    }
  }

  @Test
  void aLongRankSetIsCutShortWithItsCountAndWholeInTheTooltip() throws Exception {
    RankSet.Builder b = RankSet.builder();
    for (int r = 0; r < 1024; r += 2) {
      b.add(r);
    }
    RankSet evens = b.build();
    StackTree tree = StackTree.of(computing(40), evens);
    Element main =
        boxesByFunction(xml(new StackPicture(tree, Optional.empty(), Optional.empty()).svg()))
            .get("main");
    assertEquals("[0,2,4,6,8,10,12,14,16,18,\u2026] 512 ranks", lines(main).get(2));
    String title = main.getElementsByTagName("title").item(0).getTextContent();
    assertTrue(title.contains(evens.toString()), title);
  }

  @Test
  void theProgramsTextIsEscapedInTheSvgAndThePage() throws Exception {
    String evil = "<script>alert(1)</script>";
    StackTree tree =
        StackTree.of(List.of(new Frame(0, 0, evil, "a&b\u0001.c", 3, ""), MAIN), RankSet.of(0));
    StackPicture picture = new StackPicture(tree, Optional.empty(), Optional.empty());
    Map<String, Element> boxes = boxesByFunction(xml(picture.svg()));
    assertEquals("a&b\uFFFD.c:3", lines(boxes.get(evil)).get(1));
    String page = picture.html("n0nceN0nce");
    assertFalse(page.contains("<script>alert"));
    assertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assertEquals(1, count(page, "<script"), "one script element");
    assertEquals(1, count(page, "</script"), "which nothing ends early");
  }

  @Test
  void thePageLoadsNothingAndItsScriptCarriesTheNonceOfItsPolicy() {
    String page = deadlock().html("n0nceN0nce");
    assertTrue(
        page.contains(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                + " script-src 'nonce-n0nceN0nce'; style-src 'unsafe-inline'; img-src data:\">"),
        page.substring(0, 400));
    assertTrue(page.contains("<script nonce=\"n0nceN0nce\">"));
    // No attribute or style that loads: src, href, srcset, @import, url() other than the page's.
    for (String loads : List.of(" src=", "href=", "srcset=", "@import", "<link", "<iframe")) {
      assertFalse(page.contains(loads), loads);
    }
    Matcher url = Pattern.compile("url\\(([^)]*)\\)").matcher(page);
    while (url.find()) {
      assertTrue(url.group(1).startsWith("#"), url.group());
    }
    // No address outside elkjs's bundle, whose only ones are XML namespace names in its strings
    // (EMF's), which it does not load.
    String elk = StackPictureSvg.resource("elkjs/lib/elk.bundled.js");
    assertTrue(page.contains(elk));
    String ours = page.replace(elk, "");
    assertFalse(ours.contains("http:"), "http: outside elkjs");
    assertFalse(ours.contains("https:"), "https: outside elkjs");
  }

  @Test
  void aNonceThatIsNotBase64IsRefused() {
    StackPicture picture = deadlock();
    assertThrows(IllegalArgumentException.class, () -> picture.html("x' 'unsafe-eval"));
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
