package dev.tablequeue.maven;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the checker on a class path: the checked project's runtime class path first (its classes, its
 * toolkit and jOOQ), then the plugin's jar and what it brings (Flyway, drivers). Either in a forked JVM of a
 * JDK 21+, the way surefire forks, or, where Maven's own JVM is new enough, in process in a class loader of
 * its own whose parent is the platform class loader, so nothing of Maven's or the plugin's realm leaks in.
 */
final class CheckerLaunch {
    /** The checker's entry point: {@code main(String[])} in a fork, {@code run(Path, Consumer)} in process. */
    static final String CHECKER = "dev.tablequeue.maven.checker.Checker";
    private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

    private final List<File> classpath;
    private final Path request;
    private final Consumer<String> out;

    CheckerLaunch(List<File> classpath, Path request, Consumer<String> out) {
        this.classpath = List.copyOf(classpath);
        this.request = request;
        this.out = out;
    }

    /** Runs the checker in this JVM and returns once it has written its report. */
    void inProcess() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (File f : classpath) {
            urls.add(toUrl(f));
        }
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        // The checker's own SLF4J (the project's) has no provider in its class loader, and would say so on
        // Maven's console; the property is read once, when that SLF4J starts.
        String verbosity = System.getProperty(SLF4J_VERBOSITY);
        System.setProperty(SLF4J_VERBOSITY, "ERROR");
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
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
     * every line of its output given to the report as it comes.
     */
    int forked(String java) throws IOException, InterruptedException {
        // The class path goes in an argument file: a project's runtime class path outgrows some command lines.
        Path args = request.resolveSibling("checker.args");
        Files.write(args, List.of(
                "-classpath",
                quoted(String.join(File.pathSeparator, classpath.stream().map(File::getAbsolutePath).toList()))),
                StandardCharsets.UTF_8);
        List<String> command = List.of(java,
                "-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true", "-D" + SLF4J_VERBOSITY + "=ERROR",
                "--enable-native-access=ALL-UNNAMED",
                "@" + args.toAbsolutePath(),
                CHECKER, request.toAbsolutePath().toString());
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

    private static String quoted(String path) {
        return "\"" + path.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static URL toUrl(File f) throws MalformedURLException {
        return f.toURI().toURL();
    }
}
