package dev.tablequeue.spring;

import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.QueueBroker;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** A service of the suite's application that publishes jobs in its {@code @Transactional} methods. */
public class JobService {
    private final TransactionalPublisher publisher;
    private final QueueBroker broker;
    private final DSLContext dsl;
    private final InboxQueue<Record> queue;

    JobService(TransactionalPublisher publisher, QueueBroker broker, DSLContext dsl, InboxQueue<Record> queue) {
        this.publisher = publisher;
        this.broker = broker;
        this.dsl = dsl;
        this.queue = queue;
    }

    /** Publishes {@code name}, then fails: the transaction rolls back. */
    @Transactional
    public void publishThenFail(String name) {
        publisher.publish(queue.binding(), Message.of(queue.name(), new Job(name)));
        throw new IllegalStateException("the work around " + name + " failed");
    }

    /** Publishes {@code name} and commits; answers whether the wake-up waits for the commit. */
    @Transactional
    public boolean publishAndCommit(String name) {
        publisher.publish(queue.binding(), Message.of(queue.name(), new Job(name)));
        return TransactionSynchronizationManager.getSynchronizations().stream()
                .anyMatch(s -> s instanceof SpringAfterCommit.WakeAtCommit);
    }

    /** Publishes {@code name} through Boot's jOOQ {@code DSLContext}, then fails. */
    @Transactional
    public void publishWithJooqThenFail(String name) {
        broker.publisher().publish(dsl, queue.binding(), Message.of(queue.name(), new Job(name)));
        throw new IllegalStateException("the work around " + name + " failed");
    }

    /** Publishes {@code name} through Boot's jOOQ {@code DSLContext}, and commits. */
    @Transactional
    public void publishWithJooq(String name) {
        broker.publisher().publish(dsl, queue.binding(), Message.of(queue.name(), new Job(name)));
    }
}
