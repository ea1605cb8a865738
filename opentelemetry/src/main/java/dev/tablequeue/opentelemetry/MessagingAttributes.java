package dev.tablequeue.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attributes tablequeue's spans carry. The {@code messaging.*} and {@code error.type} keys are those of
 * OpenTelemetry's messaging semantic conventions (v1.44, where the messaging conventions are still in
 * development), written here rather than taken from the incubating {@code opentelemetry-semconv-incubating}
 * artifact, whose alpha releases may rename or drop them; the {@code tablequeue.*} keys say what the
 * conventions have no key for.
 */
public final class MessagingAttributes {
    /** The messaging system: "tablequeue" for a queue table, "rabbitmq" for RabbitMQ, as the tracing was told. */
    public static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    /** The queue: the name a message is published under, and the queue a delivery came from. */
    public static final AttributeKey<String> MESSAGING_DESTINATION_NAME =
            AttributeKey.stringKey("messaging.destination.name");
    /** {@code send} on the producer span, {@code process} on the consumer span. */
    public static final AttributeKey<String> MESSAGING_OPERATION_TYPE =
            AttributeKey.stringKey("messaging.operation.type");
    /** {@code publish} on the producer span, {@code process} on the consumer span. */
    public static final AttributeKey<String> MESSAGING_OPERATION_NAME =
            AttributeKey.stringKey("messaging.operation.name");
    /** The id of the row a delivery came from, as text; only where a delivery comes from a queue table. */
    public static final AttributeKey<String> MESSAGING_MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    /** The class of the exception a handler (or a send) threw. */
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    /** The table a delivery came from, with its schema where it has one; only where it came from a table. */
    public static final AttributeKey<String> TABLEQUEUE_TABLE = AttributeKey.stringKey("tablequeue.table");
    /** The delivery's attempt, the first reading 1; only where the transport counts attempts. */
    public static final AttributeKey<Long> TABLEQUEUE_ATTEMPT = AttributeKey.longKey("tablequeue.delivery.attempt");
    /**
     * The outcome the handler answered: {@code ack}, {@code retry}, {@code retry_after}, {@code drop} or
     * {@code dead_letter}; absent where it threw (the failure policy then settles the row).
     */
    public static final AttributeKey<String> TABLEQUEUE_OUTCOME = AttributeKey.stringKey("tablequeue.delivery.outcome");

    private MessagingAttributes() {}
}
