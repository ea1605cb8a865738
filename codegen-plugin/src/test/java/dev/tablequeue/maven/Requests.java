package dev.tablequeue.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Requests of the checker's tests: the fixture binding, checked on one database, as the goal writes them. */
public final class Requests {
    /** Where the fixture binding lives. */
    public static final String FIXTURE = "dev.tablequeue.maven.fixture";

    private Requests() {}

    /** The test classes: the fixture binding's class and its migrations' folder. */
    public static Path testClasses() {
        try {
            return Path.of(Requests.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes a request into {@code work} that checks the fixture on one database ({@code url} and
     * {@code container} null: SQLite) migrated from {@code location}, and returns its file.
     */
    public static Path write(Path work, String url, String container, String location) {
        return write(work, url, container, location, false, FIXTURE);
    }

    /** As {@link #write(Path, String, String, String)}, the database optional or not, checking {@code bindings}. */
    public static Path write(Path work, String url, String container, String location, boolean optional,
            String bindings) {
        CheckRequest request = new CheckRequest()
                .put("classes", testClasses().toString())
                .put("work", work.toString())
                .putList("bindings", List.of(bindings))
                .putList("locations", List.of(location))
                .put("databases", "1")
                .put("database.0.url", url)
                .put("database.0.container", container)
                .put("database.0.optional", Boolean.toString(optional))
                .put("deadLetters", "0");
        Path file = work.resolve("request.properties");
        try {
            request.write(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * The checker's own class path in the tests: the test class path without the test classes, whose bindings
     * and migrations play the project's.
     */
    public static List<java.io.File> checkerClasspath() {
        java.io.File tests = testClasses().toFile();
        return testClasspath().stream().filter(f -> !f.equals(tests)).toList();
    }

    /** The class path the tests run on: surefire names it in a property of its own. */
    public static List<java.io.File> testClasspath() {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<java.io.File> files = new ArrayList<>();
        for (String element : path.split(java.io.File.pathSeparator)) {
            files.add(new java.io.File(element));
        }
        return files;
    }
}
