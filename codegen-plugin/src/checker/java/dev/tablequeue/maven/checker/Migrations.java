package dev.tablequeue.maven.checker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.logging.Log;
import org.flywaydb.core.api.logging.LogCreator;

/**
 * Runs the project's SQL migrations into a scratch database with the checker's own Flyway, isolated from any
 * Flyway the project holds. Java-based migrations (classes under a {@code classpath:} location) are not run: they
 * are the project's classes, built against the project's Flyway, which the check does not load; each is named
 * in a warning instead ({@link #javaMigrations}).
 */
final class Migrations {
    private Migrations() {}

    /**
     * The classes under the {@code classpath:} ones of {@code locations} (nested classes aside), as {@code loader}
     * finds them: the Java-based migrations Flyway would run there, which the check does not.
     */
    static List<String> javaMigrations(List<String> locations, ClassLoader loader) {
        Set<String> found = new TreeSet<>();
        for (String location : locations) {
            String path;
            if (location.startsWith("classpath:")) {
                path = location.substring("classpath:".length());
            } else if (location.contains(":")) {
                continue; // filesystem: and the like hold SQL alone
            } else {
                path = location;
            }
            path = path.replace('.', '/').replaceAll("^/+|/+$", "");
            try {
                for (URL url : Collections.list(loader.getResources(path))) {
                    classes(url, path, found);
                }
            } catch (IOException | URISyntaxException e) {
                throw new UncheckedIOException(new IOException("cannot list " + location + ": " + e.getMessage(), e));
            }
        }
        return List.copyOf(found);
    }

    private static void classes(URL url, String path, Set<String> found) throws IOException, URISyntaxException {
        if ("file".equals(url.getProtocol())) {
            Path root = Path.of(url.toURI());
            Path base = root;
            for (int i = 0; i < path.split("/").length; i++) {
                base = base.getParent();
            }
            Path classes = base;
            try (Stream<Path> walk = Files.walk(root)) {
                walk.map(p -> classes.relativize(p).toString().replace(java.io.File.separatorChar, '/'))
                        .forEach(name -> add(name, found));
            }
        } else if (url.openConnection() instanceof JarURLConnection jar) {
            jar.setUseCaches(false);
            try (JarFile file = jar.getJarFile()) {
                file.stream().map(JarEntry::getName).filter(n -> n.startsWith(path + "/")).forEach(n -> add(n, found));
            }
        }
    }

    private static void add(String entry, Set<String> found) {
        if (entry.endsWith(".class") && !entry.contains("$")) {
            found.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
        }
    }

    /**
     * Applies the migrations at {@code locations} with {@code placeholders}, and returns how many it applied.
     * Flyway's own log goes to {@code log}, which the goal shows at debug level: run in process, Flyway would
     * otherwise write to Maven's console through whatever logging the project's class path holds.
     */
    static int migrate(String url, List<String> locations, Map<String, String> placeholders, Consumer<String> log) {
        Sink.target = log;
        return Flyway.configure(Thread.currentThread().getContextClassLoader())
                .loggers(Sink.class.getName())
                .dataSource(url, null, null)
                .locations(locations.toArray(String[]::new))
                .placeholders(placeholders)
                // the project's Java-based migrations are not run (the class): none is given to Flyway
                .javaMigrationClassProvider(List::of)
                .cleanDisabled(true)
                .load()
                .migrate()
                .migrationsExecuted;
    }

    /**
     * The log Flyway creates by class name ({@code loggers}): a check runs one migration at a time in its JVM or
     * class loader, so the target is a static field.
     */
    public static final class Sink implements LogCreator {
        static volatile Consumer<String> target = line -> {};

        @Override
        public Log createLogger(Class<?> type) {
            return new Forwarded(line -> target.accept(line));
        }
    }

    /** Flyway's log, a line for each message. */
    private record Forwarded(Consumer<String> log) implements Log {
        private void line(String level, String message) {
            log.accept("flyway: " + level + message);
        }

        @Override public void debug(String message) { line("", message); }
        @Override public void info(String message) { line("", message); }
        @Override public void notice(String message) { line("", message); }
        @Override public void warn(String message) { line("warning: ", message); }
        @Override public void error(String message) { line("error: ", message); }
        @Override public void error(String message, Exception e) { line("error: ", message + ": " + e); }
    }
}
