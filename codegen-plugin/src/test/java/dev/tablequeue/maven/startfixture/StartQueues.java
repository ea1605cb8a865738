package dev.tablequeue.maven.startfixture;

import static dev.tablequeue.maven.fixture.FixtureJobs.FIXTURE_JOBS;

import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.RecurringJob;
import dev.tablequeue.broker.Schedule;
import java.time.Duration;
import org.jooq.Record;

/** Bindings each of which the broker's start() refuses on SQLite for one reason of its own (StartRefusalsTest). */
public final class StartQueues {
    private StartQueues() {}

    /** The row lock form, which SQLite (no row locks) does not serve. */
    public static final RoleBinding<Record> ROW_LOCK = RoleBinding.of(FIXTURE_JOBS, FIXTURE_JOBS.ID)
            .attempt(FIXTURE_JOBS.ATTEMPT)
            .payload(FIXTURE_JOBS.PAYLOAD)
            .build();

    /** An isolation level, which SQLite (every transaction serializable) does not take. */
    public static final RoleBinding<Record> ISOLATION = RoleBinding.of(FIXTURE_JOBS, FIXTURE_JOBS.ID)
            .attempt(FIXTURE_JOBS.ATTEMPT)
            .lease(FIXTURE_JOBS.LOCKED_UNTIL)
            .payload(FIXTURE_JOBS.PAYLOAD)
            .isolation(Isolation.READ_COMMITTED)
            .build();

    /** An own fetch without the own claim whose ids it would read. */
    public static final RoleBinding<Record> OWN_FETCH = RoleBinding.of(FIXTURE_JOBS, FIXTURE_JOBS.ID)
            .attempt(FIXTURE_JOBS.ATTEMPT)
            .lease(FIXTURE_JOBS.LOCKED_UNTIL)
            .payload(FIXTURE_JOBS.PAYLOAD)
            .ownFetch((ctx, ids) -> ctx.newResult())
            .build();

    /** A unique key on a column that no unique index of the table keeps unique. */
    public static final RoleBinding<Record> UNIQUE_KEY = RoleBinding.of(FIXTURE_JOBS, FIXTURE_JOBS.ID)
            .attempt(FIXTURE_JOBS.ATTEMPT)
            .payload(FIXTURE_JOBS.PAYLOAD)
            .advisory("fixture-{id}")
            .uniqueKey(FIXTURE_JOBS.LOCKED_UNTIL)
            .build();

    /** A recurring job into a table whose binding declares no unique key for the schedule's keys. */
    public static final RecurringJob SCHEDULE = RecurringJob.of(Schedule.every("sweep", Duration.ofMinutes(5)),
            InboxQueue.of(RoleBinding.of(FIXTURE_JOBS, FIXTURE_JOBS.ID).attempt(FIXTURE_JOBS.ATTEMPT)
                    .lease(FIXTURE_JOBS.LOCKED_UNTIL).payload(FIXTURE_JOBS.PAYLOAD).build(), "sweep"),
            instant -> "sweep");
}
