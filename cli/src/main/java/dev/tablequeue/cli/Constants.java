package dev.tablequeue.cli;

import dev.tablequeue.binding.RoleBinding;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds a constant of the service's (a {@code static final RoleBinding}, a {@code RecurringJob}) by
 * {@code class#FIELD} among the service's classes. Every way
 * this can go wrong is an {@link IllegalArgumentException} with one line that says what to give instead: a class
 * that is missing, or needs a class that is missing, or whose initialiser throws, is the operator's to fix, not a
 * stack trace to read.
 */
final class Constants {
    private Constants() {}

    /** The binding {@code spec} ({@code com.acme.Queues#SEND_EMAIL}) names, loaded through {@code loader}. */
    static RoleBinding<?> binding(String spec, ClassLoader loader) {
        return load("--binding", spec, loader, RoleBinding.class, "com.acme.Queues#SEND_EMAIL");
    }

    /**
     * The constant of type {@code kind} that {@code spec} names, for option {@code option}, loaded through
     * {@code loader}; {@code example} shows the form.
     */
    static <T> T load(String option, String spec, ClassLoader loader, Class<T> kind, String example) {
        String k = kind.getSimpleName();
        int hash = spec.indexOf('#');
        if (hash == spec.length() - 1 || hash == 0) {
            throw new IllegalArgumentException(option + " takes CLASS#FIELD, a static " + k + " constant such as "
                    + example + "; was '" + spec + "'");
        }
        if (hash < 0) {
            Class<?> type = type(option, spec, spec, loader);
            throw new IllegalArgumentException(option + " takes CLASS#FIELD, a static " + k + " constant; was '"
                    + spec + "'" + constantsOf(type, kind));
        }
        String className = spec.substring(0, hash);
        String fieldName = spec.substring(hash + 1);
        Class<?> type = type(option, spec, className, loader);
        Object value;
        try {
            value = value(type, fieldName, kind);
        } catch (NoSuchFieldException e) {
            throw new IllegalArgumentException(option + " " + spec + ": class " + className + " has no public static"
                    + " field " + fieldName + constantsOf(type, kind));
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(option + " " + spec + ": field " + fieldName + " cannot be read: "
                    + e.getMessage());
        }
        if (!kind.isInstance(value)) {
            throw new IllegalArgumentException(option + " " + spec + ": field " + fieldName + " holds "
                    + (value == null ? "null" : "a " + value.getClass().getName()) + ", not a " + k
                    + constantsOf(type, kind));
        }
        return kind.cast(value);
    }

    /**
     * The value of public static field {@code name} of {@code type}. Reflection over the class resolves the types
     * of all its fields, so a field whose type the class path lacks (another module's constant beside the
     * bindings) would hide every other: where it does, the field is looked up alone, by name, as a {@code kind}.
     */
    private static Object value(Class<?> type, String name, Class<?> kind)
            throws NoSuchFieldException, IllegalAccessException {
        Field field;
        try {
            field = type.getField(name);
        } catch (NoClassDefFoundError another) {
            try {
                return MethodHandles.publicLookup().findStaticGetter(type, name, kind).invoke();
            } catch (NoSuchFieldException | IllegalAccessException e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalAccessException(e.toString());
            }
        }
        if (!Modifier.isStatic(field.getModifiers())) {
            throw new NoSuchFieldException(name);
        }
        return field.get(null);
    }

    /** Class {@code className}, loaded and initialised (its constants are built by its initialiser). */
    private static Class<?> type(String option, String spec, String className, ClassLoader loader) {
        try {
            return Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(option + " " + spec + ": class " + className + " is not on the class"
                    + " path (give the service's jar, its classes folder or its Spring Boot jar with --classpath)");
        } catch (ExceptionInInitializerError e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalArgumentException(option + " " + spec + ": class " + className + " did not initialise: "
                    + cause.getClass().getName() + ": " + cause.getMessage());
        } catch (NoClassDefFoundError e) {
            throw new IllegalArgumentException(option + " " + spec + ": class " + className + " needs class "
                    + e.getMessage().replace('/', '.') + ", which is not on the class path (give the jars it needs"
                    + " with --classpath, or the service's Spring Boot jar, which holds them)");
        } catch (LinkageError e) {
            throw new IllegalArgumentException(option + " " + spec + ": class " + className + " cannot be loaded: "
                    + e.getClass().getName() + ": " + e.getMessage());
        }
    }

    /** "; its RoleBinding constants: A, B": the static fields of {@code type} that hold a {@code kind}, or none. */
    private static String constantsOf(Class<?> type, Class<?> kind) {
        Field[] fields;
        try {
            fields = type.getFields();
        } catch (LinkageError e) {
            // a field's type is not on the class path: the constants cannot be listed
            return "";
        }
        List<String> names = new ArrayList<>();
        for (Field f : fields) {
            if (Modifier.isStatic(f.getModifiers()) && kind.isAssignableFrom(f.getType())) {
                names.add(f.getName());
            }
        }
        return names.isEmpty() ? "; it holds no public static " + kind.getSimpleName() + " constant"
                : "; its " + kind.getSimpleName() + " constants: " + String.join(", ", names);
    }
}
