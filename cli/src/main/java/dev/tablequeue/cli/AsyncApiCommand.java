package dev.tablequeue.cli;

import dev.tablequeue.binding.Role;
import dev.tablequeue.broker.AsyncApi;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.OutboxBinding;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code tablequeue asyncapi}: the AsyncAPI 3.0 document of a table's queues (and outbox bindings), as the
 * service's broker would render it. The command subscribes a broker it never starts, so nothing is claimed; the
 * document holds no URL, user or password.
 */
@Command(name = "asyncapi", mixinStandardHelpOptions = true,
        description = "Prints the AsyncAPI 3.0 document of the table's queues and the outbox bindings named.")
final class AsyncApiCommand implements Callable<Integer> {
    @Mixin
    Target target;

    @Option(names = "--queue", paramLabel = "NAME",
            description = "a queue (group) to describe; repeatable; default: every group the table's rows are in")
    List<String> queues = new ArrayList<>();

    @Option(names = "--payload", paramLabel = "CLASS",
            description = "the payload type of the queues' messages, a class of the service (default: the rows)")
    String payload;

    @Option(names = "--outbox", paramLabel = "CLASS#FIELD",
            description = "a static OutboxBinding of the service whose table the service sends through; repeatable")
    List<String> outboxes = new ArrayList<>();

    @Option(names = "--title", defaultValue = "tablequeue",
            description = "the document's title (default ${DEFAULT-VALUE})")
    String title;

    @Option(names = "--service-version", paramLabel = "VERSION", defaultValue = "0",
            description = "the version of the service the document describes (default ${DEFAULT-VALUE})")
    String version;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        // two connections: the broker's least pool; it only detects the dialect, as it is never started
        try (Target.Pooled pooled = target.openPool(2)) {
            ClassLoader loader = pooled.classes().loader();
            Class<?> type = payload == null ? null : payloadType(loader);
            QueueBroker broker = QueueBroker.builder(pooled.pool()).build();
            List<String> names = queues;
            if (names.isEmpty()) {
                names = pooled.binding().has(Role.GROUP) ? target.admin(pooled.pool()).groups(pooled.binding())
                        : Collections.singletonList(null);
            }
            for (String name : names) {
                InboxQueue<?> queue = pooled.queue(name);
                if (type == null) {
                    broker.subscribe(queue).rows().handle((row, delivery) -> Outcome.ack());
                } else {
                    broker.subscribe(queue).payload(type).handle((message, delivery) -> Outcome.ack());
                }
            }
            AsyncApi document = broker.asyncApi().info(title, version);
            for (String spec : outboxes) {
                OutboxBinding<?> outbox = outbox(spec, loader);
                document.sends(outbox.tableName(), "Messages recorded in table \"" + outbox.tableName() + "\" in"
                        + " the publisher's transaction through the outbox, sent after its commit and again until"
                        + " done.", null, List.of(Outbox.ID_HEADER));
            }
            spec.commandLine().getOut().println(document.toJson());
            return 0;
        }
    }

    private Class<?> payloadType(ClassLoader loader) {
        try {
            return Class.forName(payload, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("--payload " + payload + ": the class is not on the class path (give"
                    + " the service's jar with --classpath): " + e.getMessage());
        }
    }

    private static OutboxBinding<?> outbox(String spec, ClassLoader loader) {
        int hash = spec.indexOf('#');
        if (hash <= 0 || hash == spec.length() - 1) {
            throw new IllegalArgumentException("--outbox takes CLASS#FIELD, a static OutboxBinding constant; was '"
                    + spec + "'");
        }
        Object value;
        try {
            Field field = Class.forName(spec.substring(0, hash), true, loader).getField(spec.substring(hash + 1));
            if (!Modifier.isStatic(field.getModifiers())) {
                throw new NoSuchFieldException(field.getName());
            }
            value = field.get(null);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException("--outbox " + spec + ": no public static field there (" + e + ")");
        }
        if (!(value instanceof OutboxBinding<?> binding)) {
            throw new IllegalArgumentException("--outbox " + spec + ": the field holds "
                    + (value == null ? "null" : "a " + value.getClass().getName()) + ", not an OutboxBinding");
        }
        return binding;
    }
}
