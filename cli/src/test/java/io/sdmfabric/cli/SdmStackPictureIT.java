package io.sdmfabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code sdm stacks --format svg|html} of a real MPI deadlock under mpirun (examples/mpi_deadlock:
 * ranks 0 and 1 each receive from the other, 2 and 3 wait in a barrier): the picture has the
 * program's frames with their ranks, and the frames where the deadlocked ranks wait are outlined,
 * with the arrows of who waits for whom. (The page, {@code --format html}, is drawn end to end by
 * the VS Code browser test: Sample Stacks of a running job, and Parallel Stacks of a session.)
 */
@Tag("gdb")
@Tag("mpi")
class SdmStackPictureIT extends WithMpi {

  /** The boxes of an SVG picture, each as its lines of text, and its class first. */
  private static List<List<String>> boxes(Document svg) {
    List<List<String>> boxes = new ArrayList<>();
    NodeList groups = svg.getElementsByTagName("g");
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      if (g.getAttribute("id").startsWith("n")) {
        List<String> box = new ArrayList<>(List.of(g.getAttribute("class")));
        NodeList texts = g.getElementsByTagName("text");
        for (int t = 0; t < texts.getLength(); t++) {
          box.add(texts.item(t).getTextContent());
        }
        boxes.add(box);
      }
    }
    return boxes;
  }

  @Test
  void theSvgOfADeadlockOutlinesWhereTheRanksWaitAndWhoWaitsForWhom() throws Exception {
    Sdm.Result r = Sdm.mpiStacks("mpirun", "mpi_deadlock", "--format", "svg");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document svg =
        f.newDocumentBuilder()
            .parse(new ByteArrayInputStream(r.out().getBytes(StandardCharsets.UTF_8)));
    List<List<String>> boxes = boxes(svg);
    // The file as the program was compiled: its name, with or without a directory.
    assertTrue(
        boxes.stream()
            .anyMatch(
                b ->
                    b.get(1).equals("exchange")
                        && b.get(2).endsWith("mpi_deadlock.c:8")
                        && b.get(3).equals("[0,1] 2 ranks")),
        boxes.toString());
    List<String> recv =
        boxes.stream().filter(b -> b.get(1).equals("PMPI_Recv")).findFirst().orElseThrow();
    assertEquals("node deadlocked", recv.get(0), recv.toString());
    assertTrue(recv.contains("[0,1] 2 ranks"), recv.toString());
    List<String> barrier =
        boxes.stream().filter(b -> b.get(1).equals("PMPI_Barrier")).findFirst().orElseThrow();
    assertEquals("node deadlocked", barrier.get(0), barrier.toString());
    NodeList paths = svg.getElementsByTagName("path");
    int waits = 0;
    for (int i = 0; i < paths.getLength(); i++) {
      if (((Element) paths.item(i)).getAttribute("class").equals("waitedge")) {
        waits++;
      }
    }
    // 0 and 1 wait for each other in one frame (a loop), 2 and 3 for them (an arrow).
    assertEquals(2, waits, r.out());
  }
}
