package dev.tablequeue.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The notes of a report that say how its figures were made. */
final class BenchMethod {
    private BenchMethod() {}

    /** The method notes of a run with {@code options}, on bench databases {@code main} and {@code durable}. */
    static List<String> notes(BenchOptions options, String main, String durable) {
        List<String> method = new ArrayList<>();
        method.add(options.quick()
                ? "Quick mode: a smoke run of " + BenchOptions.QUICK_MESSAGES + " messages per run, one round, no"
                        + " warm-up. Its figures are not measurements; use the full mode for those."
                : String.format(Locale.ROOT, "Each case is sized first: a warm-up run of 1,000 messages per"
                        + " contender, then a run of about 2 s; the count of every timed run is the fastest"
                        + " contender's rate times %.1f s (plus 30%%). Then %d rounds run over all cases, the"
                        + " contenders' order alternating; a case whose shortest run of a round was under"
                        + " %.1f s gets more messages from the next round on. 'shortest run' in the table is"
                        + " the shortest timed run of the case: a run can fall under the target when the"
                        + " machine's load drops after sizing.", options.seconds(), options.rounds(),
                        options.seconds()));
        method.add("Every run has a fresh table, prefilled (consumption) or empty (publishing); the timed window"
                + " of a consumption run starts before the contender starts (tablequeue: QueueBroker.start(),"
                + " which builds and prepares the statements; raw: taking its connections) and ends at the last"
                + " acknowledgement; every row is checked to be acknowledged (or written) afterwards.");
        method.add("Raw JDBC: platform threads, one connection each for the whole run, a cached PreparedStatement"
                + " per statement, the dialect's own statements bound by StatementBinder (see RawLoop)."
                + " tablequeue: QueueBroker with one subscription in bytes() payload mode, workers(n), a no-op"
                + " handler returning Outcome.ack(), poll interval 50 ms.");
        method.add("Heap bytes per message: the JVM's total allocated bytes"
                + " (com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes) over the timed window divided"
                + " by the messages, median of the rounds; it includes the driver, the pool and every other"
                + " thread of the JVM (tablequeue's handlers run on virtual threads, which the per-thread"
                + " counter does not report).");
        method.add("db-scheduler " + DbSchedulerVersion.get() + ": no-op one-time tasks scheduled in batches"
                + " before the run, the scheduler started with threads(n), pollingInterval 50 ms and"
                + " pollUsingLockAndFetch(0.5, 1.0), on the same bench database and pool; timed from"
                + " Scheduler.start() to the last completion.");
        method.add("Publishing: '" + Scenarios.PUBLISH_ONE + "' is tablequeue's publish(binding, message) against"
                + " the dialect's insert in auto-commit on a cached statement; '" + Scenarios.PUBLISH_BATCH
                + "' is raw addBatch/executeBatch with one commit per batch against tablequeue's"
                + " publishAll(binding, messages) with 100 messages (one JDBC batch, one commit).");
        method.add("The outbox: '" + Scenarios.OUTBOX_PUBLISH + "' (PostgreSQL) is publish(ctx, binding, message) into"
                + " the table broker, one jOOQ transaction per message, untracked against tracked (the outbox's record"
                + " written in the same statement as the row, a data-modifying CTE, its id in the row's headers); '"
                + Scenarios.OUTBOX_DELIVERY + "' is a no-op handler over a prefilled inbox whose rows carry a record"
                + " id (every database: row lock, SQLite lease), without and with the outbox's handler middleware"
                + " (row lock: each claim's records marked in the claim's transaction, which the settlement commits;"
                + " lease: each claim's records read on the claim's connection, one statement per claim, and marked"
                + " in the settlement's transaction).");
        method.add("Batches: '" + Scenarios.consumeBatch(16) + "' and '" + Scenarios.consumeBatch(64) + "' run"
                + " tablequeue's batch(n) with workers(n) at the most workers and a handler answering"
                + " BatchOutcome.all(Outcome.ack()), beside the batched raw loop claiming n rows at a time; the"
                + " db-scheduler ratio compares them with db-scheduler's single tasks at the same thread count.");
        method.add("Growth: '" + Scenarios.CONSUME_GROWN + "' runs the same subscription (row lock; SQLite: lease)"
                + " on a table of pending rows alone and on one where " + String.format(Locale.ROOT, "%,d",
                (options.quick() ? BenchOptions.GROWN_ROWS_QUICK : BenchOptions.GROWN_ROWS)) + " acknowledged rows (written by one INSERT .. SELECT the server generates, before"
                + " the pending rows, so they hold the smaller ids) share the table and its indexes.");
        method.add("Retention: '" + Scenarios.CONSUME_RETAINED + "' runs that subscription (row lock; SQLite: lease)"
                + " on a table whose " + String.format(Locale.ROOT, "%,d", (options.quick()
                ? BenchOptions.RETAINED_ROWS_QUICK : BenchOptions.RETAINED_ROWS)) + " acknowledged rows come before"
                + " the pending ones, without retention and with retention(Retention.of(binding).acknowledged(1 day))"
                + " passing every 10 ms on a broker clock two days ahead (so the old rows are past their age and the"
                + " run's are not).");
        method.add("PostgreSQL's main figures run on " + main + " (ALTER DATABASE .. SET synchronous_commit ="
                + " off); the '" + Scenarios.CONSUME_DURABLE + "' rows repeat the largest worker count on "
                + durable + " with the server's default. MariaDB's and SQLite's durability settings"
                + " are the server's and the harness's (WAL, synchronous NORMAL), listed above.");
        method.add("Transactional: '" + Scenarios.CONSUME_TRANSACTIONAL + "' runs a transactional() subscription whose"
                + " handler inserts one row per job into an effects table through delivery.tx() with jOOQ, at the"
                + " least and the most workers, beside a raw loop of the same shape per form (row lock: claim, the"
                + " insert, the acknowledgement, one commit; lease: the stamping claim committed, then a transaction"
                + " of the insert and the token-checked acknowledgement; advisory: lock and take, a transaction of the"
                + " insert and the acknowledgement, unlock) and the batched raw loop (a claim of as many rows as"
                + " workers, their inserts in one statement, their acknowledgement in one, one commit); every job"
                + " must end with exactly one effect row. The '" + Scenarios.CONSUME_TRANSACTIONAL_DURABLE + "' rows"
                + " repeat them on " + durable + ".");
        return method;
    }
}
