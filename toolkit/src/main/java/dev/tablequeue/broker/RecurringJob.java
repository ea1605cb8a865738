package dev.tablequeue.broker;

import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;

/**
 * A schedule, the queue it publishes into and what it publishes: the declaration a broker runs
 * ({@link QueueBroker#schedule(RecurringJob)}). Declared as a {@code static final} constant beside the bindings,
 * it is also what the build-time check ({@code tablequeue:check}) and the command line ({@code tablequeue
 * schedules}) find, so they see the schedule as the service runs it.
 *
 * <pre>{@code
 * static final RecurringJob NIGHTLY_REPORT = RecurringJob.of(
 *         Schedule.cron("nightly-report", "0 0 3 * * *", ZoneId.of("Europe/Berlin")),
 *         InboxQueue.of(REPORTS, "reports"), instant -> new ReportDue(instant));
 * }</pre>
 *
 * @param schedule when it comes due, and its name
 * @param queue the queue (a table and a group) each due instant's message goes into
 * @param payload the message's payload for a due instant
 */
public record RecurringJob(Schedule schedule, InboxQueue<?> queue, Function<Instant, ?> payload) {
    public RecurringJob {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(payload, "payload");
    }

    /** The job that publishes {@code payload.apply(instant)} into {@code queue} at each instant of {@code schedule}. */
    public static RecurringJob of(Schedule schedule, InboxQueue<?> queue, Function<Instant, ?> payload) {
        return new RecurringJob(schedule, queue, payload);
    }

    @Override
    public String toString() {
        return schedule + " into table \"" + queue.binding().tableName() + "\"";
    }
}
