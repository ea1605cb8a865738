package com.example.orders;

import static com.example.orders.jooq.Tables.ORDERS;

import dev.tablequeue.broker.Message;
import dev.tablequeue.outbox.kafka.KafkaTransport;
import dev.tablequeue.outbox.rabbitmq.RabbitTransport;
import dev.tablequeue.spring.TransactionalPublisher;
import org.jooq.DSLContext;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places orders. The order, its invoicing job and the outbox records of its two events commit together, or none
 * does; the events are sent to Kafka and RabbitMQ once the transaction has committed, and not at all after a
 * rollback. Nothing here bridges Spring's transaction to tablequeue: the starter does.
 */
@Service
public class Orders {
    private final DSLContext dsl;
    private final TransactionalPublisher jobs;
    private final KafkaTransport kafka;
    private final RabbitTransport rabbit;
    private final String mailsQueue;

    Orders(DSLContext dsl, TransactionalPublisher jobs, KafkaTransport kafka, RabbitTransport rabbit,
            @Value("${orders.mails-queue}") String mailsQueue) {
        this.dsl = dsl;
        this.jobs = jobs;
        this.kafka = kafka;
        this.rabbit = rabbit;
        this.mailsQueue = mailsQueue;
    }

    /** Places an order of {@code amountCents} for {@code customer}; returns its id. */
    @Transactional
    public long place(String customer, long amountCents) {
        long id = dsl.insertInto(ORDERS)
                .set(ORDERS.CUSTOMER, customer)
                .set(ORDERS.AMOUNT_CENTS, amountCents)
                .returning(ORDERS.ID)
                .fetchSingle()
                .getId();
        // a row of invoice_jobs, in this transaction: the invoice follows the order, whatever happens after
        jobs.publish(Queues.INVOICE_JOBS_BINDING, Message.of(Queues.INVOICE, new InvoiceJob(id)));
        // outbox records, in this transaction (Boot's DSLContext is on its connection); sent after the commit
        kafka.publishKeyed(dsl, Queues.ORDER_PLACED, String.valueOf(id), new OrderPlaced(id, customer, amountCents));
        rabbit.publish(dsl, mailsQueue, new OrderMail(id, customer));
        return id;
    }
}
