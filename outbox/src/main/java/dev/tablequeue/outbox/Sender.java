package dev.tablequeue.outbox;

import java.util.Map;

/**
 * Sends a message through a transport: what the republish sends records again with. A transport's own
 * publisher gives one (the table broker's {@code Senders.of(publisher)}, {@code MemoryBroker::send},
 * {@code RabbitTransport::send}); a send that fails throws.
 */
@FunctionalInterface
public interface Sender {
    void send(String name, byte[] payload, Map<String, String> headers) throws Exception;
}
