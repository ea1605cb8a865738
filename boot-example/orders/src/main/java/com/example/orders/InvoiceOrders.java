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
 * Invoices each placed order and posts the invoice to the ledger; the starter subscribes it because it is a bean.
 * Transactional: {@link Invoices} writes through the delivery's transaction, so the invoice commits with the
 * acknowledgement; when the ledger refuses it, the invoice rolls back with the delivery, and the job comes again
 * after a backoff.
 */
@Component
class InvoiceOrders implements QueueHandler<InvoiceJob> {
    private final Invoices invoices;
    private final Ledger ledger;

    InvoiceOrders(Invoices invoices, Ledger ledger) {
        this.invoices = invoices;
        this.ledger = ledger;
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
        long amount = invoices.issue(job.orderId());   // @Transactional: joins the delivery's transaction
        ledger.post(job.orderId(), amount);            // throws where refused: the invoice rolls back with the job
        return Outcome.ack();                          // commits the invoice with the job's acknowledgement
    }
}
