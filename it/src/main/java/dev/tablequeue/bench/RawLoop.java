package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.KeyLocks;
import dev.tablequeue.dialect.ProcessKeys;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jooq.Record;

/**
 * The baseline: a plain JDBC loop doing a subscription's work with the very statements its dialect renders,
 * bound as the runtime binds them, and nothing else.
 *
 * <p>Each worker is a platform thread holding one connection of the pool for the whole run, with a cached
 * {@link PreparedStatement} per statement. Per message it runs what the form runs: row lock: claim, handle,
 * acknowledge, commit, in one transaction; lease: claim (and stamp, where the claim does not) in a
 * transaction, commit, handle, acknowledge in auto-commit; advisory: candidates, lock a key, take the row,
 * handle, acknowledge, unlock, all in auto-commit. The handler does nothing but read the payload. Where the
 * dialect forbids parallel claims (SQLite), workers take turns for the claim, as the runtime's do.
 *
 * <p>A row-lock worker keeps auto-commit off for its whole life, as a hand-written loop would; the lease
 * form switches it around the claim's transaction, since its acknowledgement commits on its own.
 *
 * <p>Transactional ({@link #transactional}): the handler writes one row into the table's effects table in the
 * transaction its acknowledgement commits, as a transactional delivery's does. Row lock: claim, the insert, the
 * acknowledgement, one commit. Lease: the stamping claim committed, then a transaction of the insert and the
 * acknowledgement checked against the lease. Advisory: lock the key and take the row, then a transaction of the
 * insert and the acknowledgement, then unlock.
 */
final class RawLoop {
    private final DataSource pool;
    private final QueueDialect dialect;
    private final RoleBinding<Record> binding;
    private final RawStatements statements;
    private final ReentrantLock turn;
    private final boolean virtual;
    /** The table whose effects a transactional loop writes; null for the plain loop. */
    private final BenchTable effects;

    RawLoop(BenchDatabase db, BenchTable table, Form form) {
        this(db, table, form, false, false);
    }

    /** The transactional loop: each job's effect row written and committed with its acknowledgement. */
    static RawLoop transactional(BenchDatabase db, BenchTable table, Form form) {
        return new RawLoop(db, table, form, false, true);
    }

    /** With {@code virtual}, the workers are virtual threads (a diagnostic of what blocking JDBC costs on them). */
    RawLoop(BenchDatabase db, BenchTable table, Form form, boolean virtual, boolean transactional) {
        this.virtual = virtual;
        this.effects = transactional ? table : null;
        this.pool = db.pool();
        this.dialect = db.dialect();
        this.binding = table.binding(form);
        this.statements = RawStatements.of(dialect, binding);
        this.turn = dialect.claimsInParallel() ? null : new ReentrantLock(true);
    }

    /** Handles {@code messages} prefilled rows with {@code workers} workers; returns once every one is acknowledged. */
    Measurement run(int workers, long messages) throws Exception {
        return RawWorkers.run(pool, workers, messages, virtual, "bench-raw", c -> new Worker(c, workers));
    }

    /** One worker's connection, its prepared statements and its binds. */
    private final class Worker implements RawWorkers.Worker {
        private final Connection c;
        private final int workers;
        private final Map<PreparedStatement, Integer> columns = new IdentityHashMap<>();
        private final RawConnection raw;
        /** Where the process keeps the advisory keys (SQLite): what a lock takes and an unlock puts back. */
        private final ProcessKeys keys;
        /** Where the session holds the advisory keys: the statements that take and release one; else null. */
        private final Statement lock;
        private final Statement unlock;
        private final Binds claimBinds = new Binds().group(BenchTable.GROUP);
        private final Binds rowBinds = new Binds().group(BenchTable.GROUP);
        private final Binds keyBinds = new Binds();
        private final RawEffects written;
        private long sink;

        Worker(Connection c, int workers) throws SQLException {
            this.c = c;
            this.workers = workers;
            this.written = effects == null ? null : new RawEffects(c, effects);
            this.raw = new RawConnection(c, dialect, statements.opening());
            KeyLocks locks = binding.form() == Form.ADVISORY ? dialect.keyLocks(binding, c) : null;
            this.keys = locks == null ? null : locks.inProcess().orElse(null);
            this.lock = locks == null || keys != null ? null : locks.statements().get(0);
            this.unlock = locks == null || keys != null ? null : locks.statements().get(1);
            if (binding.form() == Form.ROW_LOCK && !statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
        }

        @Override
        public int once() throws Exception {
            boolean handled = switch (binding.form()) {
                case ROW_LOCK -> rowLock();
                case LEASE -> lease();
                case ADVISORY -> advisory();
            };
            return handled ? 1 : 0;
        }

        private boolean rowLock() throws SQLException {
            open();
            claimBinds.now(Instant.now()).limit(1);
            Object id = claimOne(statements.claim().apply(1));
            if (id == null) {
                end(false);
                return false;
            }
            if (written != null) {
                written.write(List.of(id));
            }
            acknowledge(id);
            end(true);
            return true;
        }

        private boolean lease() throws SQLException {
            if (!statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
            open();
            Instant now = Instant.now();
            Instant until = now.plusSeconds(30);
            claimBinds.now(now).limit(1).leaseUntil(until);
            Object id = claimOne(statements.claim().apply(1));
            if (id != null && statements.stamp() != null) {
                rowBinds.ids(List.of(id)).leaseUntil(until);
                update(statements.stamp(), rowBinds);
                rowBinds.ids(List.of());
            }
            end(id != null);
            if (!statements.opening().explicit()) {
                c.setAutoCommit(true);
            }
            if (id == null) {
                return false;
            }
            rowBinds.leaseHeld(until);
            settle(id);
            return true;
        }

        /**
         * Acknowledges {@code id} in auto-commit; in the transactional loop, writes its effect and acknowledges it
         * in one transaction.
         */
        private void settle(Object id) throws SQLException {
            if (written == null) {
                acknowledge(id);
                return;
            }
            if (!statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
            open();
            written.write(List.of(id));
            acknowledge(id);
            end(true);
            if (!statements.opening().explicit()) {
                c.setAutoCommit(true);
            }
        }

        private boolean advisory() throws Exception {
            claimBinds.now(Instant.now()).limit(workers + 1);
            List<Object[]> candidates = turn(() -> {
                PreparedStatement ps = bound(statements.claim().apply(workers + 1), claimBinds);
                List<Object[]> list = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        list.add(new Object[] {rs.getObject(1), rs.getString(2)});
                    }
                }
                return list;
            });
            for (Object[] candidate : candidates) {
                String key = (String) candidate[1];
                if (!lock(key)) {
                    continue;
                }
                Object id = take(candidate[0]);
                if (id == null) {
                    unlock(key);
                    continue;
                }
                settle(id);
                unlock(key);
                return true;
            }
            return false;
        }

        private Object take(Object id) throws SQLException {
            rowBinds.id(id).now(Instant.now());
            if (statements.fetchOne() == null) {
                return readOne(bound(statements.take(), rowBinds));
            }
            if (update(statements.take(), rowBinds) == 0) {
                return null;
            }
            rowBinds.ids(List.of(id));
            Object taken = readOne(bound(statements.fetchOne(), rowBinds));
            rowBinds.ids(List.of());
            return taken;
        }

        private boolean lock(String key) throws SQLException {
            if (lock == null) {
                return keys.tryTake(key);
            }
            keyBinds.key(key);
            try (ResultSet rs = bound(lock, keyBinds).executeQuery()) {
                return rs.next() && isTrue(rs.getObject(1));
            }
        }

        private void unlock(String key) throws SQLException {
            if (unlock == null) {
                keys.release(key);
                return;
            }
            keyBinds.key(key);
            try (ResultSet rs = bound(unlock, keyBinds).executeQuery()) {
                rs.next();
            }
        }

        private static boolean isTrue(Object value) {
            return value instanceof Boolean b ? b : value instanceof Number n && n.longValue() == 1L;
        }

        /** Runs a claim under the turn where claims may not run side by side; the id of the row, or null. */
        private Object claimOne(Statement claim) throws SQLException {
            try {
                return turn(() -> readOne(bound(claim, claimBinds)));
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        /** Reads the first row a claim returns as the handler would (id, attempt, payload); its id, or null. */
        private Object readOne(PreparedStatement ps) throws SQLException {
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                Object id = rs.getObject(1);
                Integer count = columns.get(ps);
                if (count == null) {
                    count = rs.getMetaData().getColumnCount();
                    columns.put(ps, count);
                }
                for (int i = 2; i <= count; i++) {
                    Object value = rs.getObject(i);
                    sink += value instanceof byte[] bytes ? bytes.length : 1; // the no-op handler reads it
                }
                return id;
            }
        }

        private void acknowledge(Object id) throws SQLException {
            rowBinds.id(id).now(Instant.now());
            update(statements.ack(), rowBinds);
        }

        private int update(Statement statement, Binds binds) throws SQLException {
            return bound(statement, binds).executeUpdate();
        }

        private PreparedStatement bound(Statement statement, Binds binds) throws SQLException {
            return raw.bound(statement, binds);
        }

        private void open() throws SQLException {
            raw.open();
        }

        private void end(boolean commit) throws SQLException {
            raw.end(commit);
        }

        private <V> V turn(Claim<V> claim) throws Exception {
            if (turn == null) {
                return claim.run();
            }
            turn.lock();
            try {
                return claim.run();
            } finally {
                turn.unlock();
            }
        }

        @Override
        public void close() throws SQLException {
            if (written != null) {
                written.close();
            }
            raw.close();
            if (sink == 42) {
                System.out.print(""); // keeps the handler's reads alive
            }
        }
    }

    private interface Claim<V> {
        V run() throws Exception;
    }
}
