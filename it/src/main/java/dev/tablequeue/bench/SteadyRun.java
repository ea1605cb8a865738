package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jooq.Record;

/**
 * Steady state (issue 14, item 5): a subscription of {@code workers} workers consumes while publishers write
 * at a fixed rate below what it can consume, for a while. Each message carries the time it was published;
 * its handler notes the time from the publish call to its own first line, per slice of the run (a minute,
 * in full mode). At the end (up to 60 s after the last publish, for the backlog to drain) the messages
 * handled and the table's dead and live tuples and autovacuum runs are read ({@code pg_stat_user_tables}):
 * whether latency holds, the subscription keeps up, and the table is kept clean while it grows.
 */
final class SteadyRun {
    /** Publisher threads, each writing its share of the rate in batches of {@link #BATCH}. */
    private static final int PUBLISHERS = 4;
    private static final int BATCH = 10;

    private SteadyRun() {}

    static SteadyResult run(BenchDatabase db, Form form, int workers, double rate, double share, Duration length,
            Duration slice)
            throws Exception {
        BenchTable table = db.newTable();
        RoleBinding<Record> binding = table.binding(form);
        int slices = Math.toIntExact(Math.max(1, length.toNanos() / slice.toNanos()));
        List<Queue<Double>> millis = new ArrayList<>();
        for (int i = 0; i < slices; i++) {
            millis.add(new ConcurrentLinkedQueue<>());
        }
        AtomicLong handled = new AtomicLong();
        long start = System.nanoTime();
        QueueBroker broker = QueueBroker.builder(db.pool()).pollInterval(BrokerRun.POLL)
                .drainTimeout(Duration.ofSeconds(10)).build();
        broker.subscribe(InboxQueue.of(binding, BenchTable.GROUP)).bytes().workers(workers).handle((payload, d) -> {
            long now = System.nanoTime();
            long sent = Long.parseLong(new String(payload, StandardCharsets.US_ASCII));
            int at = (int) Math.min(slices - 1, Math.max(0, (sent - start) / slice.toNanos()));
            millis.get(at).add((now - sent) / 1e6);
            handled.incrementAndGet();
            return Outcome.ack();
        });
        AtomicLong published = new AtomicLong();
        List<Thread> publishers = new ArrayList<>();
        try {
            broker.start();
            long end = start + length.toNanos();
            // each publisher writes a batch every interval: PUBLISHERS x BATCH messages per interval in all
            long interval = (long) (PUBLISHERS * BATCH * 1e9 / rate);
            for (int p = 0; p < PUBLISHERS; p++) {
                long first = start + p * interval / PUBLISHERS;
                publishers.add(Thread.ofPlatform().name("tablequeue-bench-steady-" + p).start(() -> {
                    for (long next = first; next < end; next += interval) {
                        // the schedule of a fixed rate, not a synchronisation
                        LockSupport.parkNanos(next - System.nanoTime());
                        List<Message> batch = new ArrayList<>(BATCH);
                        long sent = System.nanoTime();
                        for (int i = 0; i < BATCH; i++) {
                            batch.add(Message.of(BenchTable.GROUP,
                                    Long.toString(sent).getBytes(StandardCharsets.US_ASCII)));
                        }
                        broker.publisher().publishAll(binding, batch);
                        published.addAndGet(BATCH);
                    }
                }));
            }
            for (Thread t : publishers) {
                t.join();
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (handled.get() < published.get() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
        } finally {
            broker.close();
        }
        long[] tuples = tuples(db, table.getName());
        db.drop(table);
        List<List<Double>> bySlice = millis.stream().map(q -> (List<Double>) new ArrayList<>(q)).toList();
        // a subscription that falls behind is what this case is there to show: its backlog is reported, not failed
        return new SteadyResult(db.engine().label(), Forms.of(form), workers, rate, share, length, slice, published.get(),
                handled.get(), bySlice, tuples[0], tuples[1], tuples[2]);
    }

    /** Dead tuples, live tuples and autovacuum runs of {@code table}, once the statistics have caught up. */
    private static long[] tuples(BenchDatabase db, String table) throws Exception {
        // the statistics are flushed by each backend within about a second of its last transaction
        LockSupport.parkNanos(Duration.ofSeconds(2).toNanos());
        try (Connection c = db.pool().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT n_dead_tup, n_live_tup, autovacuum_count"
                        + " FROM pg_stat_user_tables WHERE relname = ?")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)} : new long[] {-1, -1, -1};
            }
        }
    }
}
