package dev.tablequeue.cli;

import dev.tablequeue.binding.RoleBinding;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds a {@code static final RoleBinding} constant by {@code class#FIELD} among the service's classes. Every way
 * this can go wrong is an {@link IllegalArgumentException} with one line that says what to give instead: a class
 * that is missing, or needs a class that is missing, or whose initialiser throws, is the operator's to fix, not a
 * stack trace to read.
 */
final class BindingLoader {
    private BindingLoader() {}

    /** The binding {@code spec} ({@code com.acme.Queues#SEND_EMAIL}) names, loaded through {@code loader}. */
    static RoleBinding<?> load(String spec, ClassLoader loader) {
        int hash = spec.indexOf('#');
        if (hash == spec.length() - 1 || hash == 0) {
            throw new IllegalArgumentException("--binding takes CLASS#FIELD, a static RoleBinding constant such as"
                    + " com.acme.Queues#SEND_EMAIL; was '" + spec + "'");
        }
        if (hash < 0) {
            Class<?> type = type(spec, spec, loader);
            throw new IllegalArgumentException("--binding takes CLASS#FIELD, a static RoleBinding constant; was '"
                    + spec + "'" + constantsOf(type));
        }
        String className = spec.substring(0, hash);
        String fieldName = spec.substring(hash + 1);
        Class<?> type = type(spec, className, loader);
        Object value;
        try {
            value = value(type, fieldName);
        } catch (NoSuchFieldException e) {
            throw new IllegalArgumentException("--binding " + spec + ": class " + className + " has no public static"
                    + " field " + fieldName + constantsOf(type));
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("--binding " + spec + ": field " + fieldName + " cannot be read: "
                    + e.getMessage());
        }
        if (!(value instanceof RoleBinding<?> binding)) {
            throw new IllegalArgumentException("--binding " + spec + ": field " + fieldName + " holds "
                    + (value == null ? "null" : "a " + value.getClass().getName()) + ", not a RoleBinding"
                    + constantsOf(type));
        }
        return binding;
    }

    /**
     * The value of public static field {@code name} of {@code type}. Reflection over the class resolves the types
     * of all its fields, so a field whose type the class path lacks (another module's constant beside the
     * bindings) would hide every other: where it does, the field is looked up alone, by name, as a RoleBinding.
     */
    private static Object value(Class<?> type, String name) throws NoSuchFieldException, IllegalAccessException {
        Field field;
        try {
            field = type.getField(name);
        } catch (NoClassDefFoundError another) {
            try {
                return MethodHandles.publicLookup().findStaticGetter(type, name, RoleBinding.class).invoke();
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
    private static Class<?> type(String spec, String className, ClassLoader loader) {
        try {
            return Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("--binding " + spec + ": class " + className + " is not on the class"
                    + " path (give the service's jar, its classes folder or its Spring Boot jar with --classpath)");
        } catch (ExceptionInInitializerError e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalArgumentException("--binding " + spec + ": class " + className + " did not initialise: "
                    + cause.getClass().getName() + ": " + cause.getMessage());
        } catch (NoClassDefFoundError e) {
            throw new IllegalArgumentException("--binding " + spec + ": class " + className + " needs class "
                    + e.getMessage().replace('/', '.') + ", which is not on the class path (give the jars it needs"
                    + " with --classpath, or the service's Spring Boot jar, which holds them)");
        } catch (LinkageError e) {
            throw new IllegalArgumentException("--binding " + spec + ": class " + className + " cannot be loaded: "
                    + e.getClass().getName() + ": " + e.getMessage());
        }
    }

    /** "; its RoleBinding constants: A, B" for the static fields of {@code type} that hold one, or that it has none. */
    private static String constantsOf(Class<?> type) {
        Field[] fields;
        try {
            fields = type.getFields();
        } catch (LinkageError e) {
            // a field's type is not on the class path: the constants cannot be listed
            return "";
        }
        List<String> names = new ArrayList<>();
        for (Field f : fields) {
            if (Modifier.isStatic(f.getModifiers()) && RoleBinding.class.isAssignableFrom(f.getType())) {
                names.add(f.getName());
            }
        }
        return names.isEmpty() ? "; it holds no public static RoleBinding constant"
                : "; its RoleBinding constants: " + String.join(", ", names);
    }
}
