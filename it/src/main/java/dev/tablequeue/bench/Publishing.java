package dev.tablequeue.bench;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Publisher;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.StatementBinder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.Record;

/**
 * Writing messages into a bench table, by tablequeue's publisher and by raw JDBC running the same insert,
 * from {@code threads} threads sharing the messages.
 *
 * <p>One per commit: tablequeue's {@code publish(binding, message)} (a pooled connection, the insert, an
 * auto-commit) against a raw loop with one connection per thread and a cached prepared insert in
 * auto-commit. In batches: tablequeue's {@code publishAll(binding, messages)} (a pooled connection, the
 * insert sent once as a JDBC batch, one commit) against raw JDBC sending the batch with
 * {@code addBatch}/{@code executeBatch} and one commit on its own connection.
 */
final class Publishing {
    private Publishing() {}

    interface Writer {
        /** Writes {@code count} messages in batches of {@code batch}. */
        void write(long count, int batch) throws Exception;
    }

    static Measurement raw(BenchDatabase db, BenchTable table, int threads, long messages, int batch)
            throws Exception {
        RoleBinding<Record> binding = table.publishBinding(db.engine());
        QueueDialect dialect = db.dialect();
        Statement insert = dialect.inserts(binding).insert();
        List<Object> values = BenchDatabase.insertValues(binding);
        return spread(threads, messages, batch, (count, size) -> {
            Binds binds = new Binds().values(values);
            try (Connection c = db.pool().getConnection(); PreparedStatement ps = c.prepareStatement(insert.sql())) {
                if (size == 1) {
                    for (long i = 0; i < count; i++) {
                        StatementBinder.bind(ps, insert, binds, dialect);
                        ps.executeUpdate();
                    }
                    return;
                }
                c.setAutoCommit(false);
                try {
                    for (long i = 0; i < count; i++) {
                        StatementBinder.bind(ps, insert, binds, dialect);
                        ps.addBatch();
                        if ((i + 1) % size == 0 || i == count - 1) {
                            ps.executeBatch();
                            c.commit();
                        }
                    }
                } finally {
                    c.setAutoCommit(true);
                }
            }
        });
    }

    static Measurement tablequeue(BenchDatabase db, BenchTable table, int threads, long messages, int batch)
            throws Exception {
        RoleBinding<Record> binding = table.publishBinding(db.engine());
        QueueBroker broker = QueueBroker.builder(db.pool()).build();
        try {
            Publisher publisher = broker.publisher();
            return spread(threads, messages, batch, (count, size) -> {
                if (size == 1) {
                    for (long i = 0; i < count; i++) {
                        publisher.publish(binding, Message.of(BenchTable.GROUP, BenchDatabase.PAYLOAD));
                    }
                    return;
                }
                for (long done = 0; done < count; done += size) {
                    int n = (int) Math.min(size, count - done);
                    List<Message> batchOf = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        batchOf.add(Message.of(BenchTable.GROUP, BenchDatabase.PAYLOAD));
                    }
                    publisher.publishAll(binding, batchOf);
                }
            });
        } finally {
            broker.close();
        }
    }

    /** Runs {@code writer} on {@code threads} threads, each with its share of {@code messages}; times them all. */
    static Measurement spread(int threads, long messages, int batch, Writer writer) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        Stopwatch watch = Stopwatch.start();
        for (int i = 0; i < threads; i++) {
            long share = messages / threads + (i < messages % threads ? 1 : 0);
            started.add(Thread.ofPlatform().name("bench-publish-" + i).start(() -> {
                try {
                    writer.write(share, batch);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread t : started) {
            t.join();
        }
        Measurement m = watch.stop(messages);
        if (failure.get() != null) {
            throw new IllegalStateException("a publishing thread failed: " + failure.get(), failure.get());
        }
        return m;
    }
}
