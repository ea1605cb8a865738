package dev.tablequeue.maven.checker;

import java.util.List;

/**
 * Which bindings a database checks. Each name is a constant ({@code com.example.Queues.SEND_EMAIL}), a class
 * or a package; it selects the constants it names or holds, nested classes written with a dot.
 *
 * @param includes the names to check, or null for every binding found
 * @param excludes the names to leave out
 */
record Selection(List<String> includes, List<String> excludes) {
    Selection {
        includes = includes == null ? null : List.copyOf(includes);
        excludes = excludes == null ? List.of() : List.copyOf(excludes);
    }

    /** Whether the constant labelled {@code label} ({@code class.CONSTANT}) is checked. */
    boolean selects(String label) {
        return (includes == null || includes.stream().anyMatch(n -> names(n, label)))
                && excludes.stream().noneMatch(n -> names(n, label));
    }

    /** Whether some constant of class {@code className} may be checked (its initialisation then matters). */
    boolean mayCheck(String className) {
        return (includes == null || includes.stream().anyMatch(n -> names(n, className) || names(className, n)))
                && excludes.stream().noneMatch(n -> names(n, className));
    }

    /** Whether {@code name} is {@code label} or one of its enclosing names (a class, a package). */
    static boolean names(String name, String label) {
        return label.equals(name) || label.startsWith(name + ".");
    }
}
