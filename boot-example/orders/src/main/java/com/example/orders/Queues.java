package com.example.orders;

import static com.example.orders.jooq.Tables.INVOICE_JOBS;
import static com.example.orders.jooq.Tables.ORDER_EVENTS;

import com.example.orders.jooq.tables.records.InvoiceJobsRecord;
import com.example.orders.jooq.tables.records.OrderEventsRecord;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.outbox.OutboxBinding;

/**
 * The service's queue table, its queue and its outbox, on the jOOQ classes generated from the migrations.
 * tablequeue:check checks these constants against the migrated schema at build time.
 */
public final class Queues {
    private Queues() {}

    /** invoice_jobs, in the row lock form (the default). */
    public static final RoleBinding<InvoiceJobsRecord> INVOICE_JOBS_BINDING =
            RoleBinding.of(INVOICE_JOBS, INVOICE_JOBS.ID)
                    .group(INVOICE_JOBS.NAME)
                    .retryAfter(INVOICE_JOBS.RETRY_AFTER)
                    .attempt(INVOICE_JOBS.ATTEMPT)
                    .processedAt(INVOICE_JOBS.PROCESSED_AT)
                    .payload(INVOICE_JOBS.PAYLOAD)
                    .build();

    /** The name (group) of the invoicing jobs. */
    public static final String INVOICE = "invoice";

    /** The invoicing jobs. */
    public static final InboxQueue<InvoiceJobsRecord> INVOICES = InboxQueue.of(INVOICE_JOBS_BINDING, INVOICE);

    /**
     * order_events: the outbox's record of every event sent to Kafka or RabbitMQ. A record is done once the broker
     * confirmed its send (the default of both transports): the consumers are other services.
     */
    public static final OutboxBinding<OrderEventsRecord> ORDER_EVENTS_OUTBOX =
            OutboxBinding.of(ORDER_EVENTS, ORDER_EVENTS.ID, ORDER_EVENTS.NAME, ORDER_EVENTS.PAYLOAD)
                    .headers(ORDER_EVENTS.HEADERS)
                    .processedAt(ORDER_EVENTS.PROCESSED_AT)
                    .lease(ORDER_EVENTS.LOCKED_UNTIL)
                    .build();

    /** The name {@link OrderPlaced} events are published under: the Kafka topic they go to. */
    public static final String ORDER_PLACED = "order-placed";
}
