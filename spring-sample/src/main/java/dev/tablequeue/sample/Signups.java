package dev.tablequeue.sample;

import static dev.tablequeue.sample.Accounts.ACCOUNTS;

import dev.tablequeue.broker.Message;
import dev.tablequeue.outbox.memory.MemoryBroker;
import dev.tablequeue.spring.TransactionalPublisher;
import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Signs users up: the account, its welcome job and its event's outbox record commit together, or none does;
 * the event is sent once the transaction has committed.
 */
@Service
public class Signups {
    private final DSLContext dsl;
    private final TransactionalPublisher publisher;
    private final MemoryBroker accountEvents;

    Signups(DSLContext dsl, TransactionalPublisher publisher, MemoryBroker accountEvents) {
        this.dsl = dsl;
        this.publisher = publisher;
        this.accountEvents = accountEvents;
    }

    /**
     * Creates the account of {@code email}, publishes its welcome job and its {@link AccountCreated} event, in
     * one transaction.
     */
    @Transactional
    public void signUp(String email) {
        dsl.insertInto(ACCOUNTS).set(ACCOUNTS.EMAIL, email).execute();
        publisher.publish(Queues.SIGNUP_JOBS, Message.of("welcome", new Welcome(email)));
        // recorded in this transaction by the outbox, and sent after its commit
        accountEvents.publish(dsl, Queues.ACCOUNT_CREATED, new AccountCreated(email));
    }
}
