package dev.tablequeue.sample;

import static dev.tablequeue.sample.AccountEvents.ACCOUNT_EVENTS;
import static dev.tablequeue.sample.WelcomeJobs.WELCOME_JOBS;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.outbox.OutboxBinding;
import org.jooq.Record;

/** The service's queue tables and queues, and its outbox. */
public final class Queues {
    private Queues() {}

    /** welcome_jobs, in the lease form (SQLite has no row locks). */
    public static final RoleBinding<Record> SIGNUP_JOBS = RoleBinding.of(WELCOME_JOBS, WELCOME_JOBS.ID)
            .group(WELCOME_JOBS.NAME)
            .retryAfter(WELCOME_JOBS.RETRY_AFTER)
            .attempt(WELCOME_JOBS.ATTEMPT)
            .processedAt(WELCOME_JOBS.PROCESSED_AT)
            .lease(WELCOME_JOBS.LOCKED_UNTIL)
            .payload(WELCOME_JOBS.PAYLOAD)
            .build();

    /** The welcome mails. */
    public static final InboxQueue<Record> WELCOME = InboxQueue.of(SIGNUP_JOBS, "welcome");

    /** account_events: the outbox's records of the account events sent to other services. */
    public static final OutboxBinding<Record> ACCOUNT_EVENTS_OUTBOX = OutboxBinding.of(ACCOUNT_EVENTS, ACCOUNT_EVENTS.ID,
            ACCOUNT_EVENTS.NAME, ACCOUNT_EVENTS.PAYLOAD).headers(ACCOUNT_EVENTS.HEADERS).build();

    /** The name account events are published under. */
    public static final String ACCOUNT_CREATED = "account-created";
}
