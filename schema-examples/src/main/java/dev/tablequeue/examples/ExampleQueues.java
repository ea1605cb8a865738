package dev.tablequeue.examples;

import static dev.tablequeue.examples.jooq.Tables.DEMO_JOBS;
import static dev.tablequeue.examples.jooq.Tables.EMAIL_JOBS;
import static dev.tablequeue.examples.jooq.Tables.INVOICE_JOBS;
import static dev.tablequeue.examples.jooq.Tables.JOBS;
import static dev.tablequeue.examples.jooq.Tables.ORDER_JOBS;
import static dev.tablequeue.examples.jooq.Tables.PAYOUTS;
import static dev.tablequeue.examples.jooq.Tables.REPORT_JOBS;
import static dev.tablequeue.examples.jooq.Tables.SIGNUP_JOBS;
import static dev.tablequeue.examples.jooq.Tables.SUPPORT_TICKETS;
import static dev.tablequeue.examples.jooq.Tables.SYNC_JOBS;
import static dev.tablequeue.examples.jooq.Tables.THUMBNAIL_JOBS;
import static dev.tablequeue.examples.jooq.Tables.WELCOME_JOBS;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.examples.jooq.tables.records.DemoJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.EmailJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.InvoiceJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.JobsRecord;
import dev.tablequeue.examples.jooq.tables.records.OrderJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.PayoutsRecord;
import dev.tablequeue.examples.jooq.tables.records.ReportJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.SignupJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.SupportTicketsRecord;
import dev.tablequeue.examples.jooq.tables.records.SyncJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.ThumbnailJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.WelcomeJobsRecord;

/**
 * The role bindings of the example queue tables, over the one set of jOOQ classes generated from the
 * migrations (see the module's README): the same constants serve PostgreSQL, MySQL and MariaDB, and SQLite.
 * A database that cannot serve a binding's form refuses it when a subscription opens, not here.
 *
 * <p>SQLite has no row locks: it serves the lease and advisory forms, and a subscription to one of the
 * row lock bindings below (the default form) is refused there when it opens.
 */
public final class ExampleQueues {
    private ExampleQueues() {}

    /**
     * Emails grouped by name: a delayed retry moves retry_after, an acknowledgement stamps processed_at, and a
     * failure writes why into last_error.
     */
    public static final RoleBinding<EmailJobsRecord> SEND_EMAIL =
            RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID)
                    .group(EMAIL_JOBS.NAME)
                    .retryAfter(EMAIL_JOBS.RETRY_AFTER)
                    .attempt(EMAIL_JOBS.ATTEMPT)
                    .processedAt(EMAIL_JOBS.PROCESSED_AT)
                    .payload(EMAIL_JOBS.PAYLOAD)
                    .lastError(EMAIL_JOBS.LAST_ERROR)
                    .build();

    /** Tickets by queue, the most urgent (smallest) first, each customer's tickets in order under workersByKey. */
    public static final RoleBinding<SupportTicketsRecord> TICKETS =
            RoleBinding.of(SUPPORT_TICKETS, SUPPORT_TICKETS.ID)
                    .group(SUPPORT_TICKETS.QUEUE)
                    .priority(SUPPORT_TICKETS.URGENCY)
                    .partitionKey(SUPPORT_TICKETS.CUSTOMER)
                    .retryAfter(SUPPORT_TICKETS.RETRY_AFTER)
                    .attempt(SUPPORT_TICKETS.ATTEMPT)
                    .processedAt(SUPPORT_TICKETS.PROCESSED_AT)
                    .payload(SUPPORT_TICKETS.PAYLOAD)
                    .build();

    /** Invoices read "now" from the database, so every host of the service reads one clock. */
    public static final RoleBinding<InvoiceJobsRecord> SEND_INVOICE =
            RoleBinding.of(INVOICE_JOBS, INVOICE_JOBS.ID)
                    .databaseClock()
                    .retryAfter(INVOICE_JOBS.RETRY_AFTER)
                    .processedAt(INVOICE_JOBS.PROCESSED_AT)
                    .payload(INVOICE_JOBS.PAYLOAD)
                    .build();

    /** The lease form: a claim writes locked_until and commits, so no transaction stays open while a report renders. */
    public static final RoleBinding<ReportJobsRecord> RENDER_REPORT =
            RoleBinding.of(REPORT_JOBS, REPORT_JOBS.ID)
                    .attempt(REPORT_JOBS.ATTEMPT)
                    .lease(REPORT_JOBS.LOCKED_UNTIL)
                    .payload(REPORT_JOBS.PAYLOAD)
                    .build();

    /** The advisory lock form with a key per row; the table's name in the key keeps it apart from other tables. */
    public static final RoleBinding<JobsRecord> TRANSCODE =
            RoleBinding.of(JOBS, JOBS.JOB_ID)
                    .advisory("jobs-{job_id}")
                    .attempt(JOBS.ATTEMPT)
                    .payload(JOBS.PAYLOAD)
                    .build();

    /** The advisory lock form with a key per account: the payouts of one account never run side by side. */
    public static final RoleBinding<PayoutsRecord> PAYOUT =
            RoleBinding.of(PAYOUTS, PAYOUTS.ID)
                    .advisory("payouts-{account_id}")
                    .payload(PAYOUTS.PAYLOAD)
                    .data(PAYOUTS.ACCOUNT_ID)
                    .build();

    /** Signups, handled in transactional mode: the account and its welcome email commit with the acknowledgement. */
    public static final RoleBinding<SignupJobsRecord> OPEN_ACCOUNT =
            RoleBinding.of(SIGNUP_JOBS, SIGNUP_JOBS.ID)
                    .attempt(SIGNUP_JOBS.ATTEMPT)
                    .payload(SIGNUP_JOBS.PAYLOAD)
                    .build();

    /** The mailer's queue that an OPEN_ACCOUNT handler writes into, within its delivery's transaction. */
    public static final RoleBinding<WelcomeJobsRecord> SEND_WELCOME =
            RoleBinding.of(WELCOME_JOBS, WELCOME_JOBS.ID)
                    .payload(WELCOME_JOBS.PAYLOAD)
                    .build();

    /** FIFO groups: one change per target in work at a time, in claim order. */
    public static final RoleBinding<SyncJobsRecord> SYNC_CHANGE =
            RoleBinding.of(SYNC_JOBS, SYNC_JOBS.ID)
                    .fifoGroup(SYNC_JOBS.TARGET)
                    .retryAfter(SYNC_JOBS.RETRY_AFTER)
                    .payload(SYNC_JOBS.PAYLOAD)
                    .build();

    /** The lease form again, for the SQLite example of the reference (it serves on every database). */
    public static final RoleBinding<ThumbnailJobsRecord> MAKE_THUMBNAIL =
            RoleBinding.of(THUMBNAIL_JOBS, THUMBNAIL_JOBS.ID)
                    .attempt(THUMBNAIL_JOBS.ATTEMPT)
                    .lease(THUMBNAIL_JOBS.LOCKED_UNTIL)
                    .payload(THUMBNAIL_JOBS.PAYLOAD)
                    .build();

    /**
     * Row mode (no payload column): the handler takes the row, its headers read from columns of their own
     * and its note as data. A fetch of the service's own may join {@code orders} on order_id.
     */
    public static final RoleBinding<OrderJobsRecord> ORDER_JOB =
            RoleBinding.of(ORDER_JOBS, ORDER_JOBS.JOB_ID)
                    .group(ORDER_JOBS.NAME)
                    .attempt(ORDER_JOBS.ATTEMPT)
                    .headerFields(ORDER_JOBS.TENANT, ORDER_JOBS.TRACE, ORDER_JOBS.ORDER_ID)
                    .data(ORDER_JOBS.NOTE)
                    .build();

    /**
     * The queue of the runnable demo ({@code dev.tablequeue.examples.demo.Demo}): the lease form, which serves on
     * every database, with a group (the dead letter is a group of the same table), delayed retries, attempts
     * and processed_at, so one binding shows every outcome a handler can answer.
     */
    public static final RoleBinding<DemoJobsRecord> DEMO_JOB =
            RoleBinding.of(DEMO_JOBS, DEMO_JOBS.ID)
                    .group(DEMO_JOBS.NAME)
                    .retryAfter(DEMO_JOBS.RETRY_AFTER)
                    .attempt(DEMO_JOBS.ATTEMPT)
                    .processedAt(DEMO_JOBS.PROCESSED_AT)
                    .lease(DEMO_JOBS.LOCKED_UNTIL)
                    .payload(DEMO_JOBS.PAYLOAD)
                    .build();
}
