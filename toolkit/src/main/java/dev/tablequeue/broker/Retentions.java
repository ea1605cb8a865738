package dev.tablequeue.broker;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jooq.Field;
import org.jooq.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retention a broker runs: the declarations checked and their statements prepared at {@code start()}, then
 * a pass over every table each period on a thread of its own, one pass at a time in this broker, and what each
 * table's passes removed. Across instances, each table's lock lets one pass run at a time ({@link Retainer}).
 */
final class Retentions {
    private static final Logger LOG = LoggerFactory.getLogger(Retentions.class);

    private final QueueBroker broker;
    private final Duration period;
    private final List<Retention> declared;
    /** A retainer per declaration, built at {@code start()} once the declarations pass their rules. */
    private final List<Retainer> retainers = new ArrayList<>();
    private final Map<String, RetentionReport> reports = new LinkedHashMap<>();
    private final ReentrantLock passing = new ReentrantLock();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private Thread loop;

    Retentions(QueueBroker broker, List<Retention> declared, Duration period) {
        this.broker = broker;
        this.period = period;
        this.declared = List.copyOf(declared);
        for (Retention r : declared) {
            reports.put(r.binding().tableName(), new RetentionReport(r.binding().tableName(), Optional.empty(),
                    RetentionReport.Pass.NONE, 0, 0));
        }
    }

    /**
     * Checks every declaration against its binding and prepares its statements on the server.
     *
     * @throws DeclarationException for a retention its table cannot have
     * @throws SchemaException for a statement that does not prepare
     */
    void open() {
        if (declared.isEmpty()) {
            return;
        }
        try (Connection c = broker.dataSource.getConnection()) {
            open(c);
        } catch (SQLException e) {
            throw new TableQueueException("cannot check the declared retention: " + e.getMessage(), e);
        }
    }

    private void open(Connection c) {
        for (Retention d : declared) {
            check(d);
            Retainer r = new Retainer(d, broker.dialect, broker.schedules.namesOn(d.binding().tableName()));
            retainers.add(r);
            List<Statement> statements;
            try {
                statements = r.statements(c);
            } catch (SQLException e) {
                throw new TableQueueException(d + ": the lock by which one instance at a time passes over table \""
                        + d.binding().tableName() + "\" cannot be kept on this database: " + e.getMessage(), e);
            }
            for (Statement s : statements) {
                try {
                    broker.dialect.prepare(c, s);
                } catch (SQLException e) {
                    throw new SchemaException(r.retention + ": the " + s.purpose() + " statement does not prepare on "
                            + broker.dialect.name() + ": " + e.getMessage() + " [SQL: " + s.sql() + "]", e);
                }
            }
        }
    }

    /** The rules of one declaration, each refusal naming the table and the column. */
    static void check(Retention r) {
        RoleBinding<?> b = r.binding();
        if (r.acknowledgedAge().isPresent() && !b.has(Role.PROCESSED_AT)) {
            throw new DeclarationException(r + " ages acknowledged rows by their processedAt column, and the binding"
                    + " names none: an acknowledgement deletes the row of table \"" + b.tableName() + "\" at once");
        }
        r.keepNewestPer().ifPresent(k -> requireColumn(r, b.table(), k, "keepNewestPer"));
        for (Retention.Dead d : r.dead()) {
            switch (d.deadLetter()) {
                case DeadLetter.ToGroup g -> {
                    if (!b.has(Role.GROUP)) {
                        throw new DeclarationException(r + " declares dead-letter " + g + ", and the binding names no"
                                + " group column: its dead letters go to a table");
                    }
                    requireColumn(r, b.table(), d.agedBy(), "the age of dead letters in " + g);
                }
                case DeadLetter.ToTable t -> {
                    requireColumn(r, t.table(), d.agedBy(), "the age of dead letters in " + t);
                    if (t.table().field(b.id().getName()) == null) {
                        throw new DeclarationException(r + ": dead-letter table \"" + t.table().getName() + "\" has no"
                                + " column \"" + b.id().getName() + "\", the id retention deletes its rows by");
                    }
                }
            }
        }
    }

    private static void requireColumn(Retention r, Table<?> table, Field<?> column, String what) {
        Field<?> found = table.field(column.getName());
        if (found == null || column instanceof org.jooq.TableField<?, ?> tf && tf.getTable() != null
                && !tf.getTable().getName().equals(table.getName())) {
            throw new DeclarationException(r + ": " + what + " is column \"" + column.getName() + "\", which is not a"
                    + " column of table \"" + table.getName() + "\"");
        }
    }

    /** Starts the passes on a thread of their own, the first a period from now; none where nothing is declared. */
    void start() {
        if (retainers.isEmpty()) {
            return;
        }
        loop = Thread.ofPlatform().daemon().name("tablequeue-retention").start(() -> {
            try {
                while (!stopped.await(period.toMillis(), TimeUnit.MILLISECONDS)) {
                    try {
                        runNow();
                    } catch (RuntimeException e) {
                        LOG.warn("a retention pass failed; the next runs in {}: {}", period, e.toString());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Runs one pass over every table now (after a pass under way in this broker ends); the reports after it. */
    List<RetentionReport> runNow() {
        RuntimeException failed = null;
        passing.lock();
        try {
            for (Retainer r : retainers) {
                if (!running) {
                    break;
                }
                try {
                    passOver(r);
                } catch (RuntimeException e) {
                    // one table's failure does not keep the others' rows
                    if (failed == null) {
                        failed = e;
                    } else {
                        failed.addSuppressed(e);
                    }
                }
            }
        } finally {
            passing.unlock();
        }
        if (failed != null) {
            throw failed;
        }
        return reports();
    }

    /** A rest between two batches of a pass: cut short, and the pass ended, where the broker stops. */
    private boolean rest(Duration time) {
        try {
            return running && !stopped.await(time.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void passOver(Retainer r) {
        Instant now = broker.clock.instant();
        Connection c;
        try {
            c = broker.dataSource.getConnection();
        } catch (SQLException e) {
            throw new TableQueueException(r.retention + ": no connection for a pass: " + e.getMessage(), e);
        }
        boolean evict = true;
        try {
            Retainer.Done done = r.pass(c, now, this::rest);
            evict = !done.released();
            record(r.table(), now, done.pass());
        } catch (SQLException e) {
            throw new TableQueueException(r.retention + ": a pass failed on " + broker.dialect.name() + ": "
                    + e.getMessage(), e);
        } finally {
            give(c, evict);
        }
    }

    private void give(Connection c, boolean evict) {
        try {
            if (evict) {
                Pools.evict(broker.dataSource, c);
            } else {
                c.close();
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("a retention connection did not return to the pool: {}", e.toString());
        }
    }

    private synchronized void record(String table, Instant now, RetentionReport.Pass pass) {
        RetentionReport before = reports.get(table);
        reports.put(table, new RetentionReport(table, Optional.of(now), pass,
                before.acknowledgedRemoved() + pass.acknowledged(), before.deadRemoved() + pass.dead()));
        if (pass.acknowledged() + pass.dead() > 0) {
            LOG.info("tablequeue retention removed {} acknowledged and {} dead row(s) of table \"{}\" in {} batch(es)",
                    pass.acknowledged(), pass.dead(), table, pass.batches());
        }
    }

    /** What retention removed from each table, in the order the tables were declared. */
    synchronized List<RetentionReport> reports() {
        return List.copyOf(reports.values());
    }

    /** Stops the passes: a pass under way ends after its batch; returns once the thread has ended. */
    void close() {
        running = false;
        stopped.countDown();
        Thread t = loop;
        if (t != null) {
            try {
                t.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
