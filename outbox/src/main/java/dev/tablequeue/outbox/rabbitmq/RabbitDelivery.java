package dev.tablequeue.outbox.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import dev.tablequeue.broker.Delivery;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.jooq.DSLContext;

/** A RabbitMQ message in a handler's hands: its headers as text, the name it was published under. */
final class RabbitDelivery implements Delivery {
    private final String queue;
    private final Envelope envelope;
    private final byte[] body;
    private final Map<String, String> headers;
    private final String name;

    RabbitDelivery(String queue, Envelope envelope, AMQP.BasicProperties props, byte[] body) {
        this.queue = queue;
        this.envelope = envelope;
        this.body = body;
        Map<String, String> h = new LinkedHashMap<>();
        if (props.getHeaders() != null) {
            props.getHeaders().forEach((k, v) -> h.put(k, String.valueOf(v)));
        }
        this.headers = Map.copyOf(h);
        this.name = props.getType() != null ? props.getType() : envelope.getRoutingKey();
    }

    long tag() {
        return envelope.getDeliveryTag();
    }

    byte[] body() {
        return body;
    }

    /** The name the message was published under. */
    String name() {
        return name;
    }

    @Override
    public Object id() {
        return envelope.getDeliveryTag();
    }

    @Override
    public String queue() {
        return queue;
    }

    /** RabbitMQ counts no attempts on a classic queue: empty. */
    @Override
    public OptionalInt attempt() {
        return OptionalInt.empty();
    }

    @Override
    public Map<String, String> headers() {
        return headers;
    }

    @Override
    public Object partitionKey() {
        return null;
    }

    /** A RabbitMQ delivery has no database of its own. */
    @Override
    public DSLContext db() {
        throw new UnsupportedOperationException("a delivery of RabbitMQ has no database");
    }

    @Override
    public String toString() {
        return "message " + envelope.getDeliveryTag() + " of " + queue + (envelope.isRedeliver() ? " (redelivered)" : "");
    }
}
