package dev.tablequeue.maven;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader the checker runs in, in two layers. Below, the project's runtime class path alone, as the
 * service runs it: its classes, the binding constants and generated jOOQ classes, its jOOQ, its toolkit (whose
 * {@code RoleBinding} and start rules the check runs) and whatever else it holds, Flyway of any version
 * included. Above, the checker's own jars (its code, the Flyway it migrates with, the JDBC drivers, Testcontainers),
 * searched first for every class but the toolkit's and jOOQ's, which always come from the project. So the
 * project's Flyway 10 or 11 and the checker's Flyway 13 never meet, and the checker's code sees the project's
 * toolkit and jOOQ, the same classes the project's bindings were built with.
 */
final class CheckerLoader extends URLClassLoader {
    /** The checker's own packages: from its own jars, though they start like the toolkit's. */
    private static final String OWN = "dev.tablequeue.maven.";
    /** What the checker takes from the project, the classes the bindings are made of. */
    private static final List<String> PROJECT = List.of("dev.tablequeue.", "org.jooq.");

    static {
        registerAsParallelCapable();
    }

    private final URLClassLoader project;

    private CheckerLoader(URL[] checker, URLClassLoader project) {
        super("tablequeue-checker", checker, project);
        this.project = project;
    }

    /** The loader of {@code checker}'s jars over that of {@code project}'s class path, whose parent is the platform's. */
    static CheckerLoader of(List<File> project, List<File> checker) {
        URLClassLoader below = new URLClassLoader("tablequeue-project", urls(project), ClassLoader.getPlatformClassLoader());
        return new CheckerLoader(urls(checker), below);
    }

    private static boolean fromProject(String name) {
        if (name.startsWith(OWN)) {
            return false;
        }
        for (String prefix : PROJECT) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = fromProject(name) ? project.loadClass(name) : own(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    /** The JDK's classes first, then the checker's jars, then the project's (a driver only the project has). */
    private Class<?> own(String name) throws ClassNotFoundException {
        try {
            return ClassLoader.getPlatformClassLoader().loadClass(name);
        } catch (ClassNotFoundException notPlatform) {
            try {
                return findClass(name);
            } catch (ClassNotFoundException notOwn) {
                return project.loadClass(name);
            }
        }
    }

    /**
     * Where a service file ({@code META-INF/services/<type>}) is read: the project's where the type is the toolkit's
     * or jOOQ's (the dialect providers), the checker's own otherwise. A service file of the project's Flyway lists
     * classes of that Flyway, which the checker's Flyway cannot take; the project's JDBC drivers are not the check's.
     */
    private static final String SERVICES = "META-INF/services/";

    private static boolean servicesOfOwn(String name) {
        return name.startsWith(SERVICES) && !fromProject(name.substring(SERVICES.length()));
    }

    private static boolean servicesOfProject(String name) {
        return name.startsWith(SERVICES) && fromProject(name.substring(SERVICES.length()));
    }

    @Override
    public URL getResource(String name) {
        if (servicesOfProject(name)) {
            return project.getResource(name);
        }
        URL own = findResource(name);
        return own != null || servicesOfOwn(name) ? own : project.getResource(name);
    }

    /**
     * The checker's resources, then the project's (Flyway finds the project's migrations among the latter), but
     * for service files, which are one side's alone.
     */
    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        if (servicesOfProject(name)) {
            return project.getResources(name);
        }
        List<URL> all = new ArrayList<>(Collections.list(findResources(name)));
        if (!servicesOfOwn(name)) {
            all.addAll(Collections.list(project.getResources(name)));
        }
        return Collections.enumeration(all);
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            project.close();
        }
    }

    private static URL[] urls(List<File> files) {
        List<URL> urls = new ArrayList<>();
        for (File f : files) {
            try {
                urls.add(f.toURI().toURL());
            } catch (MalformedURLException e) {
                throw new UncheckedIOException(e);
            }
        }
        return urls.toArray(URL[]::new);
    }
}
