package com.example.orders;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.spring.QueueHandler;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * Invoices each placed order; the starter subscribes it because it is a bean. Transactional: {@link Invoices}
 * writes through the delivery's transaction, committed with the acknowledgement; a failure rolls it back, and
 * the job comes again after a backoff.
 */
@Component
class InvoiceOrders implements QueueHandler<InvoiceJob> {
    private final Invoices invoices;

    InvoiceOrders(Invoices invoices) {
        this.invoices = invoices;
    }

    @Override
    public InboxQueue<?> queue() {
        return Queues.INVOICES;
    }

    @Override
    public void configure(Mount<InvoiceJob> mount) {
        mount.transactional()
                .maxAttempts(5).deadLetter("invoice-dead")
                .onHandlerFailure(FailurePolicy.backoff(Duration.ofMillis(500), Duration.ofMinutes(10)));
    }

    @Override
    public Outcome handle(InvoiceJob job, Delivery delivery) {
        invoices.issue(job.orderId());   // @Transactional: joins the delivery's transaction
        return Outcome.ack();            // commits the invoice with the job's acknowledgement
    }
}
