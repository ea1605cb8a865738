package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The BOM ({@code bom/pom.xml}) names every module the reactor publishes, each at the reactor's version, so a
 * service that imports it gets one version of everything; a new module that is not in it fails here.
 */
class BomListsEveryModuleTest {
    /** The reactor's modules that are not published: the suites, the examples, the guides' tests, the Spring sample, the Boot example, and the BOM itself. */
    private static final Set<String> UNPUBLISHED = Set.of("tablequeue-it", "tablequeue-schema-examples", "tablequeue-docs",
            "tablequeue-spring-sample", "tablequeue-boot-example", "tablequeue-bom");

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void the_bom_manages_every_published_module_of_the_reactor_at_its_version() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        String version = child(parent.getDocumentElement(), "version");
        List<String> published = new ArrayList<>();
        for (Element module : elements(parent.getDocumentElement(), "modules", "module")) {
            Path pom = ROOT.resolve(module.getTextContent().trim()).resolve("pom.xml");
            String artifact = child(read(pom).getDocumentElement(), "artifactId");
            if (!UNPUBLISHED.contains(artifact)) {
                published.add(artifact);
            }
        }

        Document bom = read(ROOT.resolve("bom/pom.xml"));
        List<String> managed = new ArrayList<>();
        for (Element dependency : elements(bom.getDocumentElement(), "dependencyManagement", "dependencies",
                "dependency")) {
            assertThat(child(dependency, "groupId")).isEqualTo("dev.tablequeue");
            assertThat(child(dependency, "version")).as(child(dependency, "artifactId")).isEqualTo("${project.version}");
            managed.add(child(dependency, "artifactId"));
        }

        assertThat(published).isNotEmpty().contains("tablequeue-toolkit", "tablequeue-micrometer");
        assertThat(managed).as("the modules bom/pom.xml manages").containsExactlyInAnyOrderElementsOf(published);
        assertThat(child(bom.getDocumentElement(), "version")).as("the BOM's version").isEqualTo(version);
    }

    private static Document read(Path pom) throws Exception {
        assertThat(pom).exists();
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(pom));
    }

    /** The text of {@code parent}'s direct child {@code name}. */
    private static String child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return null;
    }

    /** The elements at {@code path} under {@code root}, one direct child level per name. */
    private static List<Element> elements(Element root, String... path) {
        List<Element> level = List.of(root);
        for (String name : path) {
            List<Element> next = new ArrayList<>();
            for (Element e : level) {
                NodeList children = e.getChildNodes();
                for (int i = 0; i < children.getLength(); i++) {
                    if (children.item(i) instanceof Element c && c.getTagName().equals(name)) {
                        next.add(c);
                    }
                }
            }
            level = next;
        }
        return level;
    }
}
