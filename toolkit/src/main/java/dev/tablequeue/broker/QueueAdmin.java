package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.AdminStatements;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;

/**
 * Looks into a service's queue tables and repairs them: counts per queue, dead letters moved back into their
 * queue, acknowledged rows purged, and (given a broker) subscriptions paused and resumed.
 *
 * <pre>{@code
 * QueueAdmin admin = QueueAdmin.of(dataSource);
 * InboxQueue<EmailJobsRecord> emails = InboxQueue.of(SEND_EMAIL, "emails");
 * QueueStats stats = admin.stats(emails, DeadLetter.group("escalated"));
 * admin.redrive(emails, DeadLetter.group("escalated"), Redrive.all());
 * admin.purge(emails, Duration.ofDays(7));
 * }</pre>
 *
 * <p>Its statements are built with jOOQ from the binding's columns ({@link AdminStatements}) and read a row's
 * state by the conditions the claims use, with "now" from the binding's clock: the admin's clock (the host's,
 * or the broker's) or the database's. Times are read back by the dialect, so ages do not depend on the JVM's
 * time zone.
 */
public final class QueueAdmin {
    /** How many rows one statement of a redrive names: the ids of an IN list. */
    static final int BATCH = AdminRows.BATCH;

    private final ConnectionProvider connections;
    private final QueueDialect dialect;
    private final Clock clock;
    private final QueueBroker broker;
    private final AdminConnection admin;

    private QueueAdmin(ConnectionProvider connections, QueueDialect dialect, Clock clock, QueueBroker broker) {
        this.connections = connections;
        this.dialect = dialect;
        this.clock = clock;
        this.broker = broker;
        this.admin = new AdminConnection(connections, dialect);
    }

    /** An admin on {@code dataSource}'s database, whose dialect it detects now. */
    public static QueueAdmin of(DataSource dataSource) {
        Objects.requireNonNull(dataSource, "dataSource");
        return of(new DataSourceConnectionProvider(dataSource));
    }

    /**
     * An admin on the connections of {@code ctx}, whose database's dialect it detects now, rendering table names
     * through {@code ctx}'s settings (see {@link QueueDialect#rendering}).
     */
    public static QueueAdmin of(DSLContext ctx) {
        QueueAdmin admin = of(ctx.configuration().connectionProvider());
        return new QueueAdmin(admin.connections, admin.dialect.rendering(ctx.settings()), admin.clock, null);
    }

    /**
     * An admin of {@code broker}'s queues: on its pool, dialect and clock. It reads the dead letter each
     * subscription declares, counts the broker's deliveries in work, and pauses and resumes subscriptions.
     */
    public static QueueAdmin of(QueueBroker broker) {
        return new QueueAdmin(new DataSourceConnectionProvider(broker.dataSource), broker.dialect, broker.clock, broker);
    }

    private static QueueAdmin of(ConnectionProvider connections) {
        Connection c = AdminConnection.acquire(connections);
        try {
            return new QueueAdmin(connections, QueueDialects.detect(c), Clock.systemUTC(), null);
        } catch (SQLException e) {
            throw new TableQueueException("cannot detect the database's dialect: " + e.getMessage(), e);
        } finally {
            connections.release(c);
        }
    }

    /** This admin reading "now" from {@code clock} (the host clock's default is the system's UTC clock). */
    public QueueAdmin withClock(Clock clock) {
        return new QueueAdmin(connections, dialect, Objects.requireNonNull(clock, "clock"), broker);
    }

    /** The dialect of the admin's database. */
    public QueueDialect dialect() {
        return dialect;
    }

    // ------------------------------------------------------------------ reading

    /**
     * The groups (queues) the rows of {@code binding}'s table are in, in order, dead-letter groups included.
     *
     * @throws dev.tablequeue.DialectException where the table has no group column
     */
    public List<String> groups(RoleBinding<?> binding) {
        Statement groups = AdminStatements.of(dialect, binding).groups();
        return admin.with(c -> admin.query(c, groups, new Binds(), binding, null, rs -> {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            return names;
        }));
    }

    /**
     * The counts of {@code queue}, with its dead letter as its subscription on the admin's broker declares it
     * (none known without a broker or a subscription).
     */
    public QueueStats stats(InboxQueue<?> queue) {
        return stats(queue, declaredDeadLetter(queue).orElse(null));
    }

    /** The counts of {@code queue}, whose rows go to {@code deadLetter} (null where it has none). */
    public QueueStats stats(InboxQueue<?> queue, DeadLetter deadLetter) {
        // in the lease form the table says which rows are in work; in the others, only the broker serving them knows
        OptionalLong inBroker = queue.binding().form() != Form.LEASE && serves(queue)
                ? OptionalLong.of(broker.inWork(queue)) : OptionalLong.empty();
        return new StatsReading(admin, dialect, clock).read(queue, deadLetter, inBroker);
    }

    // ------------------------------------------------------------------ repairs

    /**
     * Moves the dead letters {@code which} selects back into {@code queue}, from the dead letter its
     * subscription on the admin's broker declares.
     *
     * @throws IllegalArgumentException where the admin has no broker, or its subscription declares no dead letter
     */
    public long redrive(InboxQueue<?> queue, Redrive which) {
        DeadLetter from = declaredDeadLetter(queue).orElseThrow(() -> new IllegalArgumentException("no dead letter"
                + " is declared for queue " + queue + " on this admin's broker: name it (DeadLetter.group(..) or"
                + " DeadLetter.table(..))"));
        return redrive(queue, from, which);
    }

    /**
     * Moves the dead letters {@code which} selects from {@code from} back into {@code queue}: each row's attempt
     * starts again at 1 and its lease is cleared, so it is due as it was before its last delivery. Rows in a
     * dead-letter group that a lease holds, or that were acknowledged there, stay. From a dead-letter table, the
     * rows are copied back and deleted in one transaction per batch, by the ids it locked, so a row is moved once
     * or not at all.
     *
     * @return how many rows moved
     */
    public long redrive(InboxQueue<?> queue, DeadLetter from, Redrive which) {
        Objects.requireNonNull(from, "from");
        RoleBinding<?> b = queue.binding();
        AdminStatements statements = AdminStatements.of(dialect, b);
        Instant now = clock.instant();
        Instant cutoff = which.olderThan().map(now::minus).orElse(null);
        List<Object> ids = which.ids().stream().<Object>map(id -> RowReader.converted(b.id().getDataType(), id)).toList();
        return admin.with(c -> switch (from) {
            case DeadLetter.ToGroup g -> new Redriving(admin).group(c, statements, queue, g.group(), ids, now, cutoff);
            case DeadLetter.ToTable t -> new Redriving(admin).table(c, statements, queue, t.table(), ids, cutoff);
        });
    }

    /**
     * Deletes the acknowledged rows of {@code queue} processed longer than {@code olderThan} ago.
     *
     * @return how many rows it deleted
     * @throws dev.tablequeue.DialectException where the table has no processedAt column
     */
    public long purge(InboxQueue<?> queue, Duration olderThan) {
        if (olderThan.isNegative()) {
            throw new IllegalArgumentException("a purge's age cannot be negative: " + olderThan);
        }
        AdminStatements statements = AdminStatements.of(dialect, queue.binding());
        Statement first = statements.purgeIds(false);
        Statement next = statements.purgeIds(true);
        Statement delete = statements.purge(AdminRows.BATCH);
        Binds binds = new Binds().group(queue.group()).retryAt(clock.instant().minus(olderThan))
                .limit(AdminRows.BATCH);
        // a batch at a time, each its own transaction: a purge of many rows holds no lock for long
        return admin.with(c -> {
            long deleted = 0;
            Object after = null;
            while (true) {
                List<Object> ids = admin.query(c, after == null ? first : next,
                        after == null ? binds : binds.copy().id(after), queue.binding(), queue, AdminRows::ids);
                if (ids.isEmpty()) {
                    return deleted;
                }
                after = ids.get(ids.size() - 1);
                deleted += admin.update(c, delete, binds.copy().ids(AdminRows.padded(ids, AdminRows.BATCH)), queue);
                if (ids.size() < AdminRows.BATCH) {
                    return deleted;
                }
            }
        });
    }

    // ------------------------------------------------------------------ rows

    /**
     * Up to {@code limit} (at most 1,000) unfinished rows of {@code queue} that failed at least once (an attempt
     * above 1, or a last error), in due order: the retried rows an operator looks at first.
     *
     * @throws dev.tablequeue.DialectException where the table has neither an attempt nor a lastError column
     */
    public List<QueueRow> failing(InboxQueue<?> queue, int limit) {
        return new Inspection(admin, clock).rows(queue, queue.binding().table(), queue.group(), false, limit);
    }

    /** Up to {@code limit} (at most 1,000) unfinished rows of {@code queue}'s dead letter {@code deadLetter}, in due order. */
    public List<QueueRow> deadLetters(InboxQueue<?> queue, DeadLetter deadLetter, int limit) {
        Inspection inspection = new Inspection(admin, clock);
        return switch (deadLetter) {
            case DeadLetter.ToGroup g -> inspection.rows(queue, queue.binding().table(), g.group(), true, limit);
            case DeadLetter.ToTable t -> inspection.rows(queue, t.table(), queue.group(), true, limit);
        };
    }

    /**
     * Makes the unfinished row {@code id} of {@code queue} due now (its retryAfter set to now; in the lease form,
     * unless a lease holds it). A row in work is left as it is.
     *
     * @return whether a row was changed
     * @throws dev.tablequeue.DialectException where the table has no retryAfter column
     */
    public boolean retryNow(InboxQueue<?> queue, Object id) {
        return new Inspection(admin, clock).retryNow(queue, id);
    }

    /**
     * Deletes the unfinished row {@code id} of {@code queue}, or of its dead letter {@code from} where given
     * (null for the queue itself).
     *
     * @return whether a row was deleted
     */
    public boolean delete(InboxQueue<?> queue, DeadLetter from, Object id) {
        Inspection inspection = new Inspection(admin, clock);
        if (from == null) {
            return inspection.delete(queue, queue.binding().table(), queue.group(), id);
        }
        return switch (from) {
            case DeadLetter.ToGroup g -> inspection.delete(queue, queue.binding().table(), g.group(), id);
            case DeadLetter.ToTable t -> inspection.delete(queue, t.table(), queue.group(), id);
        };
    }

    /**
     * The rows {@code queue} acknowledged in each of the last {@code periods} (1 to 120) periods of
     * {@code period}, read from the processedAt column, the last period ending now.
     *
     * @throws dev.tablequeue.DialectException where the table has no processedAt column
     */
    public Throughput throughput(InboxQueue<?> queue, Duration period, int periods) {
        return new Inspection(admin, clock).throughput(queue, period, periods);
    }

    /**
     * The deliveries of {@code queue} the admin's broker acknowledged in each of the last {@code minutes} (1 to 60)
     * minutes of the broker's clock, the last one the minute under way: counted in memory as it writes them, so
     * this instance's acknowledgements since it started. It is the throughput of a table that deletes a row when
     * it is acknowledged, where {@link #throughput} has no processedAt column to read.
     *
     * @throws IllegalStateException where this admin has no broker
     * @throws IllegalArgumentException where its broker does not serve {@code queue}
     */
    public Throughput acknowledgedByBroker(InboxQueue<?> queue, int minutes) {
        QueueBroker b = requireBroker("count what " + queue + " acknowledged");
        return b.subscriptions.of(queue).acknowledged.read(b.clock.instant(), minutes);
    }

    // ------------------------------------------------------------------ retention

    /** What the retention of the admin's broker removed from each table it declares it for ({@link Retention}). */
    public List<RetentionReport> retention() {
        return requireBroker("read what retention removed").retentions.reports();
    }

    /** Runs a pass of the started broker's retention now, as its own passes run; the reports after it. */
    public List<RetentionReport> runRetention() {
        QueueBroker b = requireBroker("run retention");
        if (!b.isRunning()) {
            throw new IllegalStateException("retention runs on a started broker, and this admin's is not running");
        }
        return b.retentions.runNow();
    }

    /**
     * One pass of {@code retention} now, on the admin's connections and clock, under the lock a broker's passes
     * take: where one holds it, this pass does nothing and says so ({@link RetentionReport.Pass#heldElsewhere()}).
     *
     * @throws dev.tablequeue.DeclarationException for a retention the table cannot have
     */
    public RetentionReport runRetention(Retention retention) {
        Retentions.check(retention);
        Retainer retainer = new Retainer(retention, dialect,
                broker == null ? List.of() : broker.schedules.namesOn(retention.binding().tableName()));
        Instant now = clock.instant();
        RetentionReport.Pass pass = admin.with(c -> {
            Retainer.Done done = retainer.pass(c, now, Retainer.Between.PARKED);
            if (!done.released()) {
                c.abort(Runnable::run);
            }
            return done.pass();
        });
        return new RetentionReport(retainer.table(), Optional.of(now), pass, pass.acknowledged(), pass.dead());
    }

    // ------------------------------------------------------------------ subscriptions

    /** Pauses the subscription to {@code queue} on the admin's broker: see {@link QueueBroker#pause}. */
    public void pause(InboxQueue<?> queue) {
        requireBroker("pause " + queue).pause(queue);
    }

    /** Resumes the subscription to {@code queue} on the admin's broker: see {@link QueueBroker#resume}. */
    public void resume(InboxQueue<?> queue) {
        requireBroker("resume " + queue).resume(queue);
    }

    /** Whether the subscription to {@code queue} on the admin's broker is paused. */
    public boolean isPaused(InboxQueue<?> queue) {
        return requireBroker("read whether " + queue + " is paused").isPaused(queue);
    }

    /**
     * The schedules the admin's broker runs, each with the newest instant it knows in its table and the next
     * it will publish: see {@link QueueBroker#schedules()}.
     */
    public List<ScheduleState> schedules() {
        return requireBroker("list its schedules").schedules();
    }

    /**
     * {@code job}'s schedule as its table holds it, with no broker needed: the newest instant published, and the
     * first instant after it and now, which a running broker publishes next.
     *
     * @throws dev.tablequeue.DeclarationException where the job's binding breaks a rule a schedule's start keeps
     */
    public ScheduleState schedule(RecurringJob job) {
        ScheduledJob scheduled = new ScheduledJob(job);
        scheduled.checkBinding();
        return scheduled.stateInTable(DSL.using(connections, dialect.sqlDialect()), clock.instant());
    }

    private QueueBroker requireBroker(String action) {
        if (broker == null) {
            throw new IllegalStateException("this admin has no broker (QueueAdmin.of(broker) gives it one): cannot "
                    + action);
        }
        return broker;
    }

    private boolean serves(InboxQueue<?> queue) {
        return broker != null && broker.queues().stream().anyMatch(s -> s.queue().equals(queue));
    }

    private Optional<DeadLetter> declaredDeadLetter(InboxQueue<?> queue) {
        if (broker == null) {
            return Optional.empty();
        }
        return broker.queues().stream().filter(s -> s.queue().equals(queue)).findFirst()
                .flatMap(ServedQueue::deadLetter);
    }
}
