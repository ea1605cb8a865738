package example;

import static example.Records.RECORDS;

import dev.tablequeue.outbox.OutboxBinding;
import org.jooq.Record;

/** The service's outbox: the messages it sends elsewhere, recorded in outbox_records first. */
public final class Outboxes {
    private Outboxes() {}

    public static final OutboxBinding<Record> ORDERS = OutboxBinding.of(RECORDS, RECORDS.ID, RECORDS.NAME,
                    RECORDS.PAYLOAD)
            .headers(RECORDS.HEADERS)
            .build();
}
