package dev.tablequeue.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.event.AbstractSchedulerListener;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * db-scheduler, the peer a Java user would pick instead, running as many no-op one-time tasks as a
 * tablequeue run handles, with as many executor threads as tablequeue has workers, on the same PostgreSQL
 * bench database and pool. It polls with its lock-and-fetch strategy ({@code SELECT .. FOR UPDATE SKIP
 * LOCKED} that picks a batch for the free threads), the faster of its two on PostgreSQL, every 50 ms like
 * tablequeue's subscriptions; a completed one-time task is deleted. Its table is created fresh for each run
 * as its documentation gives it for PostgreSQL.
 */
final class DbSchedulerRun {
    private static final String TABLE = "scheduled_tasks";
    private static final int SCHEDULE_BATCH = 1000;

    private DbSchedulerRun() {}

    static Measurement run(BenchDatabase db, int threads, long messages, Duration timeout) throws Exception {
        createTable(db);
        OneTimeTask<Void> task = Tasks.oneTime("bench-noop").execute((instance, context) -> { });
        SchedulerClient client = SchedulerClient.Builder.create(db.pool(), task).build();
        Instant due = Instant.now().minusSeconds(1);
        List<TaskInstance<?>> batch = new ArrayList<>(SCHEDULE_BATCH);
        for (long i = 0; i < messages; i++) {
            batch.add(task.instance("m" + i));
            if (batch.size() == SCHEDULE_BATCH || i == messages - 1) {
                client.scheduleBatch(batch, due);
                batch.clear();
            }
        }
        db.execute("ANALYZE " + TABLE);
        CountDownLatch completed = new CountDownLatch(Math.toIntExact(messages));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Scheduler scheduler = Scheduler.create(db.pool(), task)
                .threads(threads)
                .pollingInterval(BrokerRun.POLL)
                .pollUsingLockAndFetch(0.5, 1.0)
                .shutdownMaxWait(Duration.ofSeconds(5))
                .addSchedulerListener(new AbstractSchedulerListener() {
                    @Override
                    public void onExecutionComplete(ExecutionComplete complete) {
                        if (complete.getResult() == ExecutionComplete.Result.OK) {
                            completed.countDown();
                        } else {
                            failure.compareAndSet(null, complete.getCause().orElse(
                                    new IllegalStateException("execution " + complete.getResult())));
                        }
                    }
                })
                .build();
        try {
            Stopwatch watch = Stopwatch.start();
            scheduler.start();
            BrokerRun.await(completed, failure, timeout);
            return watch.stop(messages);
        } finally {
            scheduler.stop();
        }
    }

    /** Rows db-scheduler has not deleted yet (a completed one-time task is deleted). */
    static long left(BenchDatabase db) {
        return db.count(TABLE, "1 = 1");
    }

    private static void createTable(BenchDatabase db) {
        db.execute(
                "DROP TABLE IF EXISTS " + TABLE,
                "CREATE TABLE " + TABLE + " (task_name TEXT NOT NULL, task_instance TEXT NOT NULL, task_data BYTEA,"
                        + " execution_time TIMESTAMPTZ NOT NULL, picked BOOLEAN NOT NULL, picked_by TEXT,"
                        + " last_success TIMESTAMPTZ, last_failure TIMESTAMPTZ, consecutive_failures INT,"
                        + " last_heartbeat TIMESTAMPTZ, version BIGINT NOT NULL, priority SMALLINT,"
                        + " PRIMARY KEY (task_name, task_instance))",
                "CREATE INDEX " + TABLE + "_execution_time_idx ON " + TABLE + " (execution_time)",
                "CREATE INDEX " + TABLE + "_last_heartbeat_idx ON " + TABLE + " (last_heartbeat)",
                "CREATE INDEX " + TABLE + "_priority_execution_time_idx ON " + TABLE
                        + " (priority DESC, execution_time ASC)");
    }
}
