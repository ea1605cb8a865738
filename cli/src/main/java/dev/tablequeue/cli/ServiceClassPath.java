package dev.tablequeue.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * The service's classes a command loads its binding from ({@code --classpath}): folders, plain jars, and
 * executable Spring Boot jars (or wars), whose own classes are under {@code BOOT-INF/classes} and whose libraries
 * are jars nested under {@code BOOT-INF/lib}.
 *
 * <p>A JDK class loader cannot read a jar inside a jar, so a Boot jar's classes and libraries are copied out into
 * a temporary folder, which {@link #close()} deletes. The command's own classes (the toolkit, the outbox, jOOQ)
 * stay in front: a binding built by the service's copy of the toolkit would not be the command's
 * {@code RoleBinding}.
 */
final class ServiceClassPath implements AutoCloseable {
    /** The folders of an executable archive that hold its own classes and its libraries. */
    private record Layout(String classes, String lib) {}

    private static final List<Layout> LAYOUTS = List.of(
            new Layout("BOOT-INF/classes/", "BOOT-INF/lib/"),
            new Layout("WEB-INF/classes/", "WEB-INF/lib/"));

    private final ClassLoader loader;
    private final List<Path> extracted;

    private ServiceClassPath(ClassLoader loader, List<Path> extracted) {
        this.loader = loader;
        this.extracted = extracted;
    }

    /**
     * A class loader over {@code paths}, in front of which the command's own classes stay; none: the command's.
     *
     * @throws IllegalArgumentException where a path does not exist or is neither a folder nor a jar
     */
    static ServiceClassPath of(List<Path> paths) {
        ClassLoader parent = ServiceClassPath.class.getClassLoader();
        if (paths.isEmpty()) {
            return new ServiceClassPath(parent, List.of());
        }
        List<URL> urls = new ArrayList<>();
        List<Path> extracted = new ArrayList<>();
        try {
            for (Path p : paths) {
                if (!Files.exists(p)) {
                    throw new IllegalArgumentException("--classpath names " + p + ", which does not exist");
                }
                for (Path entry : Files.isDirectory(p) ? List.of(p) : jar(p, extracted)) {
                    urls.add(url(entry));
                }
            }
        } catch (RuntimeException e) {
            delete(extracted);
            throw e;
        }
        return new ServiceClassPath(new URLClassLoader(urls.toArray(URL[]::new), parent), extracted);
    }

    /** The loader of the service's classes. */
    ClassLoader loader() {
        return loader;
    }

    /** Closes the loader and deletes what was copied out of Boot jars. */
    @Override
    public void close() {
        if (loader instanceof URLClassLoader own) {
            try {
                own.close();
            } catch (IOException ignored) {
                // the jars were only read; the process ends soon after
            }
        }
        delete(extracted);
    }

    /** The entries of the class path that jar {@code p} stands for: itself, or what a Boot jar nests. */
    private static List<Path> jar(Path p, List<Path> extracted) {
        try (ZipFile zip = new ZipFile(p.toFile())) {
            for (Layout layout : LAYOUTS) {
                if (hasEntryUnder(zip, layout.classes())) {
                    Path into = Files.createTempDirectory("tablequeue-cli-");
                    extracted.add(into);
                    return unpack(p, zip, layout, into);
                }
            }
            return List.of(p);
        } catch (ZipException e) {
            throw new IllegalArgumentException("--classpath names " + p + ", which is neither a folder nor a jar ("
                    + e.getMessage() + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException("--classpath names " + p + ", which cannot be read: " + e.getMessage());
        }
    }

    private static boolean hasEntryUnder(ZipFile zip, String folder) {
        Enumeration<? extends ZipEntry> entries = zip.entries();
        while (entries.hasMoreElements()) {
            if (entries.nextElement().getName().startsWith(folder)) {
                return true;
            }
        }
        return false;
    }

    /** Copies the archive's classes folder and its library jars into {@code into}: the class path entries. */
    private static List<Path> unpack(Path archive, ZipFile zip, Layout layout, Path into) throws IOException {
        Path classes = Files.createDirectories(into.resolve("classes"));
        Path lib = Files.createDirectories(into.resolve("lib"));
        List<Path> jars = new ArrayList<>();
        Enumeration<? extends ZipEntry> entries = zip.entries();
        while (entries.hasMoreElements()) {
            ZipEntry e = entries.nextElement();
            String name = e.getName();
            Path target;
            if (name.startsWith(layout.classes()) && !e.isDirectory()) {
                target = classes.resolve(name.substring(layout.classes().length())).normalize();
            } else if (name.startsWith(layout.lib()) && name.endsWith(".jar") && !e.isDirectory()) {
                target = lib.resolve(name.substring(layout.lib().length())).normalize();
                jars.add(target);
            } else {
                continue;
            }
            if (!target.startsWith(into)) {
                // an entry named ../.. would be written outside the folder
                throw new IllegalArgumentException("--classpath names " + archive + ", whose entry " + name
                        + " points outside the archive");
            }
            Files.createDirectories(target.getParent());
            try (InputStream in = zip.getInputStream(e)) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        List<Path> entriesOfPath = new ArrayList<>();
        entriesOfPath.add(classes);
        entriesOfPath.addAll(jars);
        return entriesOfPath;
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("--classpath names " + p + ", which is not a path: " + e.getMessage());
        }
    }

    private static void delete(List<Path> folders) {
        for (Path folder : folders) {
            try (Stream<Path> walk = Files.walk(folder)) {
                walk.sorted(Comparator.reverseOrder()).forEach(f -> {
                    try {
                        Files.deleteIfExists(f);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (IOException | UncheckedIOException ignored) {
                // a temporary folder: the system cleans it
            }
        }
    }
}
