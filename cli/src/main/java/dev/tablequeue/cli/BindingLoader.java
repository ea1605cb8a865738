package dev.tablequeue.cli;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Finds a {@code static final RoleBinding} constant by {@code class#FIELD} among the service's classes. */
final class BindingLoader {
    private BindingLoader() {}

    /** A class loader over {@code paths} (jars and folders), in front of the command's own classes. */
    static ClassLoader classLoader(List<Path> paths) {
        if (paths.isEmpty()) {
            return BindingLoader.class.getClassLoader();
        }
        List<URL> urls = new ArrayList<>();
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new IllegalArgumentException("--classpath names " + p + ", which does not exist");
            }
            try {
                urls.add(p.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("--classpath names " + p + ", which is not a path: " + e.getMessage());
            }
        }
        return new URLClassLoader(urls.toArray(URL[]::new), BindingLoader.class.getClassLoader());
    }

    /** The binding {@code spec} ({@code com.acme.Queues#SEND_EMAIL}) names, loaded through {@code loader}. */
    static RoleBinding<?> load(String spec, ClassLoader loader) {
        int hash = spec.indexOf('#');
        if (hash <= 0 || hash == spec.length() - 1) {
            throw new IllegalArgumentException("--binding takes CLASS#FIELD, a static RoleBinding constant such as"
                    + " com.acme.Queues#SEND_EMAIL; was '" + spec + "'");
        }
        String className = spec.substring(0, hash);
        String fieldName = spec.substring(hash + 1);
        Class<?> type;
        try {
            type = Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("--binding " + spec + ": class " + className + " is not on the class"
                    + " path (give the service's jar with --classpath)");
        } catch (ExceptionInInitializerError e) {
            throw new TableQueueException("--binding " + spec + ": class " + className + " did not initialise: "
                    + e.getCause().getMessage(), e.getCause());
        }
        Field field;
        try {
            field = type.getField(fieldName);
        } catch (NoSuchFieldException e) {
            throw new IllegalArgumentException("--binding " + spec + ": class " + className + " has no public field "
                    + fieldName);
        }
        if (!Modifier.isStatic(field.getModifiers())) {
            throw new IllegalArgumentException("--binding " + spec + ": field " + fieldName + " is not static");
        }
        Object value;
        try {
            value = field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("--binding " + spec + ": field " + fieldName + " cannot be read: "
                    + e.getMessage());
        }
        if (!(value instanceof RoleBinding<?> binding)) {
            throw new IllegalArgumentException("--binding " + spec + ": field " + fieldName + " holds "
                    + (value == null ? "null" : "a " + value.getClass().getName()) + ", not a RoleBinding");
        }
        return binding;
    }
}
