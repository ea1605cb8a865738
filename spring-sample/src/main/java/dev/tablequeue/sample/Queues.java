package dev.tablequeue.sample;

import static dev.tablequeue.sample.WelcomeJobs.WELCOME_JOBS;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import org.jooq.Record;

/** The service's queue tables and queues. */
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
}
