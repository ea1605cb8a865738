package dev.tablequeue.sample;

import static dev.tablequeue.sample.Accounts.ACCOUNTS;

import dev.tablequeue.broker.Message;
import dev.tablequeue.spring.TransactionalPublisher;
import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Signs users up: the account and its welcome job commit together, or neither does. */
@Service
public class Signups {
    private final DSLContext dsl;
    private final TransactionalPublisher publisher;

    Signups(DSLContext dsl, TransactionalPublisher publisher) {
        this.dsl = dsl;
        this.publisher = publisher;
    }

    /** Creates the account of {@code email} and publishes its welcome job, in one transaction. */
    @Transactional
    public void signUp(String email) {
        dsl.insertInto(ACCOUNTS).set(ACCOUNTS.EMAIL, email).execute();
        publisher.publish(Queues.SIGNUP_JOBS, Message.of("welcome", new Welcome(email)));
    }
}
