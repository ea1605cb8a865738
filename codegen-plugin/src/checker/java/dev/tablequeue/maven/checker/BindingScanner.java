package dev.tablequeue.maven.checker;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.RecurringJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the bindings of the project: every {@code static final RoleBinding} field of its compiled classes, every
 * {@code static final RecurringJob}, and every {@code static final OutboxBinding} where the project has the
 * outbox (its class is named, not linked, so the check runs on a project without {@code tablequeue-outbox}).
 * Reading a constant initialises its class, as the service's first use would; a binding that breaks a rule
 * fails there, and is reported with the message {@code build()} gave.
 */
final class BindingScanner {
    private BindingScanner() {}

    /**
     * A binding constant.
     *
     * @param label its class and field, nested classes joined with a dot ({@code com.example.Queues.SEND_EMAIL})
     */
    record Found(String label, RoleBinding<?> binding) {}

    /**
     * An outbox binding constant, held as an {@code Object}: {@code OutboxBinding} is loaded only where the
     * project has it.
     */
    record FoundOutbox(String label, Object binding) {}

    /** A recurring job constant: a schedule and the queue it publishes into. */
    record FoundSchedule(String label, RecurringJob job) {}

    /** The outbox's binding class, by name. */
    static final String OUTBOX_BINDING = "dev.tablequeue.outbox.OutboxBinding";

    /** A class whose binding constants cannot be read: its initialisation failed. */
    record Broken(String className, List<String> constants, Throwable cause) {}

    /** What the scan found. */
    record Scan(List<Found> bindings, List<FoundSchedule> schedules, List<FoundOutbox> outboxes, List<Broken> broken,
            int classes) {}

    /** Scans the classes under {@code root} that some of {@code selections} may check, loaded by {@code loader}. */
    static Scan scan(Path root, ClassLoader loader, List<Selection> selections) {
        List<Found> found = new ArrayList<>();
        List<FoundSchedule> schedules = new ArrayList<>();
        List<FoundOutbox> outboxes = new ArrayList<>();
        List<Broken> broken = new ArrayList<>();
        List<String> names = classNames(root);
        for (String name : names) {
            String label = name.replace('$', '.');
            if (selections.stream().noneMatch(s -> s.mayCheck(label))) {
                continue;
            }
            Class<?> type;
            List<Field> constants = new ArrayList<>();
            try {
                type = Class.forName(name, false, loader);
                for (Field f : type.getDeclaredFields()) {
                    int m = f.getModifiers();
                    boolean binding = RoleBinding.class.isAssignableFrom(f.getType())
                            || RecurringJob.class.isAssignableFrom(f.getType())
                            || f.getType().getName().equals(OUTBOX_BINDING);
                    if (Modifier.isStatic(m) && Modifier.isFinal(m) && binding
                            && selections.stream().anyMatch(s -> s.selects(label + "." + f.getName()))) {
                        constants.add(f);
                    }
                }
            } catch (LinkageError | ClassNotFoundException e) {
                // A class that does not load (a dependency of another scope missing) holds no binding we could read.
                continue;
            }
            try {
                for (Field f : constants) {
                    f.setAccessible(true);
                    Object value = f.get(null);
                    if (value instanceof RoleBinding<?> b) {
                        found.add(new Found(label + "." + f.getName(), b));
                    } else if (value instanceof RecurringJob job) {
                        schedules.add(new FoundSchedule(label + "." + f.getName(), job));
                    } else if (value != null) {
                        outboxes.add(new FoundOutbox(label + "." + f.getName(), value));
                    }
                }
            } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
                Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
                broken.add(new Broken(label, constants.stream().map(Field::getName).toList(), cause));
            } catch (ReflectiveOperationException | RuntimeException e) {
                broken.add(new Broken(label, constants.stream().map(Field::getName).toList(), e));
            }
        }
        return new Scan(found, schedules, outboxes, broken, names.size());
    }

    private static List<String> classNames(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".class"))
                    .map(p -> root.relativize(p).toString())
                    .filter(p -> !p.endsWith("module-info.class") && !p.endsWith("package-info.class"))
                    .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.').replace('\\', '.'))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classes under " + root, e);
        }
    }
}
