package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source file of the reactor is past 400 lines: a class that long holds two ideas, and each gets a
 * class of its own. Tests and generated sources are not held to it.
 */
class MainSourcesTest {
    private static final int MOST_LINES = 400;

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @Test
    void no_main_source_file_is_past_400_lines() throws IOException {
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            sources = walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> ROOT.relativize(p).toString().contains("src/main/java/"))
                    .filter(p -> !("/" + ROOT.relativize(p)).contains("/target/"))
                    .filter(p -> !ROOT.relativize(p).startsWith("node_modules"))
                    .toList();
        }
        assertThat(sources).as("the main sources under " + ROOT)
                .anyMatch(p -> p.endsWith("toolkit/src/main/java/dev/tablequeue/broker/QueueBroker.java"));
        List<String> tooLong = sources.stream()
                .filter(p -> lines(p) > MOST_LINES)
                .map(p -> ROOT.relativize(p) + " (" + lines(p) + " lines)")
                .sorted()
                .toList();
        assertThat(tooLong).as("main source files past " + MOST_LINES + " lines").isEmpty();
    }

    private static long lines(Path p) {
        try (Stream<String> lines = Files.lines(p)) {
            return lines.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
