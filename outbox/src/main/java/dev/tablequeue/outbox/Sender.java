package dev.tablequeue.outbox;

import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Publisher;
import java.util.Map;

/**
 * Sends a message through a transport: what the republish sends records again with. A transport gives one
 * ({@code MemoryBroker::send}, {@code RabbitTransport::send}, {@link #of(Publisher)} for the table broker); a
 * send that fails throws.
 */
@FunctionalInterface
public interface Sender {
    void send(String name, byte[] payload, Map<String, String> headers) throws Exception;

    /** Sends through the table broker's publisher: into the table its routes lead the name to. */
    static Sender of(Publisher publisher) {
        return (name, payload, headers) -> {
            Message message = Message.of(name, payload);
            headers.forEach(message::header);
            publisher.publish(message);
        };
    }
}
