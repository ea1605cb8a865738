package dev.tablequeue.spring;

import dev.tablequeue.broker.AsyncApi;
import dev.tablequeue.broker.QueueBroker;
import java.util.List;
import java.util.Objects;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The actuator endpoint {@code asyncapi}: the AsyncAPI 3.0 document of the broker's subscriptions and routes,
 * and of what the {@link AsyncApi.Part} beans add (the outbox's names, where the context has an outbox). It
 * names queues, tables, groups and columns, never an address, user or password of the data source.
 */
@Endpoint(id = "asyncapi")
public class AsyncApiEndpoint {
    private final QueueBroker broker;
    private final List<AsyncApi.Part> parts;
    private final String title;
    private final String version;

    /** The endpoint over {@code broker} and {@code parts}, the document titled {@code title}, {@code version}. */
    public AsyncApiEndpoint(QueueBroker broker, List<AsyncApi.Part> parts, String title, String version) {
        this.broker = Objects.requireNonNull(broker, "broker");
        this.parts = List.copyOf(parts);
        this.title = Objects.requireNonNull(title, "title");
        this.version = Objects.requireNonNull(version, "version");
    }

    /** The document as JSON, rendered on each read (the subscriptions may grow after the context starts). */
    @ReadOperation(produces = "application/json")
    public String asyncApi() {
        AsyncApi document = broker.asyncApi().info(title, version);
        parts.forEach(document::with);
        return document.toJson();
    }
}
