package dev.tablequeue.maven;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the checker in a {@link CheckerLoader}: the checked project's runtime class path below (its classes, its
 * toolkit and jOOQ, as the service runs them), the plugin's jar and what it brings (Flyway, drivers) above, in
 * isolation from the project's own copies. Either in a forked JVM of a JDK 21+, the way surefire forks, or,
 * where Maven's own JVM is new enough, in process; the loader's last parent is the platform class loader, so
 * nothing of Maven's or the plugin's realm leaks in.
 */
final class CheckerLaunch {
    /** The checker's entry point: {@code run(Path, Consumer)}. */
    static final String CHECKER = "dev.tablequeue.maven.checker.Checker";
    private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

    private final List<File> project;
    private final List<File> checker;
    private final Path request;
    private final Consumer<String> out;

    CheckerLaunch(List<File> project, List<File> checker, Path request, Consumer<String> out) {
        this.project = List.copyOf(project);
        this.checker = List.copyOf(checker);
        this.request = request;
        this.out = out;
    }

    /** The file beside {@code request} that lists the project's class path, a path a line. */
    static Path projectFile(Path request) {
        return request.resolveSibling("project.classpath");
    }

    /** The file beside {@code request} that lists the checker's own class path, a path a line. */
    static Path checkerFile(Path request) {
        return request.resolveSibling("checker.classpath");
    }

    /** Runs the checker in this JVM and returns once it has written its report. */
    void inProcess() throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        // The checker's own SLF4J has no provider in its class loader, and would say so on Maven's console; the
        // property is read once, when that SLF4J starts.
        String verbosity = System.getProperty(SLF4J_VERBOSITY);
        System.setProperty(SLF4J_VERBOSITY, "ERROR");
        try (CheckerLoader loader = CheckerLoader.of(project, checker)) {
            thread.setContextClassLoader(loader);
            Method run = Class.forName(CHECKER, true, loader).getMethod("run", Path.class, Consumer.class);
            run.invoke(null, request, out);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            thread.setContextClassLoader(before);
            if (verbosity == null) {
                System.clearProperty(SLF4J_VERBOSITY);
            } else {
                System.setProperty(SLF4J_VERBOSITY, verbosity);
            }
        }
    }

    /**
     * Runs the checker in a new JVM started from {@code java} and returns its exit code once it has ended,
     * every line of its output given to the report as it comes. The JVM's own class path is the plugin's jar
     * alone ({@link CheckerMain}); the two class paths go in files beside the request.
     */
    int forked(String java) throws IOException, InterruptedException {
        Files.write(projectFile(request), paths(project), StandardCharsets.UTF_8);
        Files.write(checkerFile(request), paths(checker), StandardCharsets.UTF_8);
        List<String> command = List.of(java,
                "-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true", "-D" + SLF4J_VERBOSITY + "=ERROR",
                "--enable-native-access=ALL-UNNAMED",
                "-classpath", launcher(),
                CheckerMain.class.getName(), request.toAbsolutePath().toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                out.accept(line);
            }
        } finally {
            if (process.isAlive()) {
                // Interrupted while reading: the checker's own shutdown hook drops its scratch databases.
                process.destroy();
            }
        }
        return process.waitFor();
    }

    /** Where this class was loaded from: the plugin's jar (its classes folder in the plugin's own tests). */
    private static String launcher() {
        try {
            return new File(CheckerLaunch.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .getAbsolutePath();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> paths(List<File> files) {
        return files.stream().map(File::getAbsolutePath).toList();
    }
}
