package dev.tablequeue.maven.schedulefixture;

import static dev.tablequeue.maven.schedulefixture.ReportJobs.REPORT_JOBS;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.RecurringJob;
import dev.tablequeue.broker.Schedule;
import java.time.ZoneId;
import org.jooq.Record;

/** A schedule's table and the recurring job that publishes into it (CheckerTest's schedule cases). */
public final class Reports {
    private Reports() {}

    public static final RoleBinding<Record> REPORTS = RoleBinding.of(REPORT_JOBS, REPORT_JOBS.ID)
            .attempt(REPORT_JOBS.ATTEMPT)
            .lease(REPORT_JOBS.LOCKED_UNTIL)
            .processedAt(REPORT_JOBS.PROCESSED_AT)
            .uniqueKey(REPORT_JOBS.JOB_KEY)
            .payload(REPORT_JOBS.PAYLOAD)
            .build();

    public static final RecurringJob NIGHTLY = RecurringJob.of(
            Schedule.cron("nightly-report", "0 0 3 * * *", ZoneId.of("Europe/Berlin")),
            InboxQueue.of(REPORTS, "reports"), instant -> instant.toString());
}
