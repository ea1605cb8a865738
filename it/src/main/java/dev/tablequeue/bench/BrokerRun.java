package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.broker.BatchOutcome;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.Retention;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * tablequeue doing the raw loop's work: a broker with one subscription in payload mode (the payload's bytes
 * as they are, no codec) whose handler acknowledges at once, on the same pool. The run is timed from
 * {@link QueueBroker#start()} (which builds and prepares the statements) to the last settlement.
 */
final class BrokerRun {
    /** How long an idle worker waits before it claims again: only the tail of a run is ever idle. */
    static final Duration POLL = Duration.ofMillis(50);

    private BrokerRun() {}

    static Measurement run(BenchDatabase db, BenchTable table, Form form, int workers, long messages,
            Duration timeout) throws Exception {
        return run(db, table, form, workers, 0, messages, timeout);
    }

    /**
     * As {@link #run(BenchDatabase, BenchTable, Form, int, long, Duration)}; with {@code batch > 0}, the
     * subscription is {@code batch(batch)} and its handler acknowledges every row of a batch at once.
     */
    static Measurement run(BenchDatabase db, BenchTable table, Form form, int workers, int batch, long messages,
            Duration timeout) throws Exception {
        return run(db, table, form, workers, batch, false, 0, 0, messages, timeout);
    }

    /**
     * As {@link #run(BenchDatabase, BenchTable, Form, int, long, Duration)}, with a handler that takes
     * {@code handlerNanos} (parked, as a handler waiting on a call of its own would) before it acknowledges.
     */
    static Measurement slow(BenchDatabase db, BenchTable table, Form form, int workers, long handlerNanos,
            long messages, Duration timeout) throws Exception {
        return run(db, table, form, workers, 0, false, 0, handlerNanos, messages, timeout);
    }

    /**
     * A {@code transactional()} subscription whose handler inserts one row per job into the table's effects
     * table through {@link Delivery#tx()}, with jOOQ, as a service's handler would, and acknowledges it.
     */
    static Measurement transactional(BenchDatabase db, BenchTable table, Form form, int workers, long messages,
            Duration timeout) throws Exception {
        return run(db, table, form, workers, 0, true, 0, 0, messages, timeout);
    }

    /**
     * The plain subscription while the broker's retention deletes the table's acknowledged rows from before the
     * run: the broker's clock runs two days ahead, so rows acknowledged before the run are past the one-day age
     * and rows the run acknowledges are not; passes come every 10 ms.
     */
    static Measurement retained(BenchDatabase db, BenchTable table, Form form, int workers, long old, long messages,
            Duration timeout) throws Exception {
        return run(db, table, form, workers, 0, false, old, 0, messages, timeout);
    }

    private static Measurement run(BenchDatabase db, BenchTable table, Form form, int workers, int batch,
            boolean transactional, long old, long handlerNanos, long messages, Duration timeout) throws Exception {
        // retention runs where the table holds old acknowledged rows for it to delete
        boolean retention = old > 0;
        CountDownLatch settled = new CountDownLatch(Math.toIntExact(messages));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        BrokerListener listener = new BrokerListener() {
            @Override
            public void settled(Delivery delivery, Outcome outcome) {
                settled.countDown();
            }

            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable e) {
                failure.compareAndSet(null, e);
            }

            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable e) {
                failure.compareAndSet(null, e);
            }
        };
        QueueBroker.Builder builder = QueueBroker.builder(db.pool()).pollInterval(POLL).listener(listener)
                .drainTimeout(Duration.ofSeconds(10));
        if (retention) {
            builder.clock(Clock.offset(Clock.systemUTC(), Duration.ofDays(2)))
                    .retention(Retention.of(table.binding(form)).acknowledged(Duration.ofDays(1)))
                    .retentionEvery(Duration.ofMillis(10));
        }
        QueueBroker broker = builder.build();
        var mount = broker.subscribe(InboxQueue.of(table.binding(form), BenchTable.GROUP)).bytes().workers(workers);
        if (transactional) {
            Table<?> effects = DSL.table(DSL.name(Engine.effects(table.getName())));
            Field<Long> job = DSL.field(DSL.name("job_id"), Long.class);
            mount.transactional().handle((payload, delivery) -> {
                delivery.tx().insertInto(effects, job).values(((Number) delivery.id()).longValue()).execute();
                return Outcome.ack();
            });
        } else if (batch > 0) {
            mount.batch(batch).handle((payloads, deliveries) -> BatchOutcome.all(Outcome.ack()));
        } else if (handlerNanos > 0) {
            mount.handle((payload, delivery) -> {
                long until = System.nanoTime() + handlerNanos;
                for (long left = handlerNanos; left > 0; left = until - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
                return Outcome.ack();
            });
        } else {
            mount.handle((payload, delivery) -> Outcome.ack());
        }
        try {
            Stopwatch watch = Stopwatch.start();
            broker.start();
            await(settled, failure, timeout);
            Measurement m = watch.stop(messages);
            if (retention) {
                // each batch commits on its own: rows gone by the last settlement were deleted during the run
                long removed = messages + old - db.count(table.getName(), "1 = 1");
                System.out.printf("retention  %s: removed %,d of the %,d old rows during the run%n",
                        table.getName(), removed, old);
            }
            return m;
        } finally {
            broker.close();
        }
    }

    /** Waits for {@code latch}, failing at the first failure the listener saw or at the timeout. */
    static void await(CountDownLatch latch, AtomicReference<Throwable> failure, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!latch.await(100, TimeUnit.MILLISECONDS)) {
            if (failure.get() != null) {
                throw new IllegalStateException("the broker failed: " + failure.get(), failure.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s with "
                        + latch.getCount() + " message(s) left");
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("the broker failed: " + failure.get(), failure.get());
        }
    }
}
