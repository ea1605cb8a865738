package dev.tablequeue.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A service's classes as an operator hands them to the command: compiled here from source (so that they are not
 * on the tests' own class path), then put in a plain jar or laid out as a Spring Boot jar.
 */
final class ServiceJars {
    private final Path dir;

    ServiceJars(Path dir) {
        this.dir = dir;
    }

    /** Compiles {@code sources} (class name to source) against the tests' class path into a folder of its own. */
    Path compile(String folder, Map<String, String> sources, Path... extraClassPath) throws IOException {
        Path src = dir.resolve(folder + "-src");
        Path out = Files.createDirectories(dir.resolve(folder));
        List<String> args = new ArrayList<>();
        StringBuilder classPath = new StringBuilder(
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        for (Path p : extraClassPath) {
            classPath.append(java.io.File.pathSeparator).append(p);
        }
        args.addAll(List.of("-classpath", classPath.toString(), "-d", out.toString(), "-proc:none"));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int code = javac.run(null, OutputStream.nullOutputStream(), diagnostics, args.toArray(String[]::new));
        assertThat(code).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
        return out;
    }

    /** A plain jar of the folder {@code classes}. */
    Path jar(String name, Path classes) throws IOException {
        Path jar = dir.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            add(out, classes, "");
        }
        return jar;
    }

    /**
     * A jar as Spring Boot's repackaging lays it out: a launcher class at the root, the service's classes under
     * {@code BOOT-INF/classes}, its libraries as jars under {@code BOOT-INF/lib}.
     */
    Path bootJar(String name, Path classes, Path... libs) throws IOException {
        Path jar = dir.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("org/springframework/boot/loader/launch/JarLauncher.class"));
            out.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
            out.closeEntry();
            out.putNextEntry(new JarEntry("BOOT-INF/"));
            out.closeEntry();
            add(out, classes, "BOOT-INF/classes/");
            for (Path lib : libs) {
                out.putNextEntry(new JarEntry("BOOT-INF/lib/" + lib.getFileName()));
                Files.copy(lib, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    private static void add(JarOutputStream out, Path classes, String prefix) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(prefix + classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    /** What one run of the command printed, and its exit code. */
    record Run(int code, String out, String err) {}

    /** Runs the command in this JVM. */
    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = TableQueueCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }
}
