package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.KeyLocks;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.RetentionStatements;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.jooq.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's retention at work: its statements, built once, and a pass over the table. A pass first takes the
 * table's retention lock without waiting (the dialect's advisory lock on the session, or where the process keeps
 * the keys, as on SQLite, the process's); where another instance holds it, the pass does nothing. Holding it,
 * the pass reads a batch of ids of rows past their age with a plain read, deletes those ids in one statement,
 * which is its own transaction (the connection commits each statement), and goes on until a batch comes back
 * short. After a full batch it rests four times as long as the batch took, so a backlog of old rows takes at most
 * a fifth of one connection's time and of the database's, and claims keep the rest. No lock a claim needs is held
 * between batches, and a claim never wants the rows a batch deletes: they are finished.
 */
final class Retainer {
    private static final Logger LOG = LoggerFactory.getLogger(Retainer.class);
    /** The most rows one delete removes. */
    static final int BATCH = 100;
    /** How many times a batch's own time the pass rests after it. */
    static final int REST_PER_BATCH = 4;
    /** The prefix of a table's retention lock key; the table's name follows. */
    static final String KEY_PREFIX = "tablequeue-retention:";

    /**
     * The statements of one kind of finished row: the read of the first batch of ids, the read of a batch after
     * the last id of the one before, and their delete.
     */
    private record Kind(boolean acknowledged, Statement ids, Statement idsAfter, Statement delete,
            Retention.Dead dead) {}

    final Retention retention;
    private final QueueDialect dialect;
    private final List<Kind> kinds = new ArrayList<>();
    private final String key;
    /** The locks of the table's key, known from the first pass (or the start) on. */
    private volatile KeyLocks locks;

    Retainer(Retention retention, QueueDialect dialect) {
        this(retention, dialect, List.of());
    }

    /** A retainer that leaves the newest row of each of {@code schedules}, which publish into its table. */
    Retainer(Retention retention, QueueDialect dialect, List<String> schedules) {
        this.retention = retention;
        this.dialect = dialect;
        RoleBinding<?> b = retention.binding();
        this.key = KEY_PREFIX + b.tableName();
        RetentionStatements s = RetentionStatements.of(dialect, b, schedules);
        if (retention.acknowledgedAge().isPresent()) {
            Field<?> keep = retention.keepNewestPer().orElse(null);
            kinds.add(new Kind(true, s.acknowledgedIds(keep, false), s.acknowledgedIds(keep, true),
                    s.deleteAcknowledged(BATCH), null));
        }
        for (Retention.Dead d : retention.dead()) {
            kinds.add(switch (d.deadLetter()) {
                case DeadLetter.ToGroup g -> new Kind(false,
                        s.deadIdsInGroup(d.agedBy(), retention.keepNewestPer().orElse(null), false),
                        s.deadIdsInGroup(d.agedBy(), retention.keepNewestPer().orElse(null), true),
                        s.deleteDeadInGroup(d.agedBy(), BATCH), d);
                case DeadLetter.ToTable t -> new Kind(false, s.deadIdsInTable(t.table(), d.agedBy(), false),
                        s.deadIdsInTable(t.table(), d.agedBy(), true),
                        s.deleteDeadInTable(t.table(), d.agedBy(), BATCH), d);
            });
        }
    }

    /** Every statement a pass on the database {@code c} reaches may run, for the start to prepare. */
    List<Statement> statements(Connection c) throws SQLException {
        List<Statement> all = new ArrayList<>();
        for (Kind k : kinds) {
            all.add(k.ids());
            all.add(k.idsAfter());
            all.add(k.delete());
        }
        all.addAll(locks(c).statements());
        return all;
    }

    /** The locks of the table's key on the database {@code c} reaches, the same for every pass. */
    private KeyLocks locks(Connection c) throws SQLException {
        KeyLocks known = locks;
        if (known == null) {
            known = dialect.keyLocks(retention.binding(), c);
            locks = known;
        }
        return known;
    }

    /** The table's name. */
    String table() {
        return retention.binding().tableName();
    }

    /** The rest between two batches of a pass. */
    interface Between {
        /** Rests by parking the thread, and always goes on: a pass an admin runs on its caller's thread. */
        Between PARKED = time -> {
            LockSupport.parkNanos(time.toNanos());
            return true;
        };

        /** Waits {@code time} (less where the pass is to stop); returns whether the pass goes on. */
        boolean rest(Duration time);
    }

    /**
     * One pass on {@code c} (in auto-commit), with ages counted back from {@code now}, resting {@code between}
     * batches.
     *
     * @return what it removed; where the lock's release was not confirmed, the caller ends {@code c}'s session
     */
    Done pass(Connection c, Instant now, Between between) throws SQLException {
        KeyLocks locks = locks(c);
        if (!locks.tryLock(c, key)) {
            return new Done(new RetentionReport.Pass(0, 0, 0, true), true);
        }
        RetentionReport.Pass pass;
        try {
            pass = deleteAll(c, now, between);
        } catch (SQLException | RuntimeException e) {
            // the caller ends the session of a connection that failed, and the server's lock with it
            unlock(c, locks);
            throw e;
        }
        return new Done(pass, unlock(c, locks));
    }

    /** A pass's counts, and whether its lock was released (else the connection's session must end). */
    record Done(RetentionReport.Pass pass, boolean released) {}

    private RetentionReport.Pass deleteAll(Connection c, Instant now, Between between) throws SQLException {
        long acknowledged = 0;
        long dead = 0;
        int batches = 0;
        for (Kind k : kinds) {
            Binds binds = new Binds().now(now).limit(BATCH).retryAt(now.minus(k.acknowledged()
                    ? retention.acknowledgedAge().orElseThrow() : k.dead().age()));
            if (k.dead() != null && k.dead().deadLetter() instanceof DeadLetter.ToGroup g) {
                binds.group(g.group());
            }
            Object after = null;
            while (true) {
                long started = System.nanoTime();
                List<Object> ids = Jdbc.query(c, after == null ? k.ids() : k.idsAfter(),
                        after == null ? binds : binds.copy().id(after), dialect, AdminRows::ids);
                if (ids.isEmpty()) {
                    break;
                }
                after = ids.get(ids.size() - 1);
                int removed = Jdbc.update(c, k.delete(), binds.copy().ids(AdminRows.padded(ids, BATCH)), dialect);
                batches++;
                if (k.acknowledged()) {
                    acknowledged += removed;
                } else {
                    dead += removed;
                }
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                if (ids.size() < BATCH || !between.rest(took.multipliedBy(REST_PER_BATCH))) {
                    break;
                }
            }
        }
        return new RetentionReport.Pass(acknowledged, dead, batches, false);
    }

    private boolean unlock(Connection c, KeyLocks locks) {
        try {
            return locks.unlock(c, key);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("the retention lock of table \"{}\" was not released: {}", table(), e.toString());
            return false;
        }
    }
}
