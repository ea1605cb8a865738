package dev.tablequeue.examples;

import static org.assertj.core.api.Assertions.fail;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.testkit.LiveDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed jOOQ classes of a server database still equal what its migrations generate: a migration
 * changed without regenerating fails here, naming the first file and line that differ. Each server runs
 * this through a small subclass; the test is final.
 */
public abstract class CommittedClassesContract {

    /** How to bring the committed classes up to date, as the README gives it. */
    static final String REGENERATE =
            "mvn -q -o -pl schema-examples -am verify -Dtablequeue.codegen.servers=postgres,mariadb";

    /** The server under test. */
    protected abstract LiveDatabase.Engine engine();

    /** The generator's view of the same server. */
    protected abstract Codegen.Flavour flavour();

    @Test
    final void the_committed_classes_equal_a_fresh_generation_from_the_migrations(@TempDir Path out) throws Exception {
        Path module = Path.of(System.getProperty("basedir", "."));
        try (LiveDatabase db = LiveDatabase.create(engine(), getClass().getSimpleName())) {
            Codegen.migrate(db.url(), Codegen.filesystemLocation(module, flavour()));
            Codegen.generate(flavour(), db.url(), out);
        }
        String packagePath = flavour().packageName().replace('.', '/');
        compareTrees(module.resolve("src/main/java").resolve(packagePath), out.resolve(packagePath));
    }

    private static void compareTrees(Path committed, Path generated) throws IOException {
        TreeSet<Path> files = new TreeSet<>(relativeFiles(committed));
        files.addAll(relativeFiles(generated));
        for (Path file : files) {
            Path a = committed.resolve(file);
            Path b = generated.resolve(file);
            if (!Files.exists(a)) {
                fail(committed.resolve(file) + " is not committed but the migrations generate it; " + REGENERATE);
            }
            if (!Files.exists(b)) {
                fail(a + " is committed but the migrations no longer generate it; " + REGENERATE);
            }
            List<String> left = Files.readAllLines(a, StandardCharsets.UTF_8);
            List<String> right = Files.readAllLines(b, StandardCharsets.UTF_8);
            for (int i = 0; i < Math.max(left.size(), right.size()); i++) {
                String was = i < left.size() ? left.get(i) : "<end of file>";
                String now = i < right.size() ? right.get(i) : "<end of file>";
                if (!was.equals(now)) {
                    fail(a + " line " + (i + 1) + " differs from a fresh generation:\n  committed: " + was
                            + "\n  generated: " + now + "\nRegenerate with: " + REGENERATE);
                }
            }
        }
    }

    private static List<Path> relativeFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).map(root::relativize).toList();
        }
    }
}
