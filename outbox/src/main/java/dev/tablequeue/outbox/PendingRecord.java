package dev.tablequeue.outbox;

import java.util.Map;
import java.util.Objects;

/**
 * An unprocessed record of the outbox table, as the republish sends it again.
 *
 * @param id the record's id, which the message carries in {@link Outbox#ID_HEADER}
 * @param name the name the message was published under
 * @param payload the payload as it was sent
 * @param headers the headers it was sent with (without the id header)
 */
public record PendingRecord(Object id, String name, byte[] payload, Map<String, String> headers) {
    public PendingRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
