package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.StatementWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;

/**
 * The batched baseline (issue 14): a hand-written JDBC loop that claims up to {@code batch} rows in one
 * statement and acknowledges all of them in one statement, as a service that batches by hand would.
 *
 * <ul>
 *   <li>row lock: in one transaction, the dialect's claim with {@code LIMIT batch}, then
 *       {@code UPDATE .. SET processed_at = ? WHERE id IN (..)}, then one commit;
 *   <li>lease: the dialect's claim with {@code LIMIT batch} (and its stamp, where the claim does not stamp)
 *       committed at once, then {@code UPDATE .. SET processed_at = ?, lease = NULL WHERE id IN (..) AND
 *       lease = ?} in auto-commit: the acknowledgement by ids and token.
 * </ul>
 *
 * <p>Each worker is a platform thread holding one connection for the run, with a cached
 * {@link PreparedStatement} per statement and per number of ids. The advisory form has no batched baseline (its
 * rows are taken one key at a time). Where the dialect forbids parallel claims (SQLite), the claims take turns.
 */
final class RawBatchLoop {
    private final DataSource pool;
    private final QueueDialect dialect;
    private final RoleBinding<Record> binding;
    private final RawStatements statements;
    private final ReentrantLock turn;
    private final int batch;
    private final DSLContext render;

    RawBatchLoop(BenchDatabase db, BenchTable table, Form form, int batch) {
        if (form == Form.ADVISORY) {
            throw new IllegalArgumentException("the advisory form has no batched baseline");
        }
        this.pool = db.pool();
        this.dialect = db.dialect();
        this.binding = table.binding(form);
        this.statements = RawStatements.of(dialect, binding);
        this.turn = dialect.claimsInParallel() ? null : new ReentrantLock(true);
        this.batch = batch;
        this.render = DSL.using(dialect.sqlDialect(), StatementWriter.settings());
    }

    /** Whether {@code form} has a batched baseline. */
    static boolean covers(Form form) {
        return form != Form.ADVISORY;
    }

    /** Handles {@code messages} prefilled rows with {@code workers} workers; returns once every one is acknowledged. */
    Measurement run(int workers, long messages) throws Exception {
        return RawWorkers.run(pool, workers, messages, false, "bench-raw-batch", Worker::new);
    }

    /** {@code UPDATE .. SET processed_at = ?[, lease = NULL] WHERE id IN (n ids)[ AND lease = ?]}, rendered once. */
    private String ackSql(int n) {
        Field<Object> id = field(Role.ID);
        Field<Object> processedAt = field(Role.PROCESSED_AT);
        List<Field<Object>> ids = new ArrayList<>(Collections.nCopies(n, DSL.param("id", Object.class)));
        Condition where = id.in(ids);
        Map<Field<?>, Field<?>> set = new java.util.LinkedHashMap<>();
        set.put(processedAt, DSL.param("now", Object.class));
        if (binding.form() == Form.LEASE) {
            Field<Object> lease = field(Role.LEASE);
            set.put(lease, DSL.inline(null, lease));
            where = where.and(lease.eq(DSL.param("token", Object.class)));
        }
        return render.update(binding.table()).set(set).where(where).getSQL(ParamType.INDEXED);
    }

    @SuppressWarnings("unchecked")
    private Field<Object> field(Role role) {
        return (Field<Object>) binding.column(role).orElseThrow();
    }

    /** How many deadlocks in a row a worker's claim rolls back and makes again before the run fails. */
    private static final int DEADLOCK_RETRIES = 10;

    /** One worker's connection, its prepared statements and its binds. */
    private final class Worker implements RawWorkers.Worker {
        private final Connection c;
        private final Map<Integer, PreparedStatement> acks = new HashMap<>();
        private final RawConnection raw;
        private final Binds claimBinds = new Binds().group(BenchTable.GROUP);
        private final Binds rowBinds = new Binds().group(BenchTable.GROUP);
        private final List<Object> ids = new ArrayList<>();
        private final Map<Integer, Statement> stamps = new HashMap<>();
        private long sink;

        Worker(Connection c) throws SQLException {
            this.c = c;
            this.raw = new RawConnection(c, dialect, statements.opening());
            if (binding.form() == Form.ROW_LOCK && !statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
        }

        /** One claim and its acknowledgement; the rows it handled. */
        @Override
        public int once() throws Exception {
            return binding.form() == Form.ROW_LOCK ? rowLock() : lease();
        }

        /**
         * After a deadlock of the transaction that claims (InnoDB picks a victim among claims that lock the same
         * index entries, as the runtime's claim backs off and claims again): rolls it back so that the loop claims
         * again, as a hand-written loop on InnoDB does; after {@link #DEADLOCK_RETRIES} in a row, fails.
         */
        private void rolledBackAfter(java.sql.SQLTransactionRollbackException deadlock, int attempt)
                throws SQLException {
            try {
                end(false);
            } catch (SQLException alreadyEnded) {
                deadlock.addSuppressed(alreadyEnded);
            }
            if (binding.form() == Form.LEASE && !statements.opening().explicit()) {
                c.setAutoCommit(true);
            }
            if (attempt >= DEADLOCK_RETRIES) {
                throw deadlock;
            }
        }

        private int rowLock() throws Exception {
            for (int attempt = 1; ; attempt++) {
                try {
                    return rowLockOnce();
                } catch (java.sql.SQLTransactionRollbackException deadlock) {
                    rolledBackAfter(deadlock, attempt);
                }
            }
        }

        private int rowLockOnce() throws Exception {
            open();
            Instant now = Instant.now();
            claimBinds.now(now).limit(batch);
            claim(statements.claim());
            if (ids.isEmpty()) {
                end(false);
                return 0;
            }
            acknowledge(now, null);
            end(true);
            return ids.size();
        }

        private int lease() throws Exception {
            Instant until;
            for (int attempt = 1; ; attempt++) {
                try {
                    until = leaseClaim();
                    break;
                } catch (java.sql.SQLTransactionRollbackException deadlock) {
                    rolledBackAfter(deadlock, attempt);
                }
            }
            if (ids.isEmpty()) {
                return 0;
            }
            acknowledge(Instant.now(), until);
            return ids.size();
        }

        /** The lease claim's transaction: claims and stamps the rows, commits; the lease it wrote. */
        private Instant leaseClaim() throws Exception {
            if (!statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
            open();
            Instant now = Instant.now();
            Instant until = now.plusSeconds(30);
            claimBinds.now(now).limit(batch).leaseUntil(until);
            claim(statements.claim());
            if (!ids.isEmpty() && statements.stamp() != null) {
                Statement stamp = stamps.computeIfAbsent(ids.size(), n -> dialect.leaseStamp(binding, n));
                rowBinds.ids(List.copyOf(ids)).leaseUntil(until);
                bound(stamp, rowBinds).executeUpdate();
            }
            end(!ids.isEmpty());
            if (!statements.opening().explicit()) {
                c.setAutoCommit(true);
            }
            return until;
        }

        /** Runs the claim (under the turn where claims take turns) and reads its rows as the handler would. */
        private void claim(Statement claim) throws Exception {
            ids.clear();
            if (turn != null) {
                turn.lock();
            }
            try (ResultSet rs = bound(claim, claimBinds).executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    ids.add(rs.getObject(1));
                    for (int i = 2; i <= columns; i++) {
                        Object value = rs.getObject(i);
                        sink += value instanceof byte[] bytes ? bytes.length : 1; // the no-op handler reads it
                    }
                }
            } finally {
                if (turn != null) {
                    turn.unlock();
                }
            }
        }

        /** Acknowledges every id of the claim in one statement (and, lease form, while it holds {@code token}). */
        private void acknowledge(Instant now, Instant token) throws SQLException {
            PreparedStatement ps = acks.get(ids.size());
            if (ps == null) {
                ps = c.prepareStatement(ackSql(ids.size()));
                acks.put(ids.size(), ps);
            }
            int i = 1;
            ps.setObject(i++, dialect.timeValue(binding.column(Role.PROCESSED_AT).orElseThrow(), now));
            for (Object id : ids) {
                ps.setObject(i++, id);
            }
            if (token != null) {
                ps.setObject(i, dialect.timeValue(binding.column(Role.LEASE).orElseThrow(), token));
            }
            int updated = ps.executeUpdate();
            if (updated != ids.size()) {
                throw new IllegalStateException("the batched acknowledgement updated " + updated + " of " + ids.size()
                        + " rows of " + binding.tableName());
            }
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

        @Override
        public void close() throws SQLException {
            for (PreparedStatement ps : acks.values()) {
                ps.close();
            }
            raw.close();
            if (sink == 42) {
                System.out.print(""); // keeps the handler's reads alive
            }
        }
    }
}
