package dev.tablequeue.examples.demo;

import static dev.tablequeue.examples.jooq.Tables.DEMO_RESULTS;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import org.jooq.DSLContext;

/**
 * The demo's transactional run ({@code --transactional}): each job's handler writes a row of its own into
 * {@code demo_results} through {@link Delivery#tx()} on every attempt, before it answers the job's fate. The
 * acknowledgement commits the row with the job's settlement; a retry, and the retry that dead-letters, roll it
 * back first. So at the end the table holds one row per acknowledged job, and a job that failed its first
 * attempt has only its second attempt's row.
 */
final class DemoResults {
    private DemoResults() {}

    /** The handler of a transactional run: writes the job's result, then answers as {@link Demo#handle} does. */
    static Outcome handle(DemoJob job, Delivery delivery) {
        delivery.tx().insertInto(DEMO_RESULTS)
                .set(DEMO_RESULTS.JOB, job.n())
                .set(DEMO_RESULTS.ATTEMPT, delivery.attempt().orElse(1))
                .execute();
        return Demo.handle(job, delivery);
    }

    /** Deletes the rows of an earlier run; returns how many. */
    static int empty(DSLContext ctx) {
        return ctx.deleteFrom(DEMO_RESULTS).execute();
    }

    /** What the table holds at the end of a run. */
    static Counts count(DSLContext ctx) {
        return new Counts(ctx.fetchCount(DEMO_RESULTS), ctx.fetchCount(DEMO_RESULTS, DEMO_RESULTS.ATTEMPT.gt(1)));
    }

    /**
     * The rows of {@code demo_results} at the end of a run.
     *
     * @param rows every row: one per acknowledged job where only acknowledgements committed
     * @param laterAttempts the rows a second or later attempt wrote: the jobs that failed their first one
     */
    record Counts(long rows, long laterAttempts) {}
}
